import CLISupport
import Testing

/// Every way a command line can be wrong, and what the user is told.
@Suite struct ArgumentParserErrorTests {
    @Test func unknownOptionsSuggestTheClosestKnownOne() {
        #expect(Fixtures.message(["--prot", "1"]) == "unknown option '--prot'; did you mean '--port'?")
        #expect(Fixtures.message(["--verbsoe"]) == "unknown option '--verbsoe'; did you mean '--verbose'?")
        #expect(Fixtures.message(["--hlep"]) == "unknown option '--hlep'; did you mean '--help'?")
        #expect(Fixtures.message(["-port"]) == "unknown option '-port'; did you mean '--port'?")
    }

    @Test func unknownOptionsWithNothingCloseGetNoSuggestion() {
        #expect(Fixtures.message(["--colour"]) == "unknown option '--colour'")
        #expect(Fixtures.message(["--zzz=3"]) == "unknown option '--zzz'")
        #expect(Fixtures.message(["-x"]) == "unknown option '-x'")
    }

    @Test func aMissingValueIsAnError() {
        #expect(Fixtures.message(["--port"]) == "--port: missing value; expected <port>")
        #expect(Fixtures.message(["-v", "-p"]) == "--port: missing value; expected <port>")
    }

    @Test func aValueOptionGivenTwiceIsAnError() {
        #expect(Fixtures.message(["--port", "1", "-p", "2"]) == "--port: given more than once ('1', then '2')")
    }

    @Test func aFlagGivenAValueIsAnError() {
        #expect(Fixtures.message(["--verbose=yes"]) == "--verbose: takes no value, got 'yes'")
    }

    @Test func aMissingRequiredPositionalIsAnError() {
        #expect(Fixtures.message(["a"], Fixtures.copy) == "missing argument <destination>")
        #expect(Fixtures.message([], Fixtures.copy) == "missing argument <source>")
    }

    @Test func anExtraPositionalIsAnError() {
        #expect(Fixtures.message(["stray"]) == "unexpected argument 'stray'")
    }

    @Test func theFirstErrorIsReported() {
        #expect(Fixtures.message(["--prot", "--colour"]) == "unknown option '--prot'; did you mean '--port'?")
    }

    @Test func errorsNameTheCommandPath() {
        guard case .failure(let error) = Fixtures.parse(["run", "--strcit"], Fixtures.conformance) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.commandPath == ["conformance", "run"])
        #expect(error.message == "unknown option '--strcit'; did you mean '--strict'?")
        #expect(!error.isHelpRequest)
        #expect(error.description == error.message)
    }

    @Test func helpWinsOverEarlierAndLaterErrors() {
        #expect(Fixtures.message(["--bogus", "--help"]) == "HELP")
        #expect(Fixtures.message(["-h", "--port"]) == "HELP")
        #expect(Fixtures.message(["--port", "-h"]) == "HELP")
        #expect(Fixtures.message(["stray", "-h"]) == "HELP")
    }
}
