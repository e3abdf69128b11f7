/// Typed accessors: convert an option's value, or throw a `CommandLineError` that names the
/// option, the bad value and the expected form.
extension ParsedArguments {
    /// The value of `long` as an integer, or `nil` when it was not given and has no default.
    /// - Throws: `--port: expected an integer from 0 to 65535, got '70000'`.
    package func int(_ long: String, range: ClosedRange<Int>? = nil) throws(CommandLineError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let number = Int(text), range.map({ $0.contains(number) }) ?? true else {
            let expected = range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer"
            throw invalid(long, text, expected: expected)
        }
        return number
    }

    /// The value of `long` as a finite number, or `nil` when it was not given and has no
    /// default.
    /// - Throws: `--time-scale: expected a number from 0.0 to 100.0, got '-1'`.
    package func double(_ long: String, range: ClosedRange<Double>? = nil) throws(CommandLineError) -> Double? {
        guard let text = value(long) else { return nil }
        guard let number = Double(text), number.isFinite, range.map({ $0.contains(number) }) ?? true else {
            let expected = range.map { "a number from \($0.lowerBound) to \($0.upperBound)" } ?? "a number"
            throw invalid(long, text, expected: expected)
        }
        return number
    }

    /// The value of `long` when it is one of `among` (compared exactly), or `nil` when it was
    /// not given and has no default.
    /// - Throws: `--log-level: expected one of error, warn, info, debug, trace; got 'loud'`.
    package func choice(_ long: String, among choices: [String]) throws(CommandLineError) -> String? {
        guard let text = value(long) else { return nil }
        guard choices.contains(text) else {
            throw CommandLineError(
                "\(displayName(long)): expected one of \(choices.joined(separator: ", ")); got '\(text)'",
                commandPath: command)
        }
        return text
    }

    /// Every value of the repeatable option `long` as an integer.
    /// - Throws: on the first value that is not an integer in `range`.
    package func ints(_ long: String, range: ClosedRange<Int>? = nil) throws(CommandLineError) -> [Int] {
        var numbers: [Int] = []
        for text in values(long) {
            guard let number = Int(text), range.map({ $0.contains(number) }) ?? true else {
                let expected = range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer"
                throw invalid(long, text, expected: expected)
            }
            numbers.append(number)
        }
        return numbers
    }

    private func invalid(_ long: String, _ text: String, expected: String) -> CommandLineError {
        CommandLineError("\(displayName(long)): expected \(expected), got '\(text)'", commandPath: command)
    }

    private func displayName(_ long: String) -> String {
        "--" + OptionSpec.normalized(long)
    }
}
