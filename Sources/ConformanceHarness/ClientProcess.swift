import Foundation
import Glibc
import Synchronization

/// One run of the client command for one case: started in its own process group (so a timeout
/// kills every process it started), stdout read line by line with CLOCK_MONOTONIC timestamps, stderr
/// kept as the case's log, stdin open for adapter commands.
final class ClientProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` and the pipes are set up before start and then only used
    // through thread-safe calls; everything read by other threads is behind `state`.

    struct Line: Sendable {
        let monotonicMicros: Int64
        let text: String
    }

    private struct State {
        var lines: [Line] = []
        var stderr = Data()
        var stdoutClosed = false
        var stderrClosed = false
    }

    private let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let state = Mutex(State())
    /// Caps what is kept of a flooding client (lines and stderr bytes).
    private let maxLines = 100_000
    private let maxStderrBytes = 1 << 20

    init(command: String, environment: [String: String], workingDirectory: URL) {
        // Foundation starts the child as the leader of its own process group (pgid = pid), so
        // the timeout can kill the whole tree with kill(-pid).
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.currentDirectoryURL = workingDirectory
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
    }

    func start() throws {
        try process.run()
        let stdout = stdoutPipe.fileHandleForReading
        let stderr = stderrPipe.fileHandleForReading
        Thread.detachNewThread { [self] in readLines(stdout) }
        Thread.detachNewThread { [self] in readStderr(stderr) }
    }

    /// Writes one line to the client's stdin (ignored once the client closed it).
    func send(line: String) {
        let handle = stdinPipe.fileHandleForWriting
        try? handle.write(contentsOf: Data((line + "\n").utf8))
    }

    func closeStdin() { try? stdinPipe.fileHandleForWriting.close() }

    var lines: [Line] { state.withLock { $0.lines } }
    var stderrText: String { String(decoding: state.withLock { $0.stderr }, as: UTF8.self) }
    var isRunning: Bool { process.isRunning }
    var exitCode: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// Forgets the stdout lines and stderr kept so far: a reused adapter's next case starts
    /// with an empty record (and a long run never reaches the caps).
    func discardOutput() {
        state.withLock { state in
            state.lines.removeAll(keepingCapacity: true)
            state.stderr.removeAll(keepingCapacity: true)
        }
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
        let deadline = MonotonicTime.now + Int64(timeoutMillis) * 1000
        var checked = 0
        while true {
            let (fresh, closed) = state.withLock { state in
                (Array(state.lines[min(checked, state.lines.count)...]), state.stdoutClosed)
            }
            checked += fresh.count
            if let line = fresh.first(where: matches) { return .found(line) }
            if closed { return .closed }
            if MonotonicTime.now >= deadline { return .timedOut }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Kills the client's whole process group and reaps it.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The first stdout line, once written (nil while none, or at EOF without one).
    func waitForFirstLine(timeoutMillis: Int) async -> Line? {
        let deadline = MonotonicTime.now + Int64(timeoutMillis) * 1000
        while MonotonicTime.now < deadline {
            let (first, closed) = state.withLock { ($0.lines.first, $0.stdoutClosed) }
            if let first { return first }
            if closed { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// Waits for the client to exit; kills its process group at the deadline. Returns whether
    /// it had to be killed.
    func waitForExit(timeoutMillis: Int) async -> Bool {
        let deadline = MonotonicTime.now + Int64(timeoutMillis) * 1000
        while process.isRunning && MonotonicTime.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let killed = process.isRunning
        if killed { kill() }
        // What the client wrote just before it exited is still in the pipes: read it to EOF
        // (bounded: a child it left behind may hold them open).
        for _ in 0..<100 where !state.withLock({ $0.stdoutClosed && $0.stderrClosed }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return killed
    }

    private func readLines(_ handle: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let now = MonotonicTime.now
            // Every complete line of the chunk, then one removal: removing each line from the
            // front copied the rest of the buffer per line (quadratic for a flooding client).
            var start = buffer.startIndex
            var complete: [Line] = []
            while let newline = buffer[start...].firstIndex(of: 10) {
                complete.append(Line(monotonicMicros: now, text: String(decoding: buffer[start..<newline], as: UTF8.self)))
                start = newline + 1
            }
            guard !complete.isEmpty else { continue }
            buffer.removeSubrange(buffer.startIndex..<start)
            state.withLock { state in
                state.lines.append(contentsOf: complete.prefix(max(0, maxLines - state.lines.count)))
            }
        }
        if !buffer.isEmpty {
            let text = String(decoding: buffer, as: UTF8.self)
            state.withLock { if $0.lines.count < maxLines { $0.lines.append(Line(monotonicMicros: MonotonicTime.now, text: text)) } }
        }
        state.withLock { $0.stdoutClosed = true }
    }

    private func readStderr(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            state.withLock { if $0.stderr.count < maxStderrBytes { $0.stderr.append(chunk) } }
        }
        state.withLock { $0.stderrClosed = true }
    }
}

/// CLOCK_MONOTONIC in microseconds: the clock of the mock's journals.
enum MonotonicTime {
    static var now: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
