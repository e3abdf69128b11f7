/// Renders the help text of a command: overview, usage, then aligned ARGUMENTS, OPTIONS and
/// SUBCOMMANDS tables, in the style of swift-argument-parser.
package enum HelpFormatter {
    /// The width help text is wrapped to.
    package static let lineWidth = 80
    /// Labels longer than this put their help text on the next line.
    static let maximumLabelWidth = 24

    /// The help for `spec`, reached through `commandPath` (root first, ending with `spec.name`).
    /// The result has no trailing newline.
    package static func render(_ spec: CommandSpec, commandPath: [String]) -> String {
        let path = commandPath.isEmpty ? [spec.name] : commandPath
        let arguments = spec.positionals.map { ("<\($0.name)>", $0.help) }
        let options = spec.options.map { (label(for: $0), help(for: $0)) } + [("-h, --help", "Show help information.")]
        let subcommands = spec.subcommands.map { ($0.name, $0.abstract) }
        let width = min(maximumLabelWidth, (arguments + options + subcommands).map(\.0.count).max() ?? 0)

        var sections: [String] = []
        if !spec.abstract.isEmpty { sections.append("OVERVIEW: " + spec.abstract) }
        if let discussion = spec.discussion, !discussion.isEmpty { sections.append(discussion) }
        sections.append("USAGE: " + (spec.usage ?? usage(for: spec, commandPath: path)))
        if !arguments.isEmpty { sections.append(table("ARGUMENTS", arguments, width: width)) }
        sections.append(table("OPTIONS", options, width: width))
        if !subcommands.isEmpty {
            sections.append(table("SUBCOMMANDS", subcommands, width: width))
            sections.append("  See '\(path.joined(separator: " ")) help <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n")
    }

    /// The generated usage line (without `USAGE: `), wrapped under the command name.
    package static func usage(for spec: CommandSpec, commandPath: [String]) -> String {
        let command = commandPath.joined(separator: " ")
        var tokens = spec.options.map { option -> String in
            switch option.kind {
            case .flag: "[\(option.displayName)]"
            case .value: "[\(option.displayName) <\(option.valueName)>]"
            case .repeated: "[\(option.displayName) <\(option.valueName)> ...]"
            }
        }
        tokens += spec.positionals.map(\.usageToken)
        if !spec.subcommands.isEmpty { tokens.append(spec.subcommandOptional ? "[<subcommand>]" : "<subcommand>") }
        let indent = "USAGE: ".count + command.count + 1
        let lines = wrap(tokens, width: lineWidth - indent)
        guard let first = lines.first else { return command }
        let continuation = String(repeating: " ", count: indent)
        return ([command + " " + first] + lines.dropFirst().map { continuation + $0 }).joined(separator: "\n")
    }

    // MARK: - Tables

    private static func label(for option: OptionSpec) -> String {
        let short = option.short.map { "-\($0), " } ?? ""
        let value = option.takesValue ? " <\(option.valueName)>" : ""
        return short + option.displayName + value
    }

    private static func help(for option: OptionSpec) -> String {
        var text = option.help
        if let value = option.defaultValue { text += " (default: \(value))" }
        if option.kind == .repeated { text += " (repeatable)" }
        return text
    }

    private static func table(_ title: String, _ rows: [(String, String)], width: Int) -> String {
        let helpColumn = 2 + width + 2
        let padding = String(repeating: " ", count: helpColumn)
        var lines = [title + ":"]
        for (label, help) in rows {
            let words = help.split(separator: " ").map(String.init)
            let wrapped = wrap(words, width: max(20, lineWidth - helpColumn))
            let first = wrapped.first ?? ""
            if label.count > width {
                lines.append("  " + label)
                if !first.isEmpty { lines.append(padding + first) }
            } else {
                let line = "  " + label + String(repeating: " ", count: width - label.count + 2) + first
                lines.append(first.isEmpty ? "  " + label : line)
            }
            lines += wrapped.dropFirst().map { padding + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// Joins `words` with spaces into lines of at most `width` characters (a longer word gets
    /// a line of its own); the caller indents continuation lines.
    private static func wrap(_ words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
