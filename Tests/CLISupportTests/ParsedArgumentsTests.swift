import CLISupport
import Testing

/// Typed accessors and their error messages.
@Suite struct ParsedArgumentsTests {
    private func arguments(_ list: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(list, spec: Fixtures.mockServer)
    }

    /// The message `body` fails with; plain `throws` because closures inside `#expect` do
    /// not infer typed throws.
    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CommandLineError)?.message ?? "not a CommandLineError: \(error)"
        }
    }

    @Test func integersAreParsedAndRangeChecked() throws {
        #expect(try arguments(["--port", "9000"]).int("port", range: 0...65535) == 9000)
        #expect(try arguments([]).int("port", range: 0...65535) == 8765)
        #expect(try arguments([]).int("scenario") == nil)
        let outOfRange = try arguments(["--port", "70000"])
        #expect(
            failure { _ = try outOfRange.int("port", range: 0...65535) }
                == "--port: expected an integer from 0 to 65535, got '70000'")
        let notANumber = try arguments(["--port", "abc"])
        #expect(failure { _ = try notANumber.int("--port") } == "--port: expected an integer, got 'abc'")
    }

    @Test func doublesAreParsedAndRangeChecked() throws {
        #expect(try arguments(["--time-scale", "0.5"]).double("time-scale", range: 0.01...100) == 0.5)
        #expect(try arguments([]).double("time-scale") == 1.0)
        let negative = try arguments(["--time-scale", "-1"])
        #expect(
            failure { _ = try negative.double("time-scale", range: 0.01...100) }
                == "--time-scale: expected a number from 0.01 to 100.0, got '-1'")
        let infinite = try arguments(["--time-scale", "inf"])
        #expect(failure { _ = try infinite.double("time-scale") } == "--time-scale: expected a number, got 'inf'")
    }

    @Test func choicesMustBeAmongTheListedOnes() throws {
        let levels = ["error", "warn", "info", "debug", "trace"]
        #expect(try arguments(["--log-level", "debug"]).choice("log-level", among: levels) == "debug")
        #expect(try arguments([]).choice("log-level", among: levels) == "info")
        let loud = try arguments(["--log-level", "loud"])
        #expect(
            failure { _ = try loud.choice("log-level", among: levels) }
                == "--log-level: expected one of error, warn, info, debug, trace; got 'loud'")
    }

    @Test func repeatedIntegersAreCheckedOneByOne() throws {
        let keys = try arguments(["--api-key", "1", "--api-key", "x"])
        #expect(failure { _ = try keys.ints("api-key") } == "--api-key: expected an integer, got 'x'")
        #expect(try arguments(["--api-key", "1", "--api-key", "2"]).ints("api-key") == [1, 2])
    }

    @Test func typedErrorsCarryTheCommandPath() throws {
        let parsed = try ArgumentParser.parse(["run", "--jobs", "0"], spec: Fixtures.conformance)
        do {
            _ = try parsed.int("jobs", range: 1...64)
            Issue.record("expected an error")
        } catch {
            #expect(error.commandPath == ["conformance", "run"])
        }
    }
}
