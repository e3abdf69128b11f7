import ScenarioEngine

/// What an answer round says.
enum RoundContent: Sendable, Hashable {
    /// A scripted turn (after speech or a prompt): Thinking first.
    case scripted(TurnContent)
    /// RequestToRespond `transcript`: the given text spoken verbatim, straight to Responding.
    case transcript(String)
    /// The short phrase of a video connect/exit round (S13), straight to Responding.
    case video(phrase: String, connect: Bool)

    /// Display text, spoken text, audio, commands and errors of the round.
    var parts: (text: String, spoken: String, audio: TurnContent.Audio, commands: TurnContent?, errors: [ErrorSpec]) {
        switch self {
        case .scripted(let turn): (turn.answer, turn.spoken, turn.audio, turn, turn.errors)
        case .transcript(let text): (text, text, .synthesized(rate: 1), nil, [])
        case .video(let phrase, _): (phrase, phrase, .synthesized(rate: 1), nil, [])
        }
    }

    /// Whether the round starts with Thinking (and the scenario's response pause).
    var thinksFirst: Bool {
        if case .scripted = self { return true }
        return false
    }
}
