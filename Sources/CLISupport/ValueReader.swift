/// How the text of an option becomes a typed value: the conversion, the complaint for text
/// that does not convert, and how a typed default is written in help.
package struct ValueReader<Value: Sendable>: Sendable {
    /// The value for `text`, or `nil` when `text` is not valid.
    let convert: @Sendable (String) -> Value?
    /// What follows `--option: ` when `text` is not valid, e.g. `expected an integer, got 'x'`.
    let complaint: @Sendable (String) -> String
    /// A value as help shows it in `(default: …)`.
    let describe: @Sendable (Value) -> String

    /// A reader whose complaint is `expected EXPECTED, got 'TEXT'`.
    package init(
        expected: String, describe: @escaping @Sendable (Value) -> String,
        convert: @escaping @Sendable (String) -> Value?
    ) {
        self.init(complaint: { "expected \(expected), got '\($0)'" }, describe: describe, convert: convert)
    }

    /// A reader with its own complaint for invalid text.
    package init(
        complaint: @escaping @Sendable (String) -> String, describe: @escaping @Sendable (Value) -> String,
        convert: @escaping @Sendable (String) -> Value?
    ) {
        self.convert = convert
        self.complaint = complaint
        self.describe = describe
    }
}

extension ValueReader where Value == String {
    /// Any text.
    package static var text: ValueReader { ValueReader(complaint: { _ in "" }, describe: { $0 }, convert: { $0 }) }

    /// Text accepted by `isValid`; otherwise the option fails with `--option: COMPLAINT`.
    package static func text(
        complaint: String, where isValid: @escaping @Sendable (String) -> Bool
    ) -> ValueReader {
        ValueReader(complaint: { _ in complaint }, describe: { $0 }, convert: { isValid($0) ? $0 : nil })
    }
}

extension ValueReader where Value == Int {
    /// A whole number, within `range` when given: `expected an integer from 0 to 65535, got 'x'`.
    package static func integer(in range: ClosedRange<Int>? = nil) -> ValueReader {
        let expected = range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer"
        return ValueReader(expected: expected, describe: { String($0) }) { text in
            guard let number = Int(text), range.map({ $0.contains(number) }) ?? true else { return nil }
            return number
        }
    }
}

extension ValueReader where Value == UInt64 {
    /// A whole number from 0 to 2^64-1: `expected a non-negative integer, got 'x'`.
    package static var unsignedInteger: ValueReader {
        ValueReader(expected: "a non-negative integer", describe: { String($0) }, convert: { UInt64($0) })
    }
}

extension ValueReader where Value == Double {
    /// A finite number, within `range` when given: `expected a number from 0.0 to 100.0, got 'x'`.
    /// Help writes a whole-number default without a fraction (`1`, not `1.0`).
    package static func number(in range: ClosedRange<Double>? = nil) -> ValueReader {
        let expected = range.map { "a number from \($0.lowerBound) to \($0.upperBound)" } ?? "a number"
        return ValueReader(expected: expected, describe: describeNumber) { text in
            guard let number = Double(text), number.isFinite, range.map({ $0.contains(number) }) ?? true else {
                return nil
            }
            return number
        }
    }

    private static func describeNumber(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

extension ValueReader where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of the enumeration's raw values, compared exactly:
    /// `expected one of error, warn, info; got 'loud'`.
    package static var choice: ValueReader {
        let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
        return ValueReader(
            complaint: { "expected one of \(names); got '\($0)'" }, describe: \.rawValue,
            convert: { Value(rawValue: $0) })
    }
}
