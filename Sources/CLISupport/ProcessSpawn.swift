import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Starting a child with `posix_spawn`: its signal state, its stdin, stdout and stderr pipes
/// (every end close-on-exec), nothing else of this process inherited, its working directory
/// and environment. ``ChildProcess`` runs what this starts.
enum ProcessSpawn {
    /// The read end of one of the child's output pipes, and where its bytes go.
    struct OutputPipe: Sendable {
        let descriptor: Int32
        let output: ChildProcess.Output
        let isStdout: Bool
    }

    /// A started child: its pid, the write end of its stdin pipe (-1 without one), its output pipes.
    struct Spawned {
        let pid: pid_t
        let input: Int32
        let readers: [OutputPipe]
    }

    /// Starts `executable` (a path: no PATH search); `outputs` are the child's fds 1 and 2 with
    /// where each goes (``ChildProcess/Output/inherit`` gets no pipe).
    /// - Throws: ``ChildProcess/Failure`` naming the executable and the reason (every pipe closed).
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]?, workingDirectory: String?,
        standardInput: ChildProcess.Input, outputs: [(Int32, ChildProcess.Output)], ownProcessGroup: Bool
    ) throws(ChildProcess.Failure) -> Spawned {
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
        func pipeEnds() throws(ChildProcess.Failure) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard GNU.pipe2.map({ $0(&ends, O_CLOEXEC) }) ?? pipeClosedOnExec(&ends) == 0 else {
                let reason = errnoText(errno)
                closeAll(parentEnds + childEnds)
                throw ChildProcess.Failure(description: "cannot start \(executable): pipe: \(reason)")
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
        var readers: [OutputPipe] = []
        for (target, output) in outputs {
            if case .inherit = output { continue }
            let ends = try pipeEnds()
            (parentEnds, childEnds) = (parentEnds + [ends.read], childEnds + [ends.write])
            posix_spawn_file_actions_adddup2(&actions, ends.write, target)
            readers.append(OutputPipe(descriptor: ends.read, output: output, isStdout: target == 1))
        }
        // Nothing else of this process (listening sockets, other children's pipes) leaks in.
        _ = GNU.addCloseFrom?(&actions, 3)
        if let workingDirectory {
            guard let addChangeDirectory = GNU.addChangeDirectory else {
                closeAll(parentEnds + childEnds)
                throw ChildProcess.Failure(
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
            throw ChildProcess.Failure(description: "cannot start \(executable): \(errnoText(rc))")
        }
        if input >= 0 {
            // A write to a child that has closed its stdin fails with EPIPE instead of killing this process.
            signal(SIGPIPE, SIG_IGN)
        }
        return Spawned(pid: child, input: input, readers: readers)
    }

    static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// `pipe2(O_CLOEXEC)` where the C library has no `pipe2`.
    static func pipeClosedOnExec(_ ends: inout [Int32]) -> Int32 {
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return 0
    }

    /// glibc's `_GNU_SOURCE` functions (the Glibc module does not export them).
    enum GNU {
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
}
