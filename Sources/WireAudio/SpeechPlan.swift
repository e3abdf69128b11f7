/// The timing skeleton of synthetic speech: text → syllables, word gaps and phrase pauses.
///
/// Syllable counting: in a Latin-script word each run of vowel letters (a e i o u y) is one
/// syllable (at least one per word; a final consonant + "e" is silent); each digit is one syllable; every other letter-like
/// character outside ASCII (CJK ideographs, kana, hangul …) is one syllable, as in Mandarin.
/// Timing at `rate` 1.0: 250 ms per syllable (4 syllables/s), 60 ms between words, 250 ms at
/// `, . ! ? ; :` and their full-width forms. All durations scale by 1/rate. There is no leading
/// or trailing silence, so `duration` is the length of the rendered audio.
package struct SpeechPlan: Sendable, Equatable {
    /// One element of the plan.
    package enum Segment: Sendable, Equatable {
        /// A syllable of `seconds`; `index` counts syllables from 0, `wordFinal` marks a word end.
        case syllable(seconds: Double, index: Int, wordFinal: Bool)
        /// Silence of `seconds`.
        case pause(seconds: Double)
    }

    /// Seconds per syllable at rate 1.
    package static let syllableSeconds = 0.25
    /// Seconds between words at rate 1.
    package static let wordGapSeconds = 0.06
    /// Seconds at punctuation at rate 1.
    package static let phrasePauseSeconds = 0.25

    /// The segments in order.
    package let segments: [Segment]

    /// Plans `text` at `rate` (speech-rate factor, 0.25…4; 1 = normal).
    package init(text: String, rate: Double = 1) {
        let rate = min(max(rate, 0.25), 4)
        var segments: [Segment] = []
        var index = 0
        for (word, pauseAfter) in Self.words(text) {
            let count = Self.syllableCount(word)
            for position in 0..<count {
                segments.append(
                    .syllable(seconds: Self.syllableSeconds / rate, index: index, wordFinal: position == count - 1))
                index += 1
            }
            if count > 0 {
                segments.append(.pause(seconds: (pauseAfter ? Self.phrasePauseSeconds : Self.wordGapSeconds) / rate))
            }
        }
        if case .pause = segments.last { segments.removeLast() }
        self.segments = segments
    }

    /// Number of syllables.
    package var syllableCount: Int {
        segments.reduce(0) { if case .syllable = $1 { $0 + 1 } else { $0 } }
    }

    /// Total duration in seconds.
    package var duration: Double {
        segments.reduce(0) { total, segment in
            switch segment {
            case .syllable(let seconds, _, _), .pause(let seconds): total + seconds
            }
        }
    }

    /// Syllables in one word, by the rules in the type's notes.
    package static func syllableCount(_ word: Substring) -> Int {
        var count = 0
        var latinLetters = 0
        var inVowel = false
        for character in word.lowercased() {
            if character.isASCII {
                if character.isNumber { count += 1 }
                guard character.isLetter else {
                    inVowel = false
                    continue
                }
                latinLetters += 1
                let vowel = "aeiouy".contains(character)
                if vowel, !inVowel { count += 1 }
                inVowel = vowel
            } else if character.isLetter || character.isNumber {
                count += 1
                inVowel = false
            }
        }
        let lower = word.lowercased()
        if count > 1, lower.hasSuffix("e"), let before = lower.dropLast().last, !"aeiouy".contains(before) {
            count -= 1  // silent final e: "like", "time"
        }
        return count == 0 && latinLetters > 0 ? 1 : count
    }

    private static let phraseMarks: Set<Character> = [",", ".", "!", "?", ";", ":", "，", "。", "！", "？", "；", "：", "、"]

    /// Words with a flag "followed by phrase punctuation". CJK text without spaces is one word.
    private static func words(_ text: String) -> [(Substring, Bool)] {
        var result: [(Substring, Bool)] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace || phraseMarks.contains(character) {
                if start < index { result.append((text[start..<index], false)) }
                if phraseMarks.contains(character), !result.isEmpty { result[result.count - 1].1 = true }
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        if start < text.endIndex { result.append((text[start...], false)) }
        return result
    }
}
