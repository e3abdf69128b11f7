import CLISupport
import FoundationEssentials
import Glibc
import Synchronization
import WireSocket

/// One run of the client command for one case (a ``ChildProcess``): started in its own process
/// group (so a timeout kills every process it started), stdout read line by line with
/// CLOCK_MONOTONIC timestamps, stderr kept as the case's log, stdin open for adapter commands.
final class ClientProcess: Sendable {
    struct Line: Sendable {
        let monotonicMicros: Int64
        let text: String
    }

    /// The stdout lines kept (filled on the child's reader thread).
    private final class Lines: Sendable {
        let kept = Mutex<[Line]>([])
    }

    private let child: ChildProcess
    private let kept = Lines()
    /// Caps what is kept of a flooding client (lines and stderr bytes).
    private static let maxLines = 100_000
    private static let maxStderrBytes = 1 << 20

    /// Starts `/bin/sh -c command` with this process's environment plus `environment`.
    init(command: String, environment: [String: String], workingDirectory: URL) throws(ChildProcess.Failure) {
        let kept = kept
        child = try ChildProcess(
            "/bin/sh", ["-c", command],
            environment: ChildProcess.currentEnvironment.merging(environment) { _, new in new },
            workingDirectory: workingDirectory.path, standardInput: .pipe,
            standardOutput: .lines { texts in
                // One timestamp and one lock per read.
                let now = MonotonicClock.nowMicros()
                kept.kept.withLock { lines in
                    let room = max(0, Self.maxLines - lines.count)
                    lines.append(contentsOf: texts.prefix(room).map { Line(monotonicMicros: now, text: $0) })
                }
            },
            standardError: .keep(limit: Self.maxStderrBytes), ownProcessGroup: true)
    }

    /// Writes one line to the client's stdin (ignored once the client closed it).
    func send(line: String) { child.write(line + "\n") }

    func closeStdin() { child.closeInput() }

    var lines: [Line] { kept.kept.withLock { $0 } }
    var stderrText: String { child.standardError }
    var isRunning: Bool { child.isRunning }
    /// The exit code when the client exited (nil while running or when a signal ended it).
    var exitCode: Int32? {
        if case .exited(let code) = child.termination { return code }
        return nil
    }
    /// The signal that ended the client (nil while running or when it exited).
    var signal: Int32? {
        if case .signalled(let signal) = child.termination { return signal }
        return nil
    }

    /// Forgets the stdout lines and stderr kept so far: a reused adapter's next case starts
    /// with an empty record (and a long run never reaches the caps).
    func discardOutput() {
        kept.kept.withLock { $0.removeAll(keepingCapacity: true) }
        child.discardKeptOutput()
    }

    /// How a wait for one stdout line ended.
    enum LineWait: Sendable {
        case found(Line)
        /// stdout closed (the client exited) before such a line.
        case closed
        case timedOut
    }

    /// Waits for a stdout line that satisfies `matches`, looking at every line kept, in order.
    func waitForLine(timeoutMillis: Int, where matches: @Sendable (Line) -> Bool) async -> LineWait {
        let deadline = MonotonicClock.nowMicros() + Int64(timeoutMillis) * 1000
        var checked = 0
        while true {
            let closed = child.outputEnded
            let fresh = kept.kept.withLock { lines in Array(lines[min(checked, lines.count)...]) }
            checked += fresh.count
            if let line = fresh.first(where: matches) { return .found(line) }
            if closed { return .closed }
            if MonotonicClock.nowMicros() >= deadline { return .timedOut }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Kills the client's whole process group and reaps it.
    func kill() {
        guard child.isRunning else { return }
        child.kill()
    }

    /// The first stdout line, once written (nil while none, or at EOF without one).
    func waitForFirstLine(timeoutMillis: Int) async -> Line? {
        guard case .found(let line) = await waitForLine(timeoutMillis: timeoutMillis, where: { _ in true }) else {
            return nil
        }
        return line
    }

    /// Waits for the client to exit; kills its process group at the deadline. Returns whether
    /// it had to be killed.
    func waitForExit(timeoutMillis: Int) async -> Bool {
        let exited = await child.waitForExit(timeout: .milliseconds(max(0, timeoutMillis)))
        if exited == nil { kill() }
        // What the client wrote just before it exited is still in the pipes: read it to EOF
        // (bounded: a child it left behind may hold them open).
        _ = await child.waitForOutputEnd(timeout: .seconds(1))
        return exited == nil
    }
}
