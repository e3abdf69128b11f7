/// A user utterance being recognised (tap2talk/duplex VAD, or a push2talk bracket).
struct Utterance: Sendable, Hashable {
    /// The round number its answer will carry.
    var round: Int
    /// Where speech started in the uplink, in ms of audio.
    var startMs: Int
    /// The scripted transcript's tokens, revealed progressively in partial SpeechContent.
    var tokens: [String]
    /// How many tokens partials have revealed so far.
    var revealed = 0
    /// Audio received inside a push2talk bracket, in ms.
    var bracketAudioMs = 0
}
