import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A `mock-server` child process (``ChildProcess``), for `dialogmock-bench` and the tests that
/// run the binary: started (usually with `--port 0`), its ready line `listening ws://HOST:PORT`
/// read from stdout, stopped with SIGTERM.
package final class MockServerProcess: Sendable {
    package let child: ChildProcess
    /// The first stdout line: `listening ws://HOST:PORT`.
    package let readyLine: String
    /// From the start to the ready line.
    package let readyAfter: Duration
    /// The port of the ready line.
    package let port: UInt16

    package var pid: Int32 { child.pid }

    /// `mock-server` beside the running binary.
    package static var sibling: String? { ExecutablePath.sibling("mock-server") }

    /// Starts `path` with `arguments` and waits up to `timeout` for its ready line (blocking).
    /// - Parameter standardError: kept for ``ChildProcess/standardError`` (tests), or shared with this process.
    /// - Throws: ``ChildProcess/Failure`` when it cannot start or prints no ready line in time
    ///   (it is killed then).
    package init(
        path: String, arguments: [String], timeout: Duration = .seconds(10),
        standardError: ChildProcess.Output = .keep()
    ) throws(ChildProcess.Failure) {
        let first = Mutex<String?>(nil)
        let clock = ContinuousClock()
        let began = clock.now
        child = try ChildProcess(
            path, arguments,
            standardOutput: .lines { lines in
                first.withLock { line in if line == nil { line = lines.first } }
            }, standardError: standardError)
        var line: String?
        while line == nil, clock.now - began < timeout, !child.outputEnded {
            usleep(2_000)
            line = first.withLock { $0 }
        }
        line = line ?? first.withLock { $0 }
        readyAfter = clock.now - began
        guard let text = line, text.hasPrefix("listening ws://"), let colon = text.lastIndex(of: ":"),
            let port = UInt16(text[text.index(after: colon)...])
        else {
            child.kill()
            throw ChildProcess.Failure(description: "\(path) did not print its ready line (got '\(line ?? "")')")
        }
        readyLine = text
        self.port = port
    }

    /// SIGTERM, then SIGKILL after `grace` (blocking); how it ended: "exit N", "signal N", or
    /// "killed after N s".
    @discardableResult
    package func stop(grace: Duration = .seconds(10)) -> String {
        child.signal(SIGTERM)
        if let termination = child.waitUntilExit(timeout: grace) { return termination.description }
        child.kill()
        return "killed after \(grace.components.seconds) s"
    }
}
