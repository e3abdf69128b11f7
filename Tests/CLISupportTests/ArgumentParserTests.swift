import CLISupport
import Testing

/// The accepted command-line forms.
@Suite struct ArgumentParserTests {
    private func parsed(_ arguments: [String], _ spec: CommandSpec = Fixtures.mockServer) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, spec: spec)
    }

    @Test func valuesAreTakenFromTheNextArgument() throws {
        let result = try parsed(["--port", "9000", "--scenario", "barge-in"])
        #expect(result.value("port") == "9000")
        #expect(result.value("--scenario") == "barge-in")
        #expect(result.command == ["mock-server"])
    }

    @Test func valuesAreTakenAfterAnEqualsSign() throws {
        let result = try parsed(["--port=9000", "--scenario=a=b", "--host="])
        #expect(result.value("port") == "9000")
        #expect(result.value("scenario") == "a=b")
        #expect(result.value("host") == "")
    }

    @Test func shortNamesTakeValuesAndSetFlags() throws {
        let result = try parsed(["-p", "1234", "-v"])
        #expect(result.value("port") == "1234")
        #expect(result.flag("verbose"))
    }

    @Test func defaultsApplyWhenAnOptionIsAbsent() throws {
        let result = try parsed([])
        #expect(result.value("port") == "8765")
        #expect(result.value("scenario") == nil)
        #expect(!result.flag("verbose"))
        #expect(!result.isGiven("port"))
        #expect(result.values("api-key").isEmpty)
    }

    @Test func repeatedOptionsCollectEveryValueInOrder() throws {
        let result = try parsed(["--api-key", "a", "--api-key=b", "--api-key", "c"])
        #expect(result.values("api-key") == ["a", "b", "c"])
        #expect(result.value("api-key") == "c")
    }

    @Test func aFlagGivenTwiceIsStillSet() throws {
        #expect(try parsed(["-v", "--verbose"]).flag("verbose"))
    }

    @Test func valuesMayStartWithADash() throws {
        let result = try parsed(["--time-scale", "-1", "--scenario", "--weird", "--host", "--"])
        #expect(result.value("time-scale") == "-1")
        #expect(result.value("scenario") == "--weird")
        #expect(result.value("host") == "--")
    }

    @Test func helpSpellingsCanBePassedAsValuesWithAnEqualsSign() throws {
        #expect(try parsed(["--scenario=-h"]).value("scenario") == "-h")
    }

    @Test func positionalsFillInOrderAndTheVariadicOneTakesTheRest() throws {
        let result = try parsed(["a", "-f", "b", "c", "d"], Fixtures.copy)
        #expect(result.positional("source") == "a")
        #expect(result.positional("destination") == "b")
        #expect(result.positionals("extra") == ["c", "d"])
        #expect(result.flag("force"))
    }

    @Test func optionalPositionalsMayBeLeftOut() throws {
        let result = try parsed(["a", "b"], Fixtures.copy)
        #expect(result.positional("extra") == nil)
        #expect(result.positionals("extra").isEmpty)
    }

    @Test func doubleDashEndsOptions() throws {
        let result = try parsed(["-f", "--", "--help", "-v"], Fixtures.copy)
        #expect(result.positional("source") == "--help")
        #expect(result.positional("destination") == "-v")
        #expect(result.flag("force"))
    }

    @Test func aLoneDashAndNegativeNumbersArePositionals() throws {
        let result = try parsed(["-", "-1.5"], Fixtures.copy)
        #expect(result.positional("source") == "-")
        #expect(result.positional("destination") == "-1.5")
    }

    @Test func undeclaredNamesReadAsAbsent() throws {
        let result = try parsed(["-v"])
        #expect(!result.flag("nonexistent"))
        #expect(result.value("nonexistent") == nil)
        #expect(result.values("nonexistent").isEmpty)
        #expect(result.positional("nonexistent") == nil)
    }
}
