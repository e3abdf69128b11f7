/// Checks that a text message is UTF-8 (RFC 3629: no overlong forms, surrogates or code points
/// past U+10FFFF) as its chunks arrive, so a bad byte fails the connection at once (RFC 6455
/// §8.1, Autobahn's fail-fast cases) and a sequence split across chunks or fragments is fine.
/// ASCII runs, all of a JSON event but non-English text, are checked 16 bytes at a time.
struct UTF8Validator {
    /// Continuation bytes the current sequence still needs.
    private var needed = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0 and F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// False when `bytes` cannot continue valid UTF-8.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            if needed == 0 {
                while index + 16 <= count,
                    (base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        | base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)) & 0x8080_8080_8080_8080 == 0
                {
                    index += 16
                }
                while index + 8 <= count,
                    base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                guard index < count else { break }
            }
            let byte = bytes[index]
            index += 1
            if needed > 0 {
                guard byte >= lower && byte <= upper else { return false }
                needed -= 1
                lower = 0x80
                upper = 0xBF
                continue
            }
            switch byte {
            case 0x00...0x7F: break
            case 0xC2...0xDF: needed = 1
            case 0xE0:
                needed = 2
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: needed = 2
            case 0xED:
                needed = 2
                upper = 0x9F
            case 0xF0:
                needed = 3
                lower = 0x90
            case 0xF1...0xF3: needed = 3
            case 0xF4:
                needed = 3
                upper = 0x8F
            default: return false
            }
        }
        return true
    }

    /// At the end of a message: true when no sequence is left unfinished. Resets for the next one.
    mutating func finish() -> Bool {
        defer { self = UTF8Validator() }
        return needed == 0
    }
}
