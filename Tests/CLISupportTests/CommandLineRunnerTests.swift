import CLISupport
import Testing

/// What the executables print and how they exit, without exiting.
@Suite struct CommandLineRunnerTests {
    @Test func successfulParsingContinues() throws {
        let outcome = CommandLineRunner.outcome(["-p", "1"], spec: Fixtures.mockServer)
        guard case .parsed(let parsed) = outcome else {
            Issue.record("expected parsed arguments, got \(outcome)")
            return
        }
        #expect(parsed.value("port") == "1")
    }

    @Test func usageErrorsGoToStandardErrorWithStatusTwo() {
        let outcome = CommandLineRunner.outcome(["--prot", "1"], spec: Fixtures.mockServer)
        let expected = "mock-server: unknown option '--prot'; did you mean '--port'?\nsee 'mock-server --help'\n"
        #expect(outcome == .exit(code: ExitCode.usage, stdout: "", stderr: expected))
    }

    @Test func subcommandErrorsHintAtTheSubcommandHelp() {
        let outcome = CommandLineRunner.outcome(["run", "--jobs"], spec: Fixtures.conformance)
        let expected = "conformance: --jobs: missing value; expected <n>\nsee 'conformance run --help'\n"
        #expect(outcome == .exit(code: 2, stdout: "", stderr: expected))
    }

    @Test func helpGoesToStandardOutputWithStatusZero() {
        let outcome = CommandLineRunner.outcome(["lint", "-h"], spec: Fixtures.conformance)
        let help = HelpFormatter.render(Fixtures.conformance.subcommands[1], commandPath: ["conformance", "lint"])
        #expect(outcome == .exit(code: ExitCode.success, stdout: help + "\n", stderr: ""))
    }

    @Test func errorsRaisedAfterParsingAreReportedTheSameWay() {
        let error = CommandLineError(
            "--jobs: expected an integer from 1 to 64, got '0'", commandPath: ["conformance", "run"])
        let outcome = CommandLineRunner.outcome(for: error, spec: Fixtures.conformance)
        let expected = "conformance: --jobs: expected an integer from 1 to 64, got '0'\nsee 'conformance run --help'\n"
        #expect(outcome == .exit(code: 2, stdout: "", stderr: expected))
    }

    @Test func errorsWithoutAPathHintAtTheRootHelp() {
        let outcome = CommandLineRunner.outcome(for: CommandLineError("bad"), spec: Fixtures.mockServer)
        #expect(outcome == .exit(code: 2, stdout: "", stderr: "mock-server: bad\nsee 'mock-server --help'\n"))
    }

    @Test func exitCodesMatchTheContract() {
        #expect([ExitCode.success, ExitCode.failure, ExitCode.usage, ExitCode.harnessError] == [0, 1, 2, 3])
    }
}
