internal import FoundationEssentials
import WireJSON

extension JSONValue {
    /// Equality as JSON Schema defines it (`enum`, `const`, `uniqueItems`): numbers by
    /// mathematical value (`1 == 1.0`), objects regardless of key order.
    func schemaEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return NumberSemantics.compare(self, other) == 0
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.schemaEquals($1) }
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            for (key, value) in left {
                guard let match = right[key], value.schemaEquals(match) else { return false }
            }
            return true
        case (.string(let left), .string(let right)):
            // Code points, not Swift's canonical equivalence: "é" and "e\u{301}" differ in JSON.
            return left.utf8.elementsEqual(right.utf8)
        default:
            return self == other
        }
    }

    var isNumber: Bool {
        switch self {
        case .int, .double: true
        default: false
        }
    }
}

/// Exact comparisons between `Int64` and `Double` numbers, and `multipleOf`.
enum NumberSemantics {
    /// -1, 0 or 1 as `left` is less than, equal to or greater than `right`; `nil` unless both are
    /// numbers. Mixed integer/double comparisons are exact (no rounding of large integers).
    static func compare(_ left: JSONValue, _ right: JSONValue) -> Int? {
        switch (left, right) {
        case (.int(let a), .int(let b)): a < b ? -1 : (a == b ? 0 : 1)
        case (.double(let a), .double(let b)): a < b ? -1 : (a == b ? 0 : 1)
        case (.int(let a), .double(let b)): compare(a, b)
        case (.double(let a), .int(let b)): -compare(b, a)
        default: nil
        }
    }

    private static func compare(_ integer: Int64, _ real: Double) -> Int {
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = real.rounded(.towardZero)
        let wholeInteger = Int64(whole)
        if integer != wholeInteger { return integer < wholeInteger ? -1 : 1 }
        let fraction = real - whole
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }

    /// Whether `value` is an integer multiple of `divisor` (a positive number).
    ///
    /// Integers are checked exactly. Otherwise the quotient is computed in `Double`; a quotient
    /// beyond 2^53 is integral by construction, one that overflows is not a multiple, and the
    /// rest are re-checked in decimal arithmetic on the shortest decimal spelling of both
    /// numbers, so `0.3` is a multiple of `0.1` although binary floating point says otherwise.
    static func isMultiple(_ value: JSONValue, of divisor: JSONValue) -> Bool {
        if case .int(let a) = value, case .int(let b) = divisor {
            return b != 0 && a.remainderReportingOverflow(dividingBy: b).partialValue == 0
        }
        guard let a = value.doubleValue, let b = divisor.doubleValue, b != 0 else { return false }
        let quotient = a / b
        guard quotient.isFinite else { return false }
        if abs(quotient) >= 9_007_199_254_740_992 { return true }
        guard let decimalValue = Decimal(string: Self.decimalText(value)),
            let decimalDivisor = Decimal(string: Self.decimalText(divisor))
        else { return quotient == quotient.rounded() }
        return isWhole(decimalValue / decimalDivisor)
    }

    /// Whether a decimal has no fractional digits: its plain spelling (`3`, `30`, `3.50`) has
    /// no `.` or only zeros after it.
    private static func isWhole(_ number: Decimal) -> Bool {
        let text = number.description
        guard let point = text.firstIndex(of: ".") else { return true }
        return text[text.index(after: point)...].allSatisfy { $0 == "0" }
    }

    private static func decimalText(_ number: JSONValue) -> String {
        switch number {
        case .int(let integer): String(integer)
        case .double(let real): real.description
        default: "nan"
        }
    }
}
