/// The order reports list case ids and obligations in, as Foundation's
/// `localizedStandardCompare` (ICU's root collation, numeric) sorted them, without ICU: runs of
/// digits compare by value (`C2` before `C10`), letters case-insensitively, and punctuation
/// (in ICU's order) sorts before digits, which sort before letters. Strings equal by these rules
/// are told apart by their first other difference: fewer leading zeros, then lowercase, first.
package enum NaturalOrder {
    /// Whether `lhs` sorts before `rhs`.
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var left = Array(lhs.unicodeScalars)[...]
        var right = Array(rhs.unicodeScalars)[...]
        var tieBreak: Bool?
        while let a = left.first, let b = right.first {
            if isDigit(a) && isDigit(b) {
                let leftDigits = left.prefix(while: isDigit)
                let rightDigits = right.prefix(while: isDigit)
                let leftValue = leftDigits.drop { $0 == "0" }
                let rightValue = rightDigits.drop { $0 == "0" }
                if leftValue.count != rightValue.count { return leftValue.count < rightValue.count }
                if !leftValue.elementsEqual(rightValue) { return leftValue.lexicographicallyPrecedes(rightValue) }
                if tieBreak == nil, leftDigits.count != rightDigits.count {
                    tieBreak = leftDigits.count < rightDigits.count
                }
                left = left.dropFirst(leftDigits.count)
                right = right.dropFirst(rightDigits.count)
                continue
            }
            let (leftKey, rightKey) = (key(a), key(b))
            if leftKey != rightKey { return leftKey < rightKey }
            if tieBreak == nil, a != b { tieBreak = a.properties.isLowercase }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty }
        return tieBreak ?? false
    }

    /// ICU's root order of the ASCII spaces, punctuation and symbols.
    private static let punctuation = Array("\t\n\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".unicodeScalars)

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// Class first (spaces, punctuation and symbols; digits; letters and the rest), then the
    /// punctuation's rank or the lowercased scalar.
    private static func key(_ scalar: Unicode.Scalar) -> (Int, UInt32) {
        if let rank = punctuation.firstIndex(of: scalar) { return (0, UInt32(rank)) }
        if isDigit(scalar) { return (1, scalar.value) }
        let lowered = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
        return (scalar.properties.isAlphabetic ? 2 : 0, lowered.value)
    }
}
