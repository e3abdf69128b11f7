/// The order reports list case ids and obligations in, as Foundation's
/// `localizedStandardCompare` (ICU) sorted them, without ICU: runs of digits compare by value
/// (`C2` before `C10`), letters case-insensitively, and punctuation sorts before digits, which
/// sort before letters. Strings equal by these rules fall back to code-point order.
package enum NaturalOrder {
    /// Whether `lhs` sorts before `rhs`.
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var left = Array(lhs.unicodeScalars)[...]
        var right = Array(rhs.unicodeScalars)[...]
        while let a = left.first, let b = right.first {
            if isDigit(a) && isDigit(b) {
                let leftDigits = left.prefix(while: isDigit)
                let rightDigits = right.prefix(while: isDigit)
                let leftValue = leftDigits.drop { $0 == "0" }
                let rightValue = rightDigits.drop { $0 == "0" }
                if leftValue.count != rightValue.count { return leftValue.count < rightValue.count }
                if !leftValue.elementsEqual(rightValue) { return leftValue.lexicographicallyPrecedes(rightValue) }
                left = left.dropFirst(leftDigits.count)
                right = right.dropFirst(rightDigits.count)
                continue
            }
            let (leftKey, rightKey) = (key(a), key(b))
            if leftKey != rightKey { return leftKey < rightKey }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty }
        return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// Class first (punctuation and symbols, digits, letters), then the lowercased scalar.
    private static func key(_ scalar: Unicode.Scalar) -> (Int, UInt32) {
        let lowered = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
        let rank = scalar.properties.isAlphabetic ? 2 : isDigit(scalar) ? 1 : 0
        return (rank, lowered.value)
    }
}
