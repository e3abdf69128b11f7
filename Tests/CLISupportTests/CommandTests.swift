import CLISupport
import Testing

/// Commands declared as types: the spec they derive, subcommand resolution, and the program
/// that runs without a subcommand (`mock-server --port 0`, `mock-server record-to-scenario J`).
@Suite struct CommandTests {
    enum Serve: Command {
        static let port = DefaultedOption(
            "--port", valueName: "PORT", help: "Port.", default: 8765, reader: .integer(in: 0...65535))
        static let configuration = CommandConfiguration(
            name: "serve", abstract: "Serve.", options: [port], runsWithoutSubcommand: true,
            namesSubcommandInErrors: true)
        static var subcommands: [any Command.Type] { [Convert.self, Compare.self] }
        static func run(_ arguments: ParsedArguments) throws -> Int32 { Int32(try arguments.value(of: port) % 256) }
    }

    enum Convert: Command {
        static let output = ValueOption("--out", valueName: "FILE", help: "Where to write.")
        static let configuration = CommandConfiguration(
            name: "record-to-scenario", abstract: "Convert.", options: [output],
            positionals: [PositionalSpec("journal", help: "A journal.")])
        static func run(_ arguments: ParsedArguments) throws -> Int32 {
            try arguments.value(of: output) == nil ? 10 : 11
        }
    }

    enum Compare: Command {
        static let configuration = CommandConfiguration(name: "compare-recordings", abstract: "Compare.", options: [])
        static func run(_ arguments: ParsedArguments) throws -> Int32 { 20 }
    }

    /// Parses like `main()` and runs the resolved type, returning its status.
    private func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, spec: Serve.spec)
        let command = try #require(Serve.command(at: parsed.command))
        return try command.run(parsed)
    }

    @Test func theParserDispatchesToTheSubcommandType() throws {
        #expect(try run(["--port", "1"]) == 1)
        #expect(try run([]) == Int32(8765 % 256))
        #expect(try run(["record-to-scenario", "j.jsonl"]) == 10)
        #expect(try run(["record-to-scenario", "j.jsonl", "--out", "x.json"]) == 11)
        #expect(try run(["compare-recordings"]) == 20)
        #expect(Serve.command(at: ["serve", "nope"]) == nil)
    }

    @Test func aMistypedSubcommandGetsADidYouMean() {
        #expect(
            Fixtures.message(["record-to-scenaro", "j.jsonl"], Serve.spec)
                == "unknown subcommand 'record-to-scenaro'; did you mean 'record-to-scenario'?")
        #expect(
            Fixtures.message(["elsewhere"], Serve.spec)
                == "unknown subcommand 'elsewhere'; expected one of record-to-scenario, compare-recordings")
    }

    @Test func optionsBelongToTheirOwnCommand() {
        #expect(
            Fixtures.message(["record-to-scenario", "j", "--port", "1"], Serve.spec)
                == "unknown option '--port'; did you mean '--out'?")
        #expect(Fixtures.message(["--out", "x"], Serve.spec) == "unknown option '--out'; did you mean '--port'?")
    }

    /// Errors in a subcommand of a program whose subcommands are tools of their own name the
    /// whole path, as the separate parsers did before.
    @Test func subcommandErrorsNameTheSubcommand() {
        let outcome = CommandLineRunner.outcome(["record-to-scenario"], spec: Serve.spec)
        let expected =
            "serve record-to-scenario: missing argument <journal>\nsee 'serve record-to-scenario --help'\n"
        #expect(outcome == .exit(code: ExitCode.usage, stdout: "", stderr: expected))
    }

    @Test func helpListsTheSubcommandsAsOptional() {
        let help = HelpFormatter.render(Serve.spec, commandPath: ["serve"])
        #expect(help.contains("USAGE: serve [--port <PORT>] [<subcommand>]"))
        #expect(help.contains("SUBCOMMANDS:\n  record-to-scenario"))
        #expect(help.contains("Port. (default: 8765)"))
    }
}
