/// Formant targets of a vowel for `VoiceSynthesizer` (adult male averages, Peterson & Barney 1952).
package struct Vowel: Sendable, Equatable {
    /// IPA-ish name, e.g. "a".
    package let name: String
    /// First three formant frequencies in Hz.
    package let formants: (Double, Double, Double)

    /// The vowel set the synthesizer draws from.
    package static let all: [Vowel] = [
        Vowel(name: "a", formants: (730, 1090, 2440)),
        Vowel(name: "ɛ", formants: (530, 1840, 2480)),
        Vowel(name: "i", formants: (270, 2290, 3010)),
        Vowel(name: "ɔ", formants: (570, 840, 2410)),
        Vowel(name: "u", formants: (300, 870, 2240)),
        Vowel(name: "æ", formants: (660, 1720, 2410)),
        Vowel(name: "ʌ", formants: (640, 1190, 2390)),
        Vowel(name: "ə", formants: (500, 1500, 2500)),
    ]

    /// Formants of a nasal murmur (m, n), used for voiced syllable onsets.
    package static let nasal = Vowel(name: "n", formants: (250, 1200, 2300))

    /// Formant bandwidths in Hz (fixed; wide enough to sound smooth at every sample rate).
    package static let bandwidths = (80.0, 110.0, 160.0)

    /// Creates a vowel.
    package init(name: String, formants: (Double, Double, Double)) {
        self.name = name
        self.formants = formants
    }

    /// Formants interpolated from `self` to `other` by `t` (0…1).
    package func formants(towards other: Vowel, _ t: Double) -> (Double, Double, Double) {
        (
            formants.0 + (other.formants.0 - formants.0) * t,
            formants.1 + (other.formants.1 - formants.1) * t,
            formants.2 + (other.formants.2 - formants.2) * t
        )
    }

    /// Equality by name and formants (tuples are not `Equatable`).
    package static func == (lhs: Vowel, rhs: Vowel) -> Bool {
        lhs.name == rhs.name && lhs.formants == rhs.formants
    }
}
