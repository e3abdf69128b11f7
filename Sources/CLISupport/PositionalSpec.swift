/// One positional argument of a command, such as `<file>`.
///
/// Positionals are filled in declaration order. Required ones come first, then optional ones;
/// a variadic positional (which takes every remaining argument) must be the last.
package struct PositionalSpec: Sendable, Equatable {
    /// The name used by `ParsedArguments.positional(_:)` and shown as `<name>` in help.
    package let name: String
    /// One-line description shown in the ARGUMENTS table.
    package let help: String
    /// When `true`, the argument may be left out.
    package let optional: Bool
    /// When `true`, the argument takes all remaining positional arguments (zero or more if
    /// optional, one or more otherwise).
    package let variadic: Bool

    /// Creates a positional argument.
    package init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        precondition(!name.isEmpty, "a positional argument needs a name")
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
    }

    /// The argument as shown in usage lines: `<file>`, `[<file>]`, `<file> ...`.
    package var usageToken: String {
        let base = "<\(name)>" + (variadic ? " ..." : "")
        return optional ? "[\(base)]" : base
    }
}
