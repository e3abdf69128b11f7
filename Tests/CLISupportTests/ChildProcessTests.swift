import CLISupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The package's one child-process launcher.
@Suite struct ChildProcessTests {
    @Test func runKeepsStdoutAndStderrAndTheExitCode() async throws {
        let result = try await ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.termination == .exited(3))
        #expect(result.status == 3)
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
    }

    @Test func inputEnvironmentAndWorkingDirectoryReachTheChild() async throws {
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "cat; echo \"$GREETING\"; pwd"], environment: ["GREETING": "hello"],
            workingDirectory: "/tmp", input: "line 1\nline 2\n")
        #expect(result.stdout == "line 1\nline 2\nhello\n/tmp\n")
        #expect(ChildProcess.currentEnvironment["PATH"] != nil)
    }

    @Test func stdoutLinesArriveInOrderWithTheUnterminatedLast() async throws {
        let lines = Mutex<[String]>([])
        let child = try ChildProcess(
            "/bin/sh", ["-c", "printf 'a\\nb\\n'; sleep 0.05; printf 'c\\nd'"],
            standardOutput: .lines { batch in lines.withLock { $0 += batch } })
        #expect(await child.waitForExit(timeout: .seconds(10)) == .exited(0))
        #expect(await child.waitForOutputEnd(timeout: .seconds(5)))
        #expect(lines.withLock { $0 } == ["a", "b", "c", "d"])
    }

    @Test func aChildPastItsTimeoutIsTerminated() async throws {
        // Ended by the timeout (SIGTERM), not by `sleep` finishing: the deadline is kept by a
        // thread of its own, however busy the cooperative pool is.
        let result = try await ChildProcess.run("/bin/sleep", ["300"], timeout: .milliseconds(200))
        #expect(result.termination == .signalled(SIGTERM))
    }

    /// With its own process group, a kill reaches what the child started too (whose end closes the pipe).
    @Test func killEndsTheWholeProcessGroup() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 300 & sleep 300"], ownProcessGroup: true)
        try await Task.sleep(for: .milliseconds(100))
        #expect(child.isRunning)
        #expect(child.kill() == .signalled(SIGKILL))
        #expect(await child.waitForOutputEnd(timeout: .seconds(5)), "the background sleep was killed too")
        #expect(!child.isRunning)
    }

    @Test func keptOutputIsCappedAndCanBeDiscarded() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "printf 0123456789"], standardOutput: .keep(limit: 4))
        #expect(child.waitUntilExit() == .exited(0))
        #expect(await child.waitForOutputEnd(timeout: .seconds(5)))
        #expect(child.standardOutput == "0123")
        child.discardKeptOutput()
        #expect(child.standardOutput.isEmpty)
    }

    @Test func aMissingExecutableIsAFailureNamingIt() {
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess("/nonexistent/program") }
        do {
            _ = try ChildProcess("/nonexistent/program")
        } catch {
            #expect(error.description == "cannot start /nonexistent/program: No such file or directory")
        }
    }
}
