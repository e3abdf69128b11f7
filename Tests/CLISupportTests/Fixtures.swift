import CLISupport

/// Specs shaped like the real executables (the README synopses), shared by the tests.
enum Fixtures {
    /// `mock-server --port`, read typed.
    static let port = DefaultedOption(
        "--port", short: "p", valueName: "port", help: "Port to listen on; 0 picks a free port.", default: 8765,
        reader: .integer(in: 0...65535))
    /// `conformance run --jobs`, read typed.
    static let jobs = DefaultedOption(
        "jobs", short: "j", valueName: "n", help: "Cases run at once.", default: 1, reader: .integer(in: 1...64))

    static let mockServer = CommandSpec(
        name: "mock-server",
        abstract: "Serve the DialogMock protocols on one port.",
        options: [
            .value("host", valueName: "host", help: "Address to bind.", default: "127.0.0.1"),
            port.spec,
            .value("scenario", valueName: "name-or-file", help: "Scenario to serve."),
            .repeated("api-key", valueName: "key", help: "Accepted API key."),
            .value("time-scale", valueName: "factor", help: "Multiply every scripted delay.", default: "1.0"),
            .value("log-level", valueName: "level", help: "Log verbosity.", default: "info"),
            .flag("verbose", short: "v", help: "Log more."),
        ])

    static let conformance = CommandSpec(
        name: "conformance",
        abstract: "Check a client against the DialogMock conformance suites.",
        options: [.flag("quiet", short: "q", help: "Print only the summary.")],
        subcommands: [
            CommandSpec(
                name: "list", abstract: "List the cases.",
                options: [.value("protocol", valueName: "protocol", help: "Only this protocol.")]),
            CommandSpec(name: "lint", abstract: "Check the suite definitions.", options: []),
            CommandSpec(
                name: "run", abstract: "Run cases against a client.",
                options: [
                    .value("protocol", valueName: "protocol", help: "The protocol the client speaks."),
                    .value("client", valueName: "command", help: "Shell command that starts the client."),
                    .repeated("case", valueName: "glob", help: "Select cases."),
                    .flag("strict", help: "Fail on SHOULD violations."),
                    jobs.spec,
                ]),
        ])

    static let copy = CommandSpec(
        name: "copy",
        abstract: "Copy files.",
        options: [.flag("force", short: "f", help: "Overwrite.")],
        positionals: [
            PositionalSpec("source", help: "File to copy."),
            PositionalSpec("destination", help: "Where to copy it."),
            PositionalSpec("extra", help: "More files.", optional: true, variadic: true),
        ])

    /// The parse result, or the thrown error's message.
    static func parse(
        _ arguments: [String], _ spec: CommandSpec = mockServer
    ) -> Result<ParsedArguments, CommandLineError> {
        do {
            return .success(try ArgumentParser.parse(arguments, spec: spec))
        } catch {
            return .failure(error)
        }
    }

    /// The message of the error parsing throws, or `nil` when parsing succeeds.
    static func message(_ arguments: [String], _ spec: CommandSpec = mockServer) -> String? {
        guard case .failure(let error) = parse(arguments, spec) else { return nil }
        return error.isHelpRequest ? "HELP" : error.message
    }
}
