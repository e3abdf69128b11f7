/// The declarative description of a command: its options, positional arguments and
/// subcommands, from which both parsing and help are derived.
///
/// Options belong to the level that declares them: root options go before the subcommand name
/// (`conformance --verbose run`), subcommand options after it. `--help`/`-h` is implicit on
/// every level and must not be declared. Inconsistent specs (duplicate names, a required
/// positional after an optional one, …) are programmer errors and stop at a precondition.
package struct CommandSpec: Sendable, Equatable {
    /// The command or subcommand name as typed, e.g. `conformance` or `run`.
    package let name: String
    /// One-line summary, shown under OVERVIEW and in the parent's SUBCOMMANDS table.
    package let abstract: String
    /// A hand-written usage line (without the `USAGE: ` prefix); generated when `nil`.
    package let usage: String?
    /// The named options accepted at this level.
    package let options: [OptionSpec]
    /// The positional arguments, filled in order.
    package let positionals: [PositionalSpec]
    /// Nested commands; when present, the first positional argument must name one of them.
    package let subcommands: [CommandSpec]
    /// Longer free text shown after the overview.
    package let discussion: String?
    /// When `true`, a command line naming no subcommand is for this command itself
    /// (`mock-server --port 0` serves; `mock-server record-to-scenario J` converts).
    package let subcommandOptional: Bool
    /// When `true`, usage errors in a subcommand start with the whole command path
    /// (`mock-server record-to-scenario: missing argument <journal>`), not just the root name.
    package let namesSubcommandInErrors: Bool

    /// Creates a command description.
    package init(
        name: String, abstract: String, usage: String? = nil, options: [OptionSpec],
        positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = [], discussion: String? = nil,
        subcommandOptional: Bool = false, namesSubcommandInErrors: Bool = false
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.discussion = discussion
        self.subcommandOptional = subcommandOptional
        self.namesSubcommandInErrors = namesSubcommandInErrors
        validate()
    }

    /// The option declared at this level with the long name `long` (dashes optional).
    package func option(named long: String) -> OptionSpec? {
        let name = OptionSpec.normalized(long)
        return options.first { $0.long == name }
    }

    /// The option declared at this level with the short name `short`.
    package func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }

    /// The direct subcommand called `name`.
    package func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    private func validate() {
        precondition(!name.isEmpty, "a command needs a name")
        var longs: Set<String> = ["help"]
        var shorts: Set<Character> = ["h"]
        for option in options {
            precondition(
                longs.insert(option.long).inserted, "\(name): option '--\(option.long)' declared twice or reserved")
            if let short = option.short {
                precondition(
                    shorts.insert(short).inserted, "\(name): short option '-\(short)' declared twice or reserved")
            }
        }
        var sawOptional = false
        for (index, positional) in positionals.enumerated() {
            precondition(
                !positional.variadic || index == positionals.count - 1,
                "\(name): only the last positional may be variadic")
            precondition(
                positional.optional || !sawOptional,
                "\(name): required positional <\(positional.name)> after an optional one")
            sawOptional = sawOptional || positional.optional
        }
        precondition(Set(positionals.map(\.name)).count == positionals.count, "\(name): duplicate positional names")
        precondition(
            subcommands.isEmpty || positionals.isEmpty, "\(name): a command takes positionals or subcommands, not both")
        precondition(Set(subcommands.map(\.name)).count == subcommands.count, "\(name): duplicate subcommand names")
        precondition(subcommand(named: "help") == nil, "\(name): 'help' is a reserved subcommand name")
    }
}
