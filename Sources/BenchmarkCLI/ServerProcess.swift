import Glibc
import WireSocket

/// A mock-server child process for `dialogmock-bench load`: started with `--port 0`, its port
/// read from the ready line, stopped with SIGTERM (SIGKILL after 10 s).
final class ServerProcess {
    let pid: pid_t
    let port: UInt16
    /// How the process ended, once ``stop()`` returned: "exit N", "signal N", or "killed after 10 s".
    private(set) var exitStatus: String?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(path: String, arguments: [String]) throws(Failure) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child = pid_t()
        let rc = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(pipe[1])
        guard rc == 0 else {
            close(pipe[0])
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
        // The first stdout line is `listening ws://HOST:PORT` (10 s at most).
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var descriptor = pollfd(fd: pipe[0], events: Int16(POLLIN), revents: 0)
        let deadline = Self.nowSeconds() + 10
        while byte != 10, Self.nowSeconds() < deadline {
            guard poll(&descriptor, 1, 100) >= 0 else { break }
            if descriptor.revents != 0 {
                guard read(pipe[0], &byte, 1) == 1 else { break }
                if byte != 10 { line.append(byte) }
            }
        }
        close(pipe[0])
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening ws://"), let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            throw Failure(description: "\(path) did not print its ready line (got '\(text)')")
        }
        self.port = port
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Self.nowSeconds() + 10
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Self.nowSeconds() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                exitStatus = "killed after 10 s"
                return
            }
            usleep(20_000)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros: the wait status' low 7 bits are the signal.
        exitStatus = status & 0x7F == 0 ? "exit \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)"
    }

    private static func nowSeconds() -> Double { Double(MonotonicClock.nowMicros()) / 1e6 }
}
