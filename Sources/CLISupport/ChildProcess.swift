import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The package's one launcher of child processes (`posix_spawn`, no Foundation): arguments,
/// environment and working directory; stdin from /dev/null or a pipe; stdout and stderr kept,
/// handed over line by line as they arrive, or shared with this process. Waits poll without
/// blocking a thread of the cooperative pool. The child gets only fds 0-2 and default signal
/// handling; with `ownProcessGroup` it leads its own group, and signals reach the whole group.
package final class ChildProcess: Sendable {
    private struct State {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var outputEnded = false
        var termination: Termination?
    }

    package let pid: Int32
    private let ownProcessGroup: Bool
    private let state: Mutex<State>
    /// The write end of the stdin pipe while open (its own lock: a write may block on a full pipe).
    private let input: Mutex<Int32>

    /// Starts `executable` (a path: no PATH search) with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment; nil for this process's (see ``currentEnvironment``).
    ///   - workingDirectory: nil for this process's.
    ///   - ownProcessGroup: the child leads a new process group, and ``signal(_:)`` reaches the
    ///     whole group (everything it started); else it stays in this process's group.
    /// - Throws: ``Failure`` naming the executable and the reason.
    package init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, standardInput: Input = .null, standardOutput: Output = .keep(),
        standardError: Output = .keep(), ownProcessGroup: Bool = false
    ) throws(Failure) {
        let spawned = try ProcessSpawn.spawn(
            executable, arguments, environment: environment, workingDirectory: workingDirectory,
            standardInput: standardInput, outputs: [(1, standardOutput), (2, standardError)],
            ownProcessGroup: ownProcessGroup)
        pid = spawned.pid
        self.ownProcessGroup = ownProcessGroup
        state = Mutex(State(outputEnded: spawned.readers.isEmpty))
        input = Mutex(spawned.input)
        let readers = spawned.readers
        if !readers.isEmpty { DetachedThread.start { [self] in readOutput(readers) } }
    }

    /// Runs `executable` to its end: `input` written to its stdin (then end of input), stdout
    /// and stderr kept; at `timeout` it is terminated (``terminate(grace:)``).
    /// - Throws: ``Failure`` when it cannot be started.
    package static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, input: String? = nil,
        timeout: Duration = .seconds(300)
    ) async throws(Failure) -> Completed {
        let child = try ChildProcess(
            executable, arguments, environment: environment, workingDirectory: workingDirectory,
            standardInput: input == nil ? .null : .pipe)
        if let input {
            child.write(input)
            child.closeInput()
        }
        return await child.completion(timeout: timeout)
    }

    /// This process's environment (to extend for a child).
    package static var currentEnvironment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    // MARK: - Input

    /// Writes `text` to the child's stdin pipe (dropped once the child closed it, or after ``closeInput()``).
    package func write(_ text: String) {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return }
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    writeBytes(descriptor, $0.baseAddress! + offset, $0.count - offset)
                }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Closes the child's stdin: it reads end of input.
    package func closeInput() {
        input.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    deinit { closeInput() }

    // MARK: - Output

    /// What the child wrote to stdout so far (with ``Output/keep(limit:)``).
    package var standardOutput: String { String(decoding: state.withLock { $0.stdout }, as: UTF8.self) }

    /// What the child wrote to stderr so far (with ``Output/keep(limit:)``).
    package var standardError: String { String(decoding: state.withLock { $0.stderr }, as: UTF8.self) }

    /// Forgets the output kept so far.
    package func discardKeptOutput() {
        state.withLock { state in
            state.stdout.removeAll(keepingCapacity: true)
            state.stderr.removeAll(keepingCapacity: true)
        }
    }

    /// Whether every output pipe reached its end (the child and everything it started closed them).
    package var outputEnded: Bool { state.withLock { $0.outputEnded } }

    /// Waits up to `timeout` for the end of every output pipe; whether they ended.
    package func waitForOutputEnd(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !outputEnded {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    // MARK: - Exit

    /// How the child ended; nil while it runs. Reaps it once it has ended.
    package var termination: Termination? {
        state.withLock { state in
            if state.termination == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { state.termination = Termination(waitStatus: status) }
            }
            return state.termination
        }
    }

    package var isRunning: Bool { termination == nil }

    /// Waits for the child to end without blocking a thread; nil when `timeout` passes first.
    package func waitForExit(timeout: Duration? = nil) async -> Termination? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let termination { return termination }
            if let deadline, ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Blocks until the child ends (or `timeout` passes: nil).
    package func waitUntilExit(timeout: Duration? = nil) -> Termination? {
        guard let timeout else {
            // Waits without reaping, so that only ``termination`` reaps (under the lock).
            var info = siginfo_t()
            while termination == nil, waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
            return termination
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            if let termination { return termination }
            if ContinuousClock.now >= deadline { return nil }
            usleep(10_000)
        }
    }

    /// Sends `signal` to the child (to its whole group with `ownProcessGroup`) unless it has been reaped.
    package func signal(_ signal: Int32) {
        state.withLock { state in
            guard state.termination == nil else { return }
            sendSignal(ownProcessGroup ? -pid : pid, signal)
        }
    }

    /// SIGKILL (to the group with `ownProcessGroup`), then reaps the child.
    @discardableResult
    package func kill() -> Termination? {
        signal(SIGKILL)
        return waitUntilExit()
    }

    /// SIGTERM; SIGKILL if the child has not ended after `grace`. Does not block a thread.
    @discardableResult
    package func terminate(grace: Duration = .seconds(2)) async -> Termination {
        signal(SIGTERM)
        if let termination = await waitForExit(timeout: grace) { return termination }
        signal(SIGKILL)
        return await waitForExit() ?? .signalled(SIGKILL)
    }

    /// Waits up to `timeout` for the end (``terminate(grace:)`` after it), then up to a second
    /// for the last output (a child it left behind may hold the pipes open), and returns what
    /// was kept.
    package func completion(timeout: Duration = .seconds(300)) async -> Completed {
        endAtDeadline(ContinuousClock.now + timeout, grace: .seconds(2))
        let termination = await waitForExit() ?? .signalled(SIGKILL)
        _ = await waitForOutputEnd(timeout: .seconds(1))
        return Completed(termination: termination, stdout: standardOutput, stderr: standardError)
    }

    /// Ends the child at `deadline` from a thread of its own: SIGTERM, then SIGKILL after
    /// `grace`. A timeout is then on time even when the cooperative pool is busy (a test run
    /// blocks its threads for seconds at a time).
    private func endAtDeadline(_ deadline: ContinuousClock.Instant, grace: Duration) {
        DetachedThread.start { [self] in
            while isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            guard isRunning else { return }
            signal(SIGTERM)
            let killAt = ContinuousClock.now + grace
            while isRunning, ContinuousClock.now < killAt { usleep(10_000) }
            if isRunning { signal(SIGKILL) }
        }
    }

    // MARK: - Reader thread

    /// Reads every output pipe to its end (one thread for all of them).
    private func readOutput(_ readers: [ProcessSpawn.OutputPipe]) {
        var descriptors = readers.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        var partial = [[UInt8]](repeating: [], count: readers.count)
        var chunk = [UInt8](repeating: 0, count: 65536)
        var open = readers.count
        while open > 0 {
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 || errno == EINTR else { break }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 {
                    if case .lines(let handler) = readers[index].output, !partial[index].isEmpty {
                        handler([String(decoding: partial[index], as: UTF8.self)])
                    }
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    open -= 1
                    continue
                }
                deliver(
                    chunk[0..<count], to: readers[index].output, isStdout: readers[index].isStdout,
                    partial: &partial[index])
            }
        }
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
        state.withLock { $0.outputEnded = true }
    }

    private func deliver(_ bytes: ArraySlice<UInt8>, to output: Output, isStdout: Bool, partial: inout [UInt8]) {
        switch output {
        case .inherit:
            break
        case .keep(let limit):
            state.withLock { state in
                let kept = isStdout ? state.stdout.count : state.stderr.count
                let taken = bytes.prefix(max(0, limit - kept))
                if isStdout { state.stdout.append(contentsOf: taken) } else { state.stderr.append(contentsOf: taken) }
            }
        case .lines(let handler):
            partial.append(contentsOf: bytes)
            // Every complete line, then one removal (removing each line from the front would copy
            // the rest per line: quadratic for a flooding child).
            var start = partial.startIndex
            var lines: [String] = []
            while let newline = partial[start...].firstIndex(of: 10) {
                lines.append(String(decoding: partial[start..<newline], as: UTF8.self))
                start = newline + 1
            }
            guard !lines.isEmpty else { return }
            partial.removeSubrange(partial.startIndex..<start)
            handler(lines)
        }
    }
}

// The C functions that ChildProcess' own `write` and `kill` hide inside it.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
private func sendSignal(_ pid: pid_t, _ signal: Int32) { _ = kill(pid, signal) }
