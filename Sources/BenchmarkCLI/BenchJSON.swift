/// A small ordered JSON value for the report (BenchmarkCLI does not depend on WireJSON).
enum BenchJSON {
    case object([(String, BenchJSON)])
    case array([BenchJSON])
    case string(String)
    case int(Int)
    case number(Double, digits: Int)
    case bool(Bool)
    case null

    static func number(_ value: Double) -> BenchJSON { .number(value, digits: 1) }

    /// Pretty-printed with two-space indentation.
    func rendered(indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        let inner = String(repeating: " ", count: indent + 2)
        switch self {
        case .object(let members):
            if members.isEmpty { return "{}" }
            let lines = members.map { "\(inner)\(BenchJSON.quote($0.0)): \($0.1.rendered(indent: indent + 2))" }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(pad)}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy(\.isScalar) {
                return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]"
            }
            return "[\n" + items.map { inner + $0.rendered(indent: indent + 2) }.joined(separator: ",\n") + "\n\(pad)]"
        case .string(let text): return BenchJSON.quote(text)
        case .int(let value): return String(value)
        case .number(let value, let digits):
            guard value.isFinite else { return "null" }
            return BenchJSON.fixed(value, digits: digits)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        default: true
        }
    }

    /// `value` rounded to `digits` decimals, without exponent notation.
    static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        let negative = scaled < 0
        let magnitude = Int(abs(scaled))
        let whole = magnitude / Int(scale)
        let fraction = magnitude % Int(scale)
        var text = (negative ? "-" : "") + String(whole)
        if digits > 0 {
            let digitsText = String(fraction)
            text += "." + String(repeating: "0", count: digits - digitsText.count) + digitsText
        }
        return text
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
