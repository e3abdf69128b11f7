/// A command-line problem to report to the user, or a request for help.
///
/// Parsing and the typed accessors of `ParsedArguments` throw it; `CommandLineRunner` turns
/// it into `NAME: message` on stderr with exit status `ExitCode.usage`, or prints `helpText`
/// and exits 0 when `isHelpRequest` is set. Programs may throw their own for flag validation
/// that the parser cannot express (`CommandLineError("--jobs needs --report")`).
package struct CommandLineError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, e.g. `--port: expected an integer from 0 to 65535, got 'abc'`.
    package let message: String
    /// `true` for `--help`, `-h` and `help`: the caller prints `helpText` and exits 0.
    package let isHelpRequest: Bool
    /// The rendered help for the (sub)command, when `isHelpRequest`.
    package let helpText: String?
    /// The command path the error belongs to (`["conformance", "run"]`), used for the
    /// `see 'conformance run --help'` hint; empty when unknown.
    package let commandPath: [String]

    /// Creates a usage error with the given message.
    package init(_ message: String, commandPath: [String] = []) {
        self.message = message
        self.isHelpRequest = false
        self.helpText = nil
        self.commandPath = commandPath
    }

    private init(helpText: String, commandPath: [String]) {
        self.message = "help requested"
        self.isHelpRequest = true
        self.helpText = helpText
        self.commandPath = commandPath
    }

    /// A help request carrying the rendered help for `commandPath`.
    package static func helpRequest(helpText: String, commandPath: [String]) -> CommandLineError {
        CommandLineError(helpText: helpText, commandPath: commandPath)
    }

    /// The same error attributed to `commandPath`, unless it already names one.
    package func attributed(to commandPath: [String]) -> CommandLineError {
        guard self.commandPath.isEmpty, !isHelpRequest else { return self }
        return CommandLineError(message, commandPath: commandPath)
    }

    /// The message, or the help text for help requests.
    package var description: String { isHelpRequest ? (helpText ?? message) : message }
}
