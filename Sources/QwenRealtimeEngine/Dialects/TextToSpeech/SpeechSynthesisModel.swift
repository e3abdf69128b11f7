/// A Qwen-TTS-Realtime model of the realtime route (protocol reference §8.12): its family, the
/// system voices it accepts and what its session may set.
package struct SpeechSynthesisModel: Sendable, Hashable {
    /// The model families, which differ in voices, formats, knobs and usage.
    package enum Family: Sendable, Hashable {
        /// `qwen-tts-realtime`, `-latest`, `-2025-07-15`: pcm 24 kHz only, token usage.
        case qwenTTS
        /// `qwen3-tts-flash-realtime` and its dated snapshots: `usage.characters`.
        case flash
        /// `qwen3-tts-instruct-flash-realtime*`: as flash, plus `instructions`.
        case instruct
    }

    /// The family of the model.
    package let family: Family
    /// The lower-cased model name.
    package let name: String

    /// The model of `model` (any case), or nil for a name of no TTS family. Voice cloning and
    /// voice design models (`qwen3-tts-vc-…`, `qwen3-tts-vd-…`) speak custom voices only and
    /// are not emulated.
    package init?(model: String) {
        let name = model.lowercased()
        func named(_ base: String) -> Bool {
            name == base || (name.hasPrefix(base + "-") && name.count > base.count + 1)
        }
        if named("qwen-tts-realtime") {
            family = .qwenTTS
        } else if named("qwen3-tts-flash-realtime") {
            family = .flash
        } else if named("qwen3-tts-instruct-flash-realtime") {
            family = .instruct
        } else {
            return nil
        }
        self.name = name
    }

    /// The documented default voice of every family.
    package static let defaultVoice = "Cherry"

    /// Whether `instructions` and `optimize_instructions` may be set (instruct models only).
    package var acceptsInstructions: Bool { family == .instruct }

    /// Whether `usage` counts billable characters (qwen3 models) rather than tokens.
    package var billsCharacters: Bool { family != .qwenTTS }

    /// The system voices of the model's voice table.
    package var voices: Set<String> {
        switch family {
        case .qwenTTS: Self.qwenTTSVoices
        case .flash where name.hasSuffix("-2025-09-18"): Self.flashVoices
        case .flash, .instruct: Self.flashVoices.union(Self.laterFlashVoices)
        }
    }

    /// qwen-tts-realtime: the four voices of its voice table, plus the three dialect voices its
    /// later pages count ("7 voices") without naming them.
    private static let qwenTTSVoices: Set<String> = ["Cherry", "Serena", "Ethan", "Chelsie", "Dylan", "Jada", "Sunny"]

    /// qwen3-tts-flash-realtime-2025-09-18 (17 voices).
    private static let flashVoices: Set<String> = [
        "Cherry", "Ethan", "Nofish", "Jennifer", "Ryan", "Katerina", "Elias", "Jada", "Dylan", "Li", "Marcus", "Roy",
        "Peter", "Sunny", "Eric", "Rocky", "Kiki",
    ]

    /// The voices qwen3-tts-flash-realtime gained with its 2025-11-27 snapshot.
    private static let laterFlashVoices: Set<String> = [
        "Serena", "Chelsie", "Momo", "Vivian", "Moon", "Maia", "Kai", "Bella", "Aiden", "Eldric Sage", "Mia", "Mochi",
        "Bellona", "Vincent", "Bunny", "Neil", "Arthur", "Nini", "Ebona", "Seren", "Pip", "Stella", "Bodega",
        "Sonrisa", "Alek", "Dolce", "Sohee", "Ono Anna", "Lenn", "Emilien", "Andre", "Radio Gol",
    ]
}
