import ScenarioEngine

/// A speech segment the VAD is following: its classification, its item, and the scripted
/// content (transcript and answer) it was given at its start.
struct UserTurn: Sendable {
    /// smart_turn classification (always `.valid` under server_vad / semantic_vad).
    var intent: TurnContent.Intent
    /// The user item id (`item_…`), or the temporary ambient id for fillers.
    var itemID: String
    /// The scripted content of this turn.
    var content: TurnContent {
        didSet { tokens = Tokenizer.tokens(of: content.transcript, rule: .auto) }
    }
    /// Stream position of the reported speech start (ms from the first appended sample).
    var startMs: Int
    /// Input transcription deltas sent while the user speaks.
    var deltasSent = 0

    /// Transcript tokens of the scripted user words (tokenized once: progress is checked on
    /// every appended chunk).
    private(set) var tokens: [String]

    init(intent: TurnContent.Intent, itemID: String, content: TurnContent, startMs: Int) {
        self.intent = intent
        self.itemID = itemID
        self.content = content
        self.startMs = startMs
        tokens = Tokenizer.tokens(of: content.transcript, rule: .auto)
    }
}
