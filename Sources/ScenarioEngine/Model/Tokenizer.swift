/// Splits answer text into streaming tokens and estimates how long it takes to say.
package enum Tokenizer {
    /// Tokens of `text` that concatenate back to `text` exactly.
    package static func tokens(of text: String, rule: TextCadence.Tokenization) -> [String] {
        switch rule {
        case .characters:
            return text.map { String($0) }
        case .words, .auto:
            var tokens: [String] = []
            var current = ""
            var inTrailingSpace = false
            for character in text {
                let isSpace = character.isWhitespace
                let splitsAlone = rule == .auto && isCJK(character)
                if splitsAlone || (inTrailingSpace && !isSpace) {
                    if !current.isEmpty { tokens.append(current) }
                    current = ""
                    inTrailingSpace = false
                }
                current.append(character)
                if splitsAlone {
                    tokens.append(current)
                    current = ""
                } else if isSpace {
                    inTrailingSpace = true
                }
            }
            if !current.isEmpty { tokens.append(current) }
            return tokens
        }
    }

    /// Whether `character` belongs to a script written without spaces (CJK ideographs,
    /// kana, hangul, CJK punctuation and full-width forms).
    package static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3000...0x303F, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x2FA1F:
            return true
        default:
            return false
        }
    }

    /// Speaking time of `text` at `rate` (1.0 = normal): 380 ms per word, 230 ms per CJK
    /// character, 250 ms extra per sentence or clause break; at least 300 ms for non-empty text.
    /// These are typical conversational TTS rates (≈ 160 words or ≈ 260 characters a minute).
    package static func speakingDurationMicros(of text: String, rate: Double) -> Int64 {
        var words = 0
        var cjk = 0
        var pauses = 0
        var inWord = false
        for character in text {
            if isCJK(character) {
                if "，。！？；：、".contains(character) { pauses += 1 } else { cjk += 1 }
                inWord = false
            } else if character.isLetter || character.isNumber || (inWord && (character == "'" || character == "’")) {
                if !inWord { words += 1 }
                inWord = true
            } else {
                if ",.!?;:".contains(character) { pauses += 1 }
                inWord = false
            }
        }
        guard words + cjk > 0 else { return 0 }
        let ms = Double(words) * 380 + Double(cjk) * 230 + Double(pauses) * 250
        return Int64((max(300, ms) / max(rate, 0.01) * 1000).rounded())
    }
}
