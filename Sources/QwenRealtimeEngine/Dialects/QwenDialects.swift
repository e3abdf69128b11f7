package import ProtocolModel

/// The registry of Qwen realtime dialects: the one list a dialect is registered in. Model →
/// dialect routing goes through it, first match wins.
package struct QwenDialects: Sendable {
    /// The registered dialects in routing order.
    package let all: [any QwenDialect]

    /// A registry of `dialects` (tests add their own to the standard ones).
    package init(_ dialects: [any QwenDialect]) {
        all = dialects
    }

    /// The dialects the mock serves.
    package static let standard = QwenDialects([
        AudioDialect(), TextToSpeechDialect(), TranscriptionDialect(), OmniDialect(), AudioLiveDialect(),
    ])

    /// The dialect serving `model` (any case), or nil for a model of no registered family.
    package func dialect(forModel model: String) -> (any QwenDialect)? {
        let name = model.lowercased()
        return all.first { $0.serves(model: name) }
    }

    /// The dialect named `profile`, or nil when none is registered under that name.
    package func dialect(named profile: QwenProfile) -> (any QwenDialect)? {
        all.first { $0.profile == profile }
    }

    /// Whether some registered dialect defines `event`.
    package func defines(_ event: QwenClientEvent) -> Bool {
        all.contains { $0.clientEventTypes.contains(event) }
    }

    /// The model families served, for refusals.
    package var servedModels: String {
        all.map(\.servedModels).joined(separator: ", ")
    }
}
