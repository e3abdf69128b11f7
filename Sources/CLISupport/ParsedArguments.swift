/// The result of parsing a command line against a `CommandSpec`.
///
/// Options are looked up by long name, with or without dashes (`"port"` or `"--port"`), and
/// include the options of every level on the resolved command path. Asking for a name that
/// was never declared answers as if the option had not been given (`false`, `nil`, `[]`), so
/// code shared between subcommands may ask for options only some of them declare.
package struct ParsedArguments: Sendable, Equatable {
    /// The resolved command path, root first, e.g. `["conformance", "run"]`.
    package let command: [String]
    /// Every option declared on the command path, by long name.
    package let declaredOptions: [String: OptionSpec]
    /// Values given on the command line, by long name, in order of appearance.
    package let givenValues: [String: [String]]
    /// Long names of the flags that were given.
    package let givenFlags: Set<String>
    /// Positional values, by positional name.
    package let positionalValues: [String: [String]]

    /// Creates a result directly; parsing normally does this.
    package init(
        command: [String], declaredOptions: [String: OptionSpec] = [:], givenValues: [String: [String]] = [:],
        givenFlags: Set<String> = [], positionalValues: [String: [String]] = [:]
    ) {
        self.command = command
        self.declaredOptions = declaredOptions
        self.givenValues = givenValues
        self.givenFlags = givenFlags
        self.positionalValues = positionalValues
    }

    /// The innermost subcommand name, e.g. `run` for `["conformance", "run"]`.
    package var subcommand: String? { command.count > 1 ? command.last : nil }

    /// Whether the flag `long` was given.
    package func flag(_ long: String) -> Bool {
        givenFlags.contains(OptionSpec.normalized(long))
    }

    /// The value of `long`: the given value (the last one for repeated options), otherwise
    /// the declared default, otherwise `nil`.
    package func value(_ long: String) -> String? {
        let name = OptionSpec.normalized(long)
        return givenValues[name]?.last ?? declaredOptions[name]?.defaultValue
    }

    /// Every value given for `long`, in order; the default (if any) when none was given.
    package func values(_ long: String) -> [String] {
        let name = OptionSpec.normalized(long)
        if let given = givenValues[name], !given.isEmpty { return given }
        return declaredOptions[name]?.defaultValue.map { [$0] } ?? []
    }

    /// Whether `long` was given on the command line (defaults do not count).
    package func isGiven(_ long: String) -> Bool {
        let name = OptionSpec.normalized(long)
        return givenFlags.contains(name) || !(givenValues[name] ?? []).isEmpty
    }

    /// The value of the positional `name` (the first one, for a variadic positional).
    package func positional(_ name: String) -> String? {
        positionalValues[name]?.first
    }

    /// Every value of the positional `name`; empty when it was not given.
    package func positionals(_ name: String) -> [String] {
        positionalValues[name] ?? []
    }
}
