/// Reading declared options: typed values, or a `CommandLineError` naming the option and the
/// bad value (`--port: expected an integer from 0 to 65535, got 'abc'`).
extension ParsedArguments {
    /// Whether the flag was given.
    package func value(of option: FlagOption) -> Bool {
        flag(option.spec.long)
    }

    /// The given value, or `nil` when the option was not given.
    package func value<Value>(of option: ValueOption<Value>) throws(CommandLineError) -> Value? {
        guard let text = givenValues[option.spec.long]?.last else { return nil }
        return try read(text, option.reader, option.spec)
    }

    /// The given value, or the declared default.
    package func value<Value>(of option: DefaultedOption<Value>) throws(CommandLineError) -> Value {
        guard let text = givenValues[option.spec.long]?.last else { return option.defaultValue }
        return try read(text, option.reader, option.spec)
    }

    /// Every given value, in order; empty when none was given.
    package func value<Value>(of option: RepeatedOption<Value>) throws(CommandLineError) -> [Value] {
        var values: [Value] = []
        for text in givenValues[option.spec.long] ?? [] { values.append(try read(text, option.reader, option.spec)) }
        return values
    }

    /// Whether the option was given on the command line (a default does not count).
    package func isGiven(_ option: some DeclaredOption) -> Bool {
        isGiven(option.spec.long)
    }

    private func read<Value>(
        _ text: String, _ reader: ValueReader<Value>, _ spec: OptionSpec
    ) throws(CommandLineError) -> Value {
        guard let value = reader.convert(text) else {
            throw CommandLineError("\(spec.displayName): \(reader.complaint(text))", commandPath: command)
        }
        return value
    }
}
