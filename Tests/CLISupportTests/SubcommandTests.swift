import CLISupport
import Testing

/// Subcommand resolution and help requests in nested commands.
@Suite struct SubcommandTests {
    private func helpRequest(_ arguments: [String]) -> CommandLineError? {
        guard case .failure(let error) = Fixtures.parse(arguments, Fixtures.conformance), error.isHelpRequest else {
            return nil
        }
        return error
    }

    @Test func theSubcommandPathIsResolved() throws {
        let result = try ArgumentParser.parse(
            ["run", "--protocol", "qwen-realtime", "--case", "qrt.*", "--strict"], spec: Fixtures.conformance)
        #expect(result.command == ["conformance", "run"])
        #expect(result.subcommand == "run")
        #expect(result.value("protocol") == "qwen-realtime")
        #expect(result.values("case") == ["qrt.*"])
        #expect(result.flag("strict"))
        #expect(result.value("jobs") == "1")
    }

    @Test func rootOptionsGoBeforeTheSubcommand() throws {
        let result = try ArgumentParser.parse(["-q", "lint"], spec: Fixtures.conformance)
        #expect(result.command == ["conformance", "lint"])
        #expect(result.flag("quiet"))
        #expect(Fixtures.message(["lint", "--quiet"], Fixtures.conformance) == "unknown option '--quiet'")
    }

    @Test func subcommandOptionsAreNotAcceptedAtTheRoot() {
        #expect(
            Fixtures.message(["--strict", "run"], Fixtures.conformance)
                == "unknown option '--strict'")
    }

    @Test func aMistypedSubcommandGetsADidYouMean() {
        #expect(
            Fixtures.message(["rnu", "--strict"], Fixtures.conformance)
                == "unknown subcommand 'rnu'; did you mean 'run'?")
    }

    @Test func anUnknownSubcommandFarFromAnyListsTheSubcommands() {
        #expect(
            Fixtures.message(["deploy", "--strict"], Fixtures.conformance)
                == "unknown subcommand 'deploy'; expected one of list, lint, run")
    }

    @Test func aMissingSubcommandIsAnError() {
        #expect(Fixtures.message(["-q"], Fixtures.conformance) == "missing subcommand; expected one of list, lint, run")
    }

    @Test func anExtraArgumentAfterTheSubcommandIsAnError() {
        #expect(Fixtures.message(["lint", "extra"], Fixtures.conformance) == "unexpected argument 'extra'")
    }

    @Test func helpAnywhereIsForTheInnermostSubcommand() throws {
        for arguments in [
            ["run", "--help"], ["--help", "run"], ["run", "--strict", "-h", "--protocol"], ["-h", "run"],
        ] {
            let error = try #require(helpRequest(arguments), "\(arguments)")
            #expect(error.commandPath == ["conformance", "run"], "\(arguments)")
            #expect(
                error.helpText
                    == HelpFormatter.render(Fixtures.conformance.subcommands[2], commandPath: ["conformance", "run"]))
        }
    }

    @Test func helpAtTheRootIsTheRootHelp() throws {
        let error = try #require(helpRequest(["--help"]))
        #expect(error.commandPath == ["conformance"])
        #expect(error.helpText == HelpFormatter.render(Fixtures.conformance, commandPath: ["conformance"]))
        #expect(error.description == error.helpText)
    }

    @Test func theHelpSubcommandNamesItsTopic() throws {
        #expect(try #require(helpRequest(["help"])).commandPath == ["conformance"])
        #expect(try #require(helpRequest(["help", "lint"])).commandPath == ["conformance", "lint"])
        #expect(
            Fixtures.message(["help", "nope"], Fixtures.conformance)
                == "unknown subcommand 'nope'; expected one of list, lint, run")
    }

    @Test func helpAfterAnUnknownSubcommandIsStillHelp() throws {
        #expect(try #require(helpRequest(["rnu", "--help"])).commandPath == ["conformance"])
    }

    @Test func helpIsAnOrdinaryWordForCommandsWithoutSubcommands() throws {
        let result = try ArgumentParser.parse(["help", "me"], spec: Fixtures.copy)
        #expect(result.positional("source") == "help")
    }
}
