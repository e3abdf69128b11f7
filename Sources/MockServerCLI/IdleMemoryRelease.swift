import CLISupport
import FoundationEssentials
import Glibc
import MockServer
import MockSessions
import Synchronization

/// Gives the allocator's free pages back to the system once the server is idle. A fault that
/// builds a backlog (`fragment`, `bandwidth`) otherwise leaves its high-water resident for the
/// server's lifetime (the issue 14 soak grew 27 MB in one `fragment` round and never shrank), and
/// so do a load burst and a flood of hostile connections: refused upgrades, garbage frames and
/// an oversized message grew the server 30 → 89 MB, still 89 MB after 50 s idle (issue 44).
///
/// Runs on its own thread, never on a service thread: it polls the open-session count every
/// 250 ms and, while no session is open, the resident set. It releases once per idle stretch: a
/// second after the last session closed, or after the resident set stopped growing past the
/// level of the last release (connections that never became sessions show only there), so a
/// client that reconnects at once does not pay for it.
final class IdleMemoryRelease: Sendable {
    private let stopping = Atomic<Bool>(false)

    /// Growth of the resident set without a session that calls for a release: a tenth of the
    /// level after the last one, at least 1 MiB. Less is the allocator's slack and a closed
    /// session's late teardown (a twentieth made a second release 2 s after the first in a busy
    /// test run: +1.5 MiB on 27 MiB); a flood grows it many times that.
    static func releaseThresholdKiB(afterReleaseAt levelKiB: Int) -> Int { max(levelKiB / 10, 1024) }

    /// The M_TRIM_THRESHOLD kept while sessions run (see ``keepArenaTopsWhileBusy(logger:)``).
    static let busyTrimThreshold: Int32 = 256 << 20

    /// Starts polling `openSessions`; `onServiceThreads` runs a closure on every service thread
    /// (returning how many), `logger` gets one info line per release.
    func start(
        openSessions: @escaping @Sendable () -> Int,
        onServiceThreads: @escaping @Sendable (@escaping @Sendable () -> Void) -> Int, logger: Logger
    ) {
        DetachedThread.start { [self] in
            guard let allocator = Allocator() else {
                logger(.warn, "malloc_trim not found: idle memory is not released")
                return
            }
            var sawSessions = false
            var idleSince: ContinuousClock.Instant?
            // The resident set after the last release, or once it settled after the start.
            var releasedAt: Int?
            var lastResident = 0
            while !stopping.load(ordering: .relaxed) {
                usleep(250_000)
                if openSessions() > 0 {
                    sawSessions = true
                    idleSince = nil
                    continue
                }
                let resident = Self.residentKiB()
                defer { lastResident = resident }
                if resident > lastResident + 256 { idleSince = nil }  // still growing: not idle yet
                let since = idleSince ?? .now
                idleSince = since
                guard ContinuousClock.now - since >= .seconds(1) else { continue }
                let grew = releasedAt.map { resident > $0 + Self.releaseThresholdKiB(afterReleaseAt: $0) } ?? false
                guard sawSessions || grew else {
                    if releasedAt == nil { releasedAt = resident }
                    continue
                }
                allocator.release(onServiceThreads: onServiceThreads)
                let after = Self.residentKiB()
                releasedAt = after
                logger(.info, "server idle: released idle memory (RSS \(resident) KiB → \(after) KiB)")
                sawSessions = false
                idleSince = nil
            }
        }
    }

    /// glibc's allocator entry points that malloc.h has and the Swift module does not export.
    private struct Allocator {
        let mallocTrim: @convention(c) (Int) -> Int32
        let mallopt: @convention(c) (Int32, Int32) -> Int32

        init?() {
            guard let mallocTrim = GlibcFunction.named("malloc_trim", as: (@convention(c) (Int) -> Int32).self),
                let mallopt = GlibcFunction.named("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)
            else { return nil }
            self.mallocTrim = mallocTrim
            self.mallopt = mallopt
        }

        /// Gives back what the arenas hold free. `malloc_trim(0)` returns the free pages inside
        /// every arena and the top of the main one, but not the top of a thread's own arena,
        /// where a service thread's sessions, floods and large messages grew it: glibc shrinks
        /// that only when a large block (64 KiB or more) is freed into it while its free top is
        /// over M_TRIM_THRESHOLD, pinned at 256 MiB while busy. So the threshold drops to glibc's
        /// default for a moment, every service thread frees a large block into its own arena,
        /// and the threshold goes back up.
        func release(onServiceThreads: (@escaping @Sendable () -> Void) -> Int) {
            let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in malloc.h
            _ = mallopt(trimThreshold, 128 << 10)
            let done = Completions()
            let posted = onServiceThreads {
                // Called through pointers looked up at run time: the optimiser cannot drop the pair.
                if let malloc = GlibcFunction.named(
                    "malloc", as: (@convention(c) (Int) -> UnsafeMutableRawPointer?).self),
                    let free = GlibcFunction.named("free", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
                {
                    free(malloc(256 << 10))
                }
                _ = done.count.add(1, ordering: .releasing)
            }
            for _ in 0..<500 where done.count.load(ordering: .acquiring) < posted { usleep(1_000) }
            _ = mallopt(trimThreshold, IdleMemoryRelease.busyTrimThreshold)
            _ = mallocTrim(0)
        }
    }

    /// How many service threads have freed their block.
    private final class Completions: Sendable {
        let count = Atomic<Int>(0)
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
        _ = mallopt(trimThreshold, busyTrimThreshold)
        // Setting one threshold turns off glibc's sliding mmap threshold. Blocks of 64 KiB or
        // more are mapped: the receive buffer lws allocates per connection (64 KiB) then costs
        // the pages a frame touches, not the heap pages around it that the allocator's own
        // headers touch (issue 44: 16.7 → 14.0 KiB per idle Qwen session at 2,000, server CPU
        // unchanged). Nothing per frame is that large; answer audio is rendered once per answer.
        _ = mallopt(mmapThreshold, 64 << 10)
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
