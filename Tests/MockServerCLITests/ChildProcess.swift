import Foundation

/// Runs a command to completion without blocking a thread of the test runner's cooperative
/// pool: output goes to temporary files (no pipe can fill up) and the exit is polled. On two
/// cores the pool has two threads; a `waitUntilExit()` on each (a soak run and a load run side
/// by side) stalled every other test of the process for their whole length, long enough for
/// in-process sessions to hit the mock's 60 s server-silence rule.
enum ChildProcess {
    static func run(_ executable: URL, _ arguments: [String], timeout: Duration = .seconds(300)) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("child-\(UUID().uuidString).out")
        let errURL = directory.appendingPathComponent("child-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        await waitForExit(process, timeout: timeout)
        try? out.close()
        try? err.close()
        return (process.terminationStatus, (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Polls until `process` has exited; terminates it (SIGTERM, then SIGKILL) at `timeout`.
    static func waitForExit(_ process: Process, timeout: Duration = .seconds(300)) async {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            process.terminate()
            for _ in 0..<100 where process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        // Reaps the child; it has exited (or been killed) by now, so this does not wait long.
        process.waitUntilExit()
    }
}
