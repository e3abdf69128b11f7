/// What a `Command` type declares about itself (see `CommandSpec` for the fields).
package struct CommandConfiguration: Sendable {
    package let name: String
    package let abstract: String
    package let usage: String?
    package let options: [any DeclaredOption]
    package let positionals: [PositionalSpec]
    package let discussion: String?
    /// When `true` and the command has subcommands, a command line naming none runs this one.
    package let runsWithoutSubcommand: Bool
    /// When `true`, usage errors in a subcommand start with the whole path (see `CommandSpec`).
    package let namesSubcommandInErrors: Bool

    /// Creates the declaration of a command.
    package init(
        name: String, abstract: String, usage: String? = nil, options: [any DeclaredOption],
        positionals: [PositionalSpec] = [], discussion: String? = nil, runsWithoutSubcommand: Bool = false,
        namesSubcommandInErrors: Bool = false
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.options = options
        self.positionals = positionals
        self.discussion = discussion
        self.runsWithoutSubcommand = runsWithoutSubcommand
        self.namesSubcommandInErrors = namesSubcommandInErrors
    }
}
