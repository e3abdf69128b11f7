import CLISupport
import Testing

/// `parseOrExit` really exits, in a child process (Swift Testing exit tests).
@Suite struct CommandLineRunnerExitTests {
    @Test func aUsageErrorExitsWithStatusTwoAndExplainsOnStandardError() async {
        let result = await #expect(processExitsWith: .exitCode(ExitCode.usage), observing: [\.standardErrorContent]) {
            _ = CommandLineRunner.parseOrExit(["--prot"], spec: Fixtures.mockServer)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains("mock-server: unknown option '--prot'; did you mean '--port'?\nsee 'mock-server --help'\n"))
    }

    @Test func aHelpRequestPrintsHelpAndExitsWithStatusZero() async {
        let result = await #expect(processExitsWith: .exitCode(ExitCode.success), observing: [\.standardOutputContent])
        {
            _ = CommandLineRunner.parseOrExit(["run", "--help"], spec: Fixtures.conformance)
        }
        let stdout = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(stdout.contains("USAGE: conformance run [--protocol <protocol>]"))
    }

    @Test func aBadTypedValueExitsWithStatusTwo() async {
        await #expect(processExitsWith: .exitCode(ExitCode.usage)) {
            let parsed = CommandLineRunner.parseOrExit(["--port", "70000"], spec: Fixtures.mockServer)
            _ = CommandLineRunner.valueOrExit(spec: Fixtures.mockServer) { try parsed.value(of: Fixtures.port) }
        }
    }

    @Test func anErrorCaughtAfterParsingExitsWithStatusTwo() async {
        let result = await #expect(processExitsWith: .exitCode(ExitCode.usage), observing: [\.standardErrorContent]) {
            let parsed = CommandLineRunner.parseOrExit(["run", "--jobs", "x"], spec: Fixtures.conformance)
            do {
                _ = try parsed.value(of: Fixtures.jobs)
            } catch {
                CommandLineRunner.exit(with: error, spec: Fixtures.conformance)
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains(
                "conformance: --jobs: expected an integer from 1 to 64, got 'x'\nsee 'conformance run --help'"))
    }
}
