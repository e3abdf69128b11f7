/// One named option of a command: `--port`, optionally also `-p`.
///
/// Long names may be written with or without the leading dashes (`"port"` or `"--port"`);
/// they are stored without them. Every option is optional on the command line; give a value
/// option a `default` when the program needs a value either way.
package struct OptionSpec: Sendable, Equatable {
    /// What an option takes from the command line.
    package enum Kind: Sendable, Equatable {
        /// A boolean switch: present or absent, never takes a value.
        case flag
        /// Exactly one value; giving the option twice is an error.
        case value
        /// Any number of values, one per occurrence (`--case a --case b`).
        case repeated
    }

    /// The long name without dashes, e.g. `port`.
    package let long: String
    /// The single-character short name, e.g. `p` for `-p`.
    package let short: Character?
    /// Whether the option is a flag, a single value or a repeatable value.
    package let kind: Kind
    /// The placeholder shown in help and usage, e.g. `port` for `<port>`; empty for flags.
    package let valueName: String
    /// One-line description shown in the OPTIONS table.
    package let help: String
    /// The value reported when the option is not given (value options only).
    package let defaultValue: String?

    /// Creates an option of any kind; prefer the `flag`, `value` and `repeated` factories.
    package init(
        long: String, short: Character? = nil, kind: Kind, valueName: String = "", help: String,
        defaultValue: String? = nil
    ) {
        let name = OptionSpec.normalized(long)
        precondition(!name.isEmpty, "an option needs a long name")
        precondition(short.map { $0 != "-" } ?? true, "'-' cannot be a short option name")
        self.long = name
        self.short = short
        self.kind = kind
        self.valueName = kind == .flag ? "" : (valueName.isEmpty ? name : valueName)
        self.help = help
        self.defaultValue = kind == .value ? defaultValue : nil
    }

    /// A boolean switch such as `--strict`.
    package static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .flag, help: help)
    }

    /// An option taking exactly one value, such as `--port <port>`.
    /// - Parameter default: reported by `ParsedArguments.value(_:)` when the option is absent,
    ///   and shown in help as `(default: …)`.
    package static func value(
        _ long: String, short: Character? = nil, valueName: String, help: String, default: String? = nil
    ) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value, valueName: valueName, help: help, defaultValue: `default`)
    }

    /// An option that may be given any number of times, such as `--case <glob>`.
    package static func repeated(_ long: String, short: Character? = nil, valueName: String, help: String) -> OptionSpec
    {
        OptionSpec(long: long, short: short, kind: .repeated, valueName: valueName, help: help)
    }

    /// The option as written on the command line: `--port`.
    package var displayName: String { "--" + long }

    /// `true` when the option consumes a value (value and repeated options).
    package var takesValue: Bool { kind != .flag }

    /// Strips leading dashes so `"--port"` and `"port"` name the same option.
    static func normalized(_ name: String) -> String {
        String(name.drop { $0 == "-" })
    }
}
