/// A `Command` whose work awaits (`conformance run`); its `main()` is `async`.
package protocol AsyncCommand: CommandDeclaration {
    /// The subcommands, in the order help lists them; empty for a leaf command.
    static var subcommands: [any AsyncCommand.Type] { get }
    /// Does the command's work with the parsed arguments; returns the exit status.
    static func run(_ arguments: ParsedArguments) async throws -> Int32
}

extension AsyncCommand {
    /// No subcommands.
    package static var subcommands: [any AsyncCommand.Type] { [] }

    /// The parser's description of this command and its subcommands.
    package static var spec: CommandSpec { spec(subcommands: subcommands.map { $0.spec }) }

    /// The type `path` names below this one (`["conformance", "run"]`), or `nil`.
    package static func command(at path: [String]) -> (any AsyncCommand.Type)? {
        var found: any AsyncCommand.Type = self
        for name in path.dropFirst() {
            guard let next = found.subcommands.first(where: { $0.configuration.name == name }) else { return nil }
            found = next
        }
        return found
    }

    /// Parses the process's arguments, runs the command they name and exits with its status.
    package static func main() async {
        let spec = spec
        let arguments = CommandLineRunner.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: spec)
        guard let command = command(at: arguments.command) else {
            preconditionFailure("the parser resolved \(arguments.command), which \(Self.self) does not declare")
        }
        do {
            exitProcess(try await command.run(arguments))
        } catch {
            exit(with: error, arguments: arguments, spec: spec)
        }
    }
}
