#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The top of every executable: parse, or report and exit.
///
/// Usage errors print `NAME: message` and `see 'NAME --help'` to stderr and exit with
/// `ExitCode.usage`; help requests print the help to stdout and exit with `ExitCode.success`.
package enum CommandLineRunner {
    /// What to do with a command line: go on with the parsed arguments, or exit.
    package enum Outcome: Sendable, Equatable {
        /// Parsing succeeded.
        case parsed(ParsedArguments)
        /// The program should print `stdout`/`stderr` (either may be empty) and exit with `code`.
        case exit(code: Int32, stdout: String, stderr: String)
    }

    /// Parses `arguments` (without `argv[0]`, e.g. `Array(CommandLine.arguments.dropFirst())`),
    /// exiting the process on a usage error or a help request.
    package static func parseOrExit(_ arguments: [String], spec: CommandSpec) -> ParsedArguments {
        switch outcome(arguments, spec: spec) {
        case .parsed(let parsed): parsed
        case .exit(let code, let stdout, let stderr): terminate(code: code, stdout: stdout, stderr: stderr)
        }
    }

    /// Runs `body` (typically typed accessors) and exits as for a usage error if it throws.
    ///
    ///     let port = CommandLineRunner.valueOrExit(spec: spec) { try parsed.value(of: Tool.port) }
    ///
    /// `body` throws untyped because closures do not infer typed throws; an error other than
    /// `CommandLineError` is reported with its description.
    package static func valueOrExit<Value>(spec: CommandSpec, _ body: () throws -> Value) -> Value {
        do {
            return try body()
        } catch {
            exit(with: error, spec: spec)
        }
    }

    /// Reports `error` (a usage error found after parsing, or a help request) and exits.
    /// Takes any error so untyped `catch` blocks can pass theirs on; an error other than
    /// `CommandLineError` is reported as a usage error with its description.
    package static func exit(with error: any Error, spec: CommandSpec) -> Never {
        let error = error as? CommandLineError ?? CommandLineError(String(describing: error))
        guard case .exit(let code, let stdout, let stderr) = outcome(for: error, spec: spec) else {
            preconditionFailure("an error always leads to an exit")
        }
        terminate(code: code, stdout: stdout, stderr: stderr)
    }

    /// The decision `parseOrExit` acts on, without side effects (for tests).
    package static func outcome(_ arguments: [String], spec: CommandSpec) -> Outcome {
        do {
            return .parsed(try ArgumentParser.parse(arguments, spec: spec))
        } catch {
            return outcome(for: error, spec: spec)
        }
    }

    /// How `error` is reported: help on stdout with status 0, or the message and a hint on
    /// stderr with `ExitCode.usage`.
    package static func outcome(for error: CommandLineError, spec: CommandSpec) -> Outcome {
        let path = error.commandPath.isEmpty ? [spec.name] : error.commandPath
        if error.isHelpRequest {
            let help = error.helpText ?? HelpFormatter.render(spec, commandPath: path)
            return .exit(code: ExitCode.success, stdout: help + "\n", stderr: "")
        }
        let prefix = spec.namesSubcommandInErrors ? path.joined(separator: " ") : spec.name
        let text = "\(prefix): \(error.message)\nsee '\(path.joined(separator: " ")) --help'\n"
        return .exit(code: ExitCode.usage, stdout: "", stderr: text)
    }

    // MARK: - Process exit

    private static func terminate(code: Int32, stdout: String, stderr: String) -> Never {
        if !stdout.isEmpty { print(stdout, terminator: "") }
        if !stderr.isEmpty { writeToStandardError(stderr) }
        // exit(3) flushes stdio, so buffered help text reaches stdout.
        Self.processExit(code)
    }

    private static func processExit(_ code: Int32) -> Never {
        // Qualified: the member `exit(with:spec:)` shadows the C function.
        #if canImport(Glibc)
            Glibc.exit(code)
        #elseif canImport(Musl)
            Musl.exit(code)
        #else
            Darwin.exit(code)
        #endif
    }

    /// Writes straight to file descriptor 2: the C `stderr` global is not concurrency-safe.
    private static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
