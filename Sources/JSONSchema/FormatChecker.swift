internal import Glibc

/// Checks for the `format` values of draft 2020-12, used only when format assertion is on
/// (a validator option, or a metaschema that requires the format-assertion vocabulary).
///
/// Formats without a checker here (`iri`, `idn-hostname`, `uri-template`, ...) always pass, as
/// the specification allows for unknown formats.
enum FormatChecker {
    /// Whether `text` is a valid `format`; `nil` for a format this checker does not know.
    static func check(_ format: String, _ text: String) -> Bool? {
        switch format {
        case "date": isDate(Substring(text))
        case "time": isTime(Substring(text))
        case "date-time": isDateTime(text)
        case "duration": isDuration(text)
        case "email": isEmail(text)
        case "hostname": isHostname(text)
        case "ipv4": isIP(text, family: AF_INET)
        case "ipv6": isIP(text, family: AF_INET6)
        case "uuid": isUUID(text)
        case "uri": isURI(text, requireScheme: true)
        case "uri-reference": isURI(text, requireScheme: false)
        case "json-pointer": (try? JSONPointerSyntax.check(text)) != nil
        case "relative-json-pointer": isRelativeJSONPointer(text)
        case "regex": ECMARegex(text) != nil
        default: nil
        }
    }

    // MARK: - RFC 3339

    private static func digits(_ text: Substring, _ count: Int) -> Int? {
        guard text.count == count, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }

    static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = digits(parts[0], 4), let month = digits(parts[1], 2),
            let day = digits(parts[2], 2), (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    /// `HH:MM:SS[.frac](Z|±HH:MM)`; second 60 only where the UTC time is 23:59.
    static func isTime(_ text: Substring) -> Bool {
        guard text.count >= 9 else { return false }
        var rest = text
        let clock = rest.prefix(8)
        rest = rest.dropFirst(8)
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let hour = digits(fields[0], 2), let minute = digits(fields[1], 2),
            let second = digits(fields[2], 2), hour < 24, minute < 60, second <= 60
        else { return false }
        if rest.first == "." {
            let fraction = rest.dropFirst().prefix(while: \.isASCII).prefix(while: \.isNumber)
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(1 + fraction.count)
        }
        var offsetMinutes = 0
        if rest == "Z" || rest == "z" {
            offsetMinutes = 0
        } else {
            guard rest.count == 6, let sign = rest.first, sign == "+" || sign == "-" else { return false }
            let offset = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard offset.count == 2, let offsetHour = digits(offset[0], 2), let offsetMinute = digits(offset[1], 2),
                offsetHour < 24, offsetMinute < 60
            else { return false }
            offsetMinutes = (sign == "+" ? 1 : -1) * (offsetHour * 60 + offsetMinute)
        }
        guard second == 60 else { return true }
        let utcMinutes = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
        return utcMinutes == 23 * 60 + 59
    }

    static func isDateTime(_ text: String) -> Bool {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
        return isDate(text[..<separator]) && isTime(text[text.index(after: separator)...])
    }

    /// ISO 8601 durations as RFC 3339 appendix A writes them: `P1Y2M3DT4H5M6S` or `P2W`.
    static func isDuration(_ text: String) -> Bool {
        guard text.hasPrefix("P"), text.count > 1 else { return false }
        let body = text.dropFirst()
        if body.hasSuffix("W") { return digits(body.dropLast(), body.count - 1) != nil }
        let halves = body.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard units(halves[0], allowed: "YMD") else { return false }
        if halves.count == 2 { return !halves[1].isEmpty && units(halves[1], allowed: "HMS") }
        return !halves[0].isEmpty
    }

    /// `n<unit>` groups in the order of `allowed`, each unit at most once.
    private static func units(_ text: Substring, allowed: String) -> Bool {
        var remaining = Substring(allowed)
        var number = 0
        for character in text {
            if character.isASCII, character.isNumber {
                number += 1
            } else {
                guard number > 0, let index = remaining.firstIndex(of: character) else { return false }
                remaining = remaining[remaining.index(after: index)...]
                number = 0
            }
        }
        return number == 0
    }

    // MARK: - Internet names and addresses

    static func isEmail(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        let atext = Set(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".unicodeScalars)
        let localValid: Bool
        if local.hasPrefix("\""), local.hasSuffix("\""), local.count >= 2 {
            localValid = true
        } else {
            let atoms = local.split(separator: ".", omittingEmptySubsequences: false)
            localValid = atoms.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { atext.contains($0) } }
        }
        guard localValid else { return false }
        if domain.hasPrefix("["), domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            if literal.hasPrefix("IPv6:") { return isIP(String(literal.dropFirst(5)), family: AF_INET6) }
            return isIP(String(literal), family: AF_INET)
        }
        return isHostname(String(domain))
    }

    static func isHostname(_ text: String) -> Bool {
        let name = text.hasSuffix(".") ? String(text.dropLast()) : text
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            label.utf8.count >= 1 && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                }
        }
    }

    static func isIP(_ text: String, family: Int32) -> Bool {
        guard text.unicodeScalars.allSatisfy(\.isASCII), !text.contains("%") else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    // MARK: - References and pointers

    /// RFC 3986 characters, valid percent escapes and (for `uri`) a scheme.
    static func isURI(_ text: String, requireScheme: Bool) -> Bool {
        let allowed = Set(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%".unicodeScalars)
        guard text.unicodeScalars.allSatisfy({ allowed.contains($0) }) else { return false }
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
        }
        let reference = URIReference(parsing: text)
        if requireScheme {
            guard let scheme = reference.scheme, scheme.first?.isLetter == true,
                scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
            else { return false }
        }
        // Brackets belong to IP literals in the authority; `#` may appear once.
        let outsideAuthority = [reference.path, reference.query ?? "", reference.fragment ?? ""]
        return !outsideAuthority.contains { $0.contains("[") || $0.contains("]") }
            && !(reference.fragment?.contains("#") ?? false)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    static func isRelativeJSONPointer(_ text: String) -> Bool {
        let number = text.prefix(while: { $0.isASCII && $0.isNumber })
        guard !number.isEmpty, number == "0" || !number.hasPrefix("0") else { return false }
        let rest = text.dropFirst(number.count)
        return rest == "#" || (try? JSONPointerSyntax.check(String(rest))) != nil
    }
}

/// JSON Pointer syntax (RFC 6901): empty, or `/`-separated tokens whose `~` is `~0` or `~1`.
enum JSONPointerSyntax {
    struct Invalid: Error {}

    static func check(_ text: String) throws(Invalid) {
        guard text.isEmpty || text.hasPrefix("/") else { throw Invalid() }
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else { continue }
            guard let next = iterator.next(), next == "0" || next == "1" else { throw Invalid() }
        }
    }
}
