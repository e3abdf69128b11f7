import CLISupport
import Testing

/// Options declared once as typed constants: parsing, typed reading, defaults and help.
@Suite struct DeclaredOptionTests {
    enum Level: String, Sendable, CaseIterable { case quiet, normal, loud }

    static let port = DefaultedOption(
        "--port", short: "p", valueName: "PORT", help: "Port to bind.", default: 8765, reader: .integer(in: 0...65535))
    static let scale = DefaultedOption(
        "--scale", valueName: "X", help: "Multiply delays.", default: 1, reader: .number(in: 0.01...100))
    static let level = DefaultedOption(
        "--level", valueName: "LEVEL", help: "Verbosity.", default: Level.normal, reader: .choice)
    static let seed = ValueOption("--seed", valueName: "N", help: "Seed.", reader: .unsignedInteger)
    static let name = ValueOption("--name", valueName: "NAME", help: "A name.")
    static let key = RepeatedOption(
        "--key", valueName: "KEY", help: "A key.",
        reader: .text(complaint: "expected a non-empty key", where: { !$0.isEmpty }))
    static let count = RepeatedOption("--count", valueName: "N", help: "Counts.", reader: .integer())
    static let strict = FlagOption("--strict", help: "Be strict.")

    static let spec = CommandSpec(
        name: "tool", abstract: "A tool.",
        options: ([port, scale, level, seed, name, key, count, strict] as [any DeclaredOption]).map(\.spec))

    private func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, spec: Self.spec)
    }

    /// The message reading fails with, or `nil`.
    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CommandLineError)?.message ?? "not a CommandLineError: \(error)"
        }
    }

    @Test func absentOptionsReadAsTheirTypedDefaults() throws {
        let arguments = try parse([])
        #expect(try arguments.value(of: Self.port) == 8765)
        #expect(try arguments.value(of: Self.scale) == 1.0)
        #expect(try arguments.value(of: Self.level) == .normal)
        #expect(try arguments.value(of: Self.seed) == nil)
        #expect(try arguments.value(of: Self.name) == nil)
        #expect(try arguments.value(of: Self.key) == [])
        #expect(arguments.value(of: Self.strict) == false)
        #expect(!arguments.isGiven(Self.port))
    }

    @Test func givenValuesAreTypedInEveryAcceptedForm() throws {
        let arguments = try parse([
            "--port=9000", "--scale", "0.5", "--level", "loud", "--seed", "18446744073709551615", "--name", "-x",
            "--strict",
        ])
        #expect(try arguments.value(of: Self.port) == 9000)
        #expect(try arguments.value(of: Self.scale) == 0.5)
        #expect(try arguments.value(of: Self.level) == .loud)
        #expect(try arguments.value(of: Self.seed) == UInt64.max)
        #expect(try arguments.value(of: Self.name) == "-x")
        #expect(arguments.value(of: Self.strict))
        #expect(arguments.isGiven(Self.port))
        #expect(try parse(["-p", "1"]).value(of: Self.port) == 1)
    }

    @Test func repeatedOptionsKeepEveryValueInOrder() throws {
        let arguments = try parse(["--key", "a", "--count", "3", "--key=b", "--count", "-1"])
        #expect(try arguments.value(of: Self.key) == ["a", "b"])
        #expect(try arguments.value(of: Self.count) == [3, -1])
    }

    @Test func badValuesNameTheOptionAndTheValue() throws {
        let port = try parse(["--port", "70000"])
        #expect(
            failure { _ = try port.value(of: Self.port) } == "--port: expected an integer from 0 to 65535, got '70000'")
        let scale = try parse(["--scale", "inf"])
        #expect(
            failure { _ = try scale.value(of: Self.scale) }
                == "--scale: expected a number from 0.01 to 100.0, got 'inf'")
        let level = try parse(["--level", "shout"])
        #expect(
            failure { _ = try level.value(of: Self.level) }
                == "--level: expected one of quiet, normal, loud; got 'shout'")
        let seed = try parse(["--seed", "-1"])
        #expect(failure { _ = try seed.value(of: Self.seed) } == "--seed: expected a non-negative integer, got '-1'")
        let key = try parse(["--key", "a", "--key", ""])
        #expect(failure { _ = try key.value(of: Self.key) } == "--key: expected a non-empty key")
    }

    @Test func unboundedReadersStillRejectWhatIsNotANumber() throws {
        let scale = ValueOption("--scale", valueName: "X", help: "Scale.", reader: .number())
        let count = ValueOption("--count", valueName: "N", help: "Count.", reader: .integer())
        let spec = CommandSpec(name: "tool", abstract: "", options: [scale.spec, count.spec])
        let parsed = try ArgumentParser.parse(["--scale", "inf", "--count", "1.5"], spec: spec)
        #expect(failure { _ = try parsed.value(of: scale) } == "--scale: expected a number, got 'inf'")
        #expect(failure { _ = try parsed.value(of: count) } == "--count: expected an integer, got '1.5'")
    }

    @Test func typedErrorsCarryTheCommandPath() throws {
        let jobs = DefaultedOption("--jobs", valueName: "n", help: "Jobs.", default: 1, reader: .integer(in: 1...64))
        let spec = CommandSpec(
            name: "conformance", abstract: "", options: [],
            subcommands: [CommandSpec(name: "run", abstract: "", options: [jobs.spec])])
        let parsed = try ArgumentParser.parse(["run", "--jobs", "0"], spec: spec)
        do {
            _ = try parsed.value(of: jobs)
            Issue.record("expected an error")
        } catch {
            #expect(error.commandPath == ["conformance", "run"])
        }
    }

    /// Help writes each default once, from the typed declaration (a whole number without `.0`).
    @Test func helpShowsTheDeclaredDefaults() {
        let help = HelpFormatter.render(Self.spec, commandPath: ["tool"])
        #expect(help.contains("Port to bind. (default: 8765)"))
        #expect(help.contains("Multiply delays. (default: 1)"))
        #expect(help.contains("Verbosity. (default: normal)"))
        #expect(help.contains("A key. (repeatable)"))
        #expect(!help.contains("Seed. (default"))
    }

    @Test func aMistypedOptionGetsADidYouMean() {
        #expect(Fixtures.message(["--scael", "2"], Self.spec) == "unknown option '--scael'; did you mean '--scale'?")
    }
}
