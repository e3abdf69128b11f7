/// An option a command declares once, as a typed static constant, and reads back typed:
///
///     static let port = DefaultedOption("--port", valueName: "PORT", help: "Port to bind.",
///                                       default: 8765, reader: .integer(in: 0...65535))
///     let port: Int = try arguments.value(of: Self.port)
///
/// The `spec` goes into the command's `CommandSpec`, so parsing, help (with the default written
/// from the typed value) and reading share one declaration.
package protocol DeclaredOption: Sendable {
    /// The untyped description the parser and help formatter use.
    var spec: OptionSpec { get }
}

/// A boolean switch such as `--strict`.
package struct FlagOption: DeclaredOption {
    package let spec: OptionSpec

    /// Declares `--long` (dashes optional).
    package init(_ long: String, short: Character? = nil, help: String) {
        spec = .flag(long, short: short, help: help)
    }
}

/// An option taking one value, read as `Value?` (`nil` when not given).
package struct ValueOption<Value: Sendable>: DeclaredOption {
    package let spec: OptionSpec
    let reader: ValueReader<Value>

    /// Declares `--long <valueName>` read by `reader`.
    package init(_ long: String, short: Character? = nil, valueName: String, help: String, reader: ValueReader<Value>) {
        spec = .value(long, short: short, valueName: valueName, help: help)
        self.reader = reader
    }
}

extension ValueOption where Value == String {
    /// Declares `--long <valueName>` taking any text.
    package init(_ long: String, short: Character? = nil, valueName: String, help: String) {
        self.init(long, short: short, valueName: valueName, help: help, reader: .text)
    }
}

/// An option taking one value, read as `Value`: the given one, else `defaultValue`, which help
/// shows as `(default: …)`.
package struct DefaultedOption<Value: Sendable>: DeclaredOption {
    package let spec: OptionSpec
    let reader: ValueReader<Value>
    /// The value when the option is not given.
    package let defaultValue: Value

    /// Declares `--long <valueName>` read by `reader`, worth `default` when absent.
    package init(
        _ long: String, short: Character? = nil, valueName: String, help: String, default: Value,
        reader: ValueReader<Value>
    ) {
        spec = .value(long, short: short, valueName: valueName, help: help, default: reader.describe(`default`))
        self.reader = reader
        self.defaultValue = `default`
    }
}

/// An option that may be given any number of times, read as `[Value]` in order.
package struct RepeatedOption<Value: Sendable>: DeclaredOption {
    package let spec: OptionSpec
    let reader: ValueReader<Value>

    /// Declares the repeatable `--long <valueName>` read by `reader`.
    package init(_ long: String, short: Character? = nil, valueName: String, help: String, reader: ValueReader<Value>) {
        spec = .repeated(long, short: short, valueName: valueName, help: help)
        self.reader = reader
    }
}

extension RepeatedOption where Value == String {
    /// Declares the repeatable `--long <valueName>` taking any text.
    package init(_ long: String, short: Character? = nil, valueName: String, help: String) {
        self.init(long, short: short, valueName: valueName, help: help, reader: .text)
    }
}
