#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every command type declares: its name, summary, options (each a `DeclaredOption`
/// constant, declared once), positionals and free text.
package protocol CommandDeclaration {
    /// Name, summary, options, positionals and free text; the subcommands come from the
    /// refining protocol's `subcommands`.
    static var configuration: CommandConfiguration { get }
}

/// A program or one of its subcommands, declared as a type in the manner of
/// swift-argument-parser, whose work is synchronous:
///
///     @main enum Tool: Command {
///         static let verbose = FlagOption("--verbose", help: "Log more.")
///         static let configuration = CommandConfiguration(
///             name: "tool", abstract: "Does things.", options: [verbose])
///         static let subcommands: [any Command.Type] = [Copy.self]
///         static func run(_ arguments: ParsedArguments) throws -> Int32 { … }
///     }
///
/// `main()` parses `CommandLine.arguments`, resolves the subcommand (with a did-you-mean for
/// a mistyped one), runs that type on the calling (main) thread and exits with the status `run`
/// returns. A `CommandLineError` thrown by `run` is reported like a parse error (one line, exit
/// `ExitCode.usage`).
package protocol Command: CommandDeclaration {
    /// The subcommands, in the order help lists them; empty for a leaf command.
    static var subcommands: [any Command.Type] { get }
    /// Does the command's work with the parsed arguments; returns the exit status.
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

extension CommandDeclaration {
    /// The parser's description of this command, given its subcommands' descriptions.
    static func spec(subcommands: [CommandSpec]) -> CommandSpec {
        let configuration = configuration
        return CommandSpec(
            name: configuration.name, abstract: configuration.abstract, usage: configuration.usage,
            options: configuration.options.map(\.spec), positionals: configuration.positionals,
            subcommands: subcommands, discussion: configuration.discussion,
            subcommandOptional: configuration.runsWithoutSubcommand,
            namesSubcommandInErrors: configuration.namesSubcommandInErrors)
    }

    /// Reports a usage error thrown by `run` (attributed to the command that threw it) and exits.
    static func exit(with error: any Error, arguments: ParsedArguments, spec: CommandSpec) -> Never {
        CommandLineRunner.exit(
            with: (error as? CommandLineError)?.attributed(to: arguments.command) ?? error, spec: spec)
    }

    static func exitProcess(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #elseif canImport(Musl)
            Musl.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }
}

extension Command {
    /// No subcommands.
    package static var subcommands: [any Command.Type] { [] }

    /// The parser's description of this command and its subcommands.
    package static var spec: CommandSpec { spec(subcommands: subcommands.map { $0.spec }) }

    /// The type `path` names below this one (`["mock-server", "compare-recordings"]`), or `nil`.
    package static func command(at path: [String]) -> (any Command.Type)? {
        var found: any Command.Type = self
        for name in path.dropFirst() {
            guard let next = found.subcommands.first(where: { $0.configuration.name == name }) else { return nil }
            found = next
        }
        return found
    }

    /// Parses the process's arguments, runs the command they name and exits with its status.
    package static func main() {
        let spec = spec
        let arguments = CommandLineRunner.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: spec)
        guard let command = command(at: arguments.command) else {
            preconditionFailure("the parser resolved \(arguments.command), which \(Self.self) does not declare")
        }
        do {
            exitProcess(try command.run(arguments))
        } catch {
            exit(with: error, arguments: arguments, spec: spec)
        }
    }
}
