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
    /// Where the child's stdin comes from.
    package enum Input: Sendable {
        /// /dev/null: the child reads end of input at once.
        case null
        /// A pipe written with ``write(_:)`` and closed with ``closeInput()``.
        case pipe
    }

    /// Where one of the child's outputs goes.
    package enum Output: Sendable {
        /// Shared with this process.
        case inherit
        /// Kept for ``standardOutput`` / ``standardError``, up to `limit` bytes (the rest is read and dropped).
        case keep(limit: Int = 64 << 20)
        /// The complete lines of each read (without their newlines; an unterminated last line at
        /// end of output too), handed over on the reader thread as they arrive.
        case lines(@Sendable ([String]) -> Void)
    }

    /// How the child ended.
    package enum Termination: Sendable, Hashable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit code, or the number of the signal that ended it.
        package var status: Int32 {
            switch self {
            case .exited(let code), .signalled(let code): code
            }
        }

        /// "exit N" or "signal N".
        package var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "signal \(signal)"
            }
        }

        /// From a wait status (WIFEXITED, WEXITSTATUS and WTERMSIG are macros: the low 7 bits are the signal).
        init(waitStatus: Int32) {
            self = waitStatus & 0x7F == 0 ? .exited((waitStatus >> 8) & 0xFF) : .signalled(waitStatus & 0x7F)
        }
    }

    /// A child that could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// What a child run to its end left (``run(_:_:environment:workingDirectory:input:timeout:)``).
    package struct Completed: Sendable {
        package let termination: Termination
        package let stdout: String
        package let stderr: String
        /// The exit code, or the number of the signal that ended it.
        package var status: Int32 { termination.status }
    }

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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default handling of every signal and none blocked: a child of a process that ignores
        // SIGPIPE (every WebSocket server does) does not inherit that.
        var signals = sigset_t()
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        // Every pipe end is close-on-exec (no other child inherits it); the child's copies on
        // 0-2 are not.
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        func closeAll(_ descriptors: [Int32]) { for descriptor in descriptors { close(descriptor) } }
        func pipeEnds() throws(Failure) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard GNU.pipe2.map({ $0(&ends, O_CLOEXEC) }) ?? Self.pipeClosedOnExec(&ends) == 0 else {
                let reason = Self.errnoText(errno)
                closeAll(parentEnds + childEnds)
                throw Failure(description: "cannot start \(executable): pipe: \(reason)")
            }
            return (ends[0], ends[1])
        }
        var input: Int32 = -1
        switch standardInput {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let ends = try pipeEnds()
            (input, parentEnds, childEnds) = (ends.write, parentEnds + [ends.write], childEnds + [ends.read])
            posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
        }
        var readers: [(descriptor: Int32, output: Output, isStdout: Bool)] = []
        for (target, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            if case .inherit = output { continue }
            let ends = try pipeEnds()
            (parentEnds, childEnds) = (parentEnds + [ends.read], childEnds + [ends.write])
            posix_spawn_file_actions_adddup2(&actions, ends.write, target)
            readers.append((ends.read, output, target == 1))
        }
        // Nothing else of this process (listening sockets, other children's pipes) leaks in.
        _ = GNU.addCloseFrom?(&actions, 3)
        if let workingDirectory {
            guard let addChangeDirectory = GNU.addChangeDirectory else {
                closeAll(parentEnds + childEnds)
                throw Failure(
                    description:
                        "cannot start \(executable) in \(workingDirectory): no posix_spawn_file_actions_addchdir_np")
            }
            _ = addChangeDirectory(&actions, workingDirectory)
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var child = pid_t()
        let rc =
            envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        closeAll(childEnds)
        guard rc == 0 else {
            closeAll(parentEnds)
            throw Failure(description: "cannot start \(executable): \(Self.errnoText(rc))")
        }
        if input >= 0 {
            // A write to a child that has closed its stdin fails with EPIPE instead of killing this process.
            ignoreSIGPIPE()
        }
        pid = child
        self.ownProcessGroup = ownProcessGroup
        state = Mutex(State(outputEnded: readers.isEmpty))
        self.input = Mutex(input)
        if !readers.isEmpty {
            let pipes = readers
            Self.detachThread { [self] in readOutput(pipes) }
        }
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
        Self.detachThread { [self] in
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
    private func readOutput(_ readers: [(descriptor: Int32, output: Output, isStdout: Bool)]) {
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

    private static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// `pipe2(O_CLOEXEC)` where the C library has no `pipe2`.
    private static func pipeClosedOnExec(_ ends: inout [Int32]) -> Int32 {
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return 0
    }

    /// glibc's `_GNU_SOURCE` functions (the Glibc module does not export them).
    private enum GNU {
        typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
        static let pipe2 = GlibcFunction.named(
            "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
        static let addCloseFrom = GlibcFunction.named(
            "posix_spawn_file_actions_addclosefrom_np",
            as: (@convention(c) (Actions, Int32) -> Int32).self)
        static let addChangeDirectory = GlibcFunction.named(
            "posix_spawn_file_actions_addchdir_np",
            as: (@convention(c) (Actions, UnsafePointer<CChar>) -> Int32).self)
    }

    /// Runs `body` on a new detached thread (blocking reads never hold a thread of the pool).
    private static func detachThread(_ body: @escaping @Sendable () -> Void) {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        guard
            pthread_create(
                &thread, nil,
                { argument in
                    Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
                    return nil
                }, box) == 0
        else {
            Unmanaged<Body>.fromOpaque(box).release()
            return
        }
        pthread_detach(thread)
    }
}

// The C functions that ChildProcess' own `write`, `signal` and `kill` hide inside it.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
private func sendSignal(_ pid: pid_t, _ signal: Int32) { _ = kill(pid, signal) }
private func ignoreSIGPIPE() { _ = signal(SIGPIPE, SIG_IGN) }
