/// Parses command lines against a `CommandSpec`.
///
/// Accepted forms: `--opt value`, `--opt=value`, `-o value`, flags `--flag`/`-f`; `--` ends
/// options. A value option takes the next argument even when it starts with `-`
/// (`--time-scale -1`), except `--help`/`-h`, which request help wherever they appear before
/// `--`; write `--opt=-h` to pass that literal value. Parsing continues past most errors so
/// that a later `--help` still wins; otherwise the first error is thrown.
package enum ArgumentParser {
    /// Parses `arguments` (without `argv[0]`) against `spec`.
    /// - Throws: a help request (`isHelpRequest`) for `--help`, `-h` or `help`, otherwise a
    ///   usage error naming the offending argument.
    package static func parse(_ arguments: [String], spec: CommandSpec) throws(CommandLineError) -> ParsedArguments {
        var state = ParseState(root: spec)
        try state.consume(arguments)
        return try state.finish()
    }

    /// `true` for the spellings that request help.
    static func isHelpToken(_ token: String) -> Bool {
        token == "--help" || token == "-h"
    }

    /// `true` for a negative number such as `-1` or `-0.5`, which is a positional argument
    /// rather than an option unless the command declares a matching short option.
    static func isNegativeNumber(_ token: String, in spec: CommandSpec) -> Bool {
        guard token.count > 1, token.first == "-", Double(token) != nil else { return false }
        return spec.option(short: token[token.index(after: token.startIndex)]) == nil
    }

    /// `unknown option '--prot'; did you mean '--port'?`
    static func unknownOptionMessage(_ token: String, in spec: CommandSpec) -> String {
        let name = token.split(separator: "=", maxSplits: 1).first.map(String.init) ?? token
        let message = "unknown option '\(name)'"
        let bare = OptionSpec.normalized(name)
        guard bare.count > 1 else { return message }
        let candidates = spec.options.map(\.displayName) + ["--help"]
        guard let suggestion = NameSuggester.closest(to: "--" + bare, among: candidates) else { return message }
        return message + "; did you mean '\(suggestion)'?"
    }

    /// `unknown subcommand 'rnu'; did you mean 'run'?`, or without a close name
    /// `unknown subcommand 'nope'; expected one of list, lint, run`.
    static func unknownSubcommandMessage(_ token: String, in spec: CommandSpec) -> String {
        let names = spec.subcommands.map(\.name)
        guard let suggestion = NameSuggester.closest(to: token, among: names) else {
            return "unknown subcommand '\(token)'; expected one of \(names.joined(separator: ", "))"
        }
        return "unknown subcommand '\(token)'; did you mean '\(suggestion)'?"
    }
}
