import CLISupport
import FoundationEssentials
import Glibc
import MockServer
import MockSessions
import Synchronization

/// Gives the allocator's free pages back to the system once the last session has closed. A
/// fault that builds a backlog (`fragment`, `bandwidth`) otherwise leaves its high-water
/// resident for the server's lifetime: the issue 14 soak grew 27 MB in one `fragment` round and
/// never shrank. Runs on its own thread, never on a service thread: it polls the open-session
/// count every 250 ms and calls `malloc_trim(0)` once per idle stretch, a second after the count
/// reached zero (so a client that reconnects at once does not pay for it).
final class IdleMemoryRelease: Sendable {
    private let stopping = Atomic<Bool>(false)

    /// Starts polling `openSessions`; `logger` gets one info line per release.
    func start(openSessions: @escaping @Sendable () -> Int, logger: Logger) {
        DetachedThread.start { [self] in
            guard let mallocTrim = GlibcFunction.named("malloc_trim", as: (@convention(c) (Int) -> Int32).self) else {
                logger(.warn, "malloc_trim not found: idle memory is not released")
                return
            }
            var sawSessions = false
            var idleSince: ContinuousClock.Instant?
            while !stopping.load(ordering: .relaxed) {
                usleep(250_000)
                if openSessions() > 0 {
                    sawSessions = true
                    idleSince = nil
                    continue
                }
                guard sawSessions else { continue }
                let since = idleSince ?? .now
                idleSince = since
                guard ContinuousClock.now - since >= .seconds(1) else { continue }
                let before = Self.residentKiB()
                _ = mallocTrim(0)
                logger(
                    .info, "all sessions closed: released idle memory (RSS \(before) KiB → \(Self.residentKiB()) KiB)")
                sawSessions = false
                idleSince = nil
            }
        }
    }

    /// Keeps freed memory at the top of each allocator arena while sessions run (glibc trims an
    /// arena's top past 128 KiB by default): with two service threads streaming, their arenas
    /// shrank and grew again about 200 times a second at 100 Qwen sessions, an `mprotect` each
    /// plus the page faults of touching the regrown pages. What is kept goes back when the server
    /// is idle (`start`). Called once, before the service threads exist.
    static func keepArenaTopsWhileBusy(logger: Logger) {
        guard let mallopt = GlibcFunction.named("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self) else {
            logger(.warn, "mallopt not found: the allocator trims as it frees")
            return
        }
        let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in malloc.h
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        _ = mallopt(trimThreshold, 256 << 20)
        // Setting one threshold turns off glibc's sliding mmap threshold; without this every
        // block of 128 KiB or more (answer audio, big frames) would be mapped and unmapped anew.
        _ = mallopt(mmapThreshold, 32 << 20)
    }

    /// Ends the polling (the thread exits within 250 ms; the process may exit before it does).
    func stop() { stopping.store(true, ordering: .relaxed) }

    /// This process's resident set in KiB (`/proc/self/statm`, second field, in pages).
    static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
