package import AnswerAudio
package import ScenarioEngine

/// What an engine is told of a WebSocket upgrade on its path.
package struct UpgradeRequest: Sendable {
    /// The request path, query included or not (engines ignore it).
    package var path: String
    /// Request headers, names lower-cased.
    package var headers: [String: String]
    /// The query parameters, first value of each name.
    package var query: [String: String]

    package init(path: String, headers: [String: String], query: [String: String]) {
        self.path = path
        self.headers = headers
        self.query = query
    }
}

/// The server's settings every engine's sessions share.
package struct EngineSettings: Sendable {
    /// Accepted API keys; empty accepts any non-empty credential.
    package var apiKeys: [String]
    /// Where relative audio files of a scenario are looked up (the scenario's folder).
    package var baseDirectory: String
    /// The server-wide cache of rendered answer audio.
    package var answerAudio: AnswerAudioCache

    package init(apiKeys: [String], baseDirectory: String, answerAudio: AnswerAudioCache) {
        self.apiKeys = apiKeys
        self.baseDirectory = baseDirectory
        self.answerAudio = answerAudio
    }
}

/// One protocol's engine as the server's router sees it: S1 (which upgrades it accepts) and the
/// session it opens. One conforming type per engine module; the server registers each in one
/// exhaustive `switch` over ``DialogProtocol``.
package protocol ProtocolSessionFactory {
    associatedtype Clock: ScenarioClock
    /// What an accepted upgrade hands on to the session (a profile, a model, notes).
    associatedtype Acceptance: Sendable & Hashable
    associatedtype Session: ProtocolSession where Session.Clock == Clock

    /// Checks an upgrade request (S1 of the protocol): path, credentials, parameters.
    func checkUpgrade(_ request: UpgradeRequest) -> UpgradeVerdict<Acceptance>
    /// Opens the session of an accepted upgrade on `scenario`.
    func makeSession(scenario: ScenarioBridge<Clock>, accepted: Acceptance) -> Session
    /// What the journal notes first of an accepted upgrade (e.g. a credential without `Bearer `).
    func openingNotes(_ accepted: Acceptance) -> [JournalNote]
}

extension ProtocolSessionFactory {
    package func openingNotes(_ accepted: Acceptance) -> [JournalNote] { [] }
}
