/// The mutable state of one `ArgumentParser.parse` call: walks the arguments once, resolving
/// subcommands, collecting option values and remembering the first error.
struct ParseState {
    private let root: CommandSpec
    /// The resolved command path; the last element is the level options are looked up in.
    private var path: [CommandSpec]
    private var declared: [String: OptionSpec] = [:]
    private var givenValues: [String: [String]] = [:]
    private var givenFlags: Set<String> = []
    private var positionalTokens: [String] = []
    private var firstError: CommandLineError?
    private var helpRequested = false
    /// Set after the `help` pseudo-subcommand: further words name the help topic.
    private var choosingHelpTopic = false
    private var optionsEnded = false
    /// Set after an unknown subcommand: nothing later can be interpreted.
    private var stopped = false

    init(root: CommandSpec) {
        self.root = root
        self.path = [root]
        declare(root)
    }

    private var current: CommandSpec { path[path.count - 1] }
    private var commandPath: [String] { path.map(\.name) }

    // MARK: - Walking the arguments

    mutating func consume(_ arguments: [String]) throws(CommandLineError) {
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || token == "-" || ArgumentParser.isNegativeNumber(token, in: current) {
                try positional(token, remaining: arguments[index...])
            } else if token == "--" {
                optionsEnded = true
            } else if ArgumentParser.isHelpToken(token) {
                helpRequested = true
            } else if token.hasPrefix("--") {
                let parts = token.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let inline = parts.count == 2 ? String(parts[1]) : nil
                option(current.option(named: String(parts[0])), token: token, inline: inline, arguments, &index)
            } else if token.hasPrefix("-") {
                let found = token.count == 2 ? current.option(short: token[token.index(after: token.startIndex)]) : nil
                option(found, token: token, inline: nil, arguments, &index)
            } else {
                try positional(token, remaining: arguments[index...])
            }
            if stopped { break }
        }
    }

    private mutating func option(
        _ found: OptionSpec?, token: String, inline: String?, _ arguments: [String], _ index: inout Int
    ) {
        guard let option = found else {
            return fail(ArgumentParser.unknownOptionMessage(token, in: current))
        }
        guard option.takesValue else {
            if let inline { return fail("\(option.displayName): takes no value, got '\(inline)'") }
            givenFlags.insert(option.long)
            return
        }
        let value: String
        if let inline {
            value = inline
        } else if index < arguments.count, !ArgumentParser.isHelpToken(arguments[index]) {
            value = arguments[index]
            index += 1
        } else {
            return fail("\(option.displayName): missing value; expected <\(option.valueName)>")
        }
        if option.kind == .value, let previous = givenValues[option.long]?.first {
            return fail("\(option.displayName): given more than once ('\(previous)', then '\(value)')")
        }
        givenValues[option.long, default: []].append(value)
    }

    private mutating func positional(_ token: String, remaining: ArraySlice<String>) throws(CommandLineError) {
        if choosingHelpTopic {
            guard !current.subcommands.isEmpty else { return }
            guard let subcommand = current.subcommand(named: token) else {
                throw CommandLineError(
                    ArgumentParser.unknownSubcommandMessage(token, in: current), commandPath: commandPath)
            }
            path.append(subcommand)
            return
        }
        guard !current.subcommands.isEmpty, !optionsEnded else {
            positionalTokens.append(token)
            return
        }
        if token == "help" {
            helpRequested = true
            choosingHelpTopic = true
        } else if let subcommand = current.subcommand(named: token) {
            path.append(subcommand)
            declare(subcommand)
        } else {
            fail(ArgumentParser.unknownSubcommandMessage(token, in: current))
            // Later arguments belong to a command we do not know; only a help request counts.
            if remaining.prefix(while: { $0 != "--" }).contains(where: ArgumentParser.isHelpToken) {
                helpRequested = true
            }
            stopped = true
        }
    }

    // MARK: - Finishing

    func finish() throws(CommandLineError) -> ParsedArguments {
        if helpRequested {
            let help = HelpFormatter.render(current, commandPath: commandPath)
            throw CommandLineError.helpRequest(helpText: help, commandPath: commandPath)
        }
        if let firstError { throw firstError }
        // `conformance --version` needs no subcommand (when the command declares the flag).
        let versionOnly = givenFlags.contains("version") && current.options.contains { $0.long == "version" }
        if !current.subcommands.isEmpty, !current.subcommandOptional, !versionOnly {
            let names = current.subcommands.map(\.name).joined(separator: ", ")
            throw CommandLineError("missing subcommand; expected one of \(names)", commandPath: commandPath)
        }
        var remaining = positionalTokens[...]
        var positionalValues: [String: [String]] = [:]
        for spec in current.positionals {
            let taken = spec.variadic ? Array(remaining) : Array(remaining.prefix(1))
            remaining = remaining.dropFirst(taken.count)
            if taken.isEmpty, !spec.optional {
                throw CommandLineError("missing argument <\(spec.name)>", commandPath: commandPath)
            }
            if !taken.isEmpty { positionalValues[spec.name] = taken }
        }
        if let extra = remaining.first {
            throw CommandLineError("unexpected argument '\(extra)'", commandPath: commandPath)
        }
        return ParsedArguments(
            command: commandPath, declaredOptions: declared, givenValues: givenValues, givenFlags: givenFlags,
            positionalValues: positionalValues)
    }

    // MARK: - Helpers

    private mutating func declare(_ spec: CommandSpec) {
        for option in spec.options { declared[option.long] = option }
    }

    private mutating func fail(_ message: String) {
        if firstError == nil { firstError = CommandLineError(message, commandPath: commandPath) }
    }
}
