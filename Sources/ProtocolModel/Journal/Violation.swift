/// A client deviation from the protocol noticed by the server (not an error of the mock).
///
/// The requirement level travels in the message: engines journal `MUST: …` or `SHOULD: …`
/// (``Level/prefix``), so one obligation id can carry both levels (mmd.C11: the MUST 20 s gap
/// and the SHOULD pause after SpeechEnded) and a case's `serverViolations` check can select one
/// level by `message`. A message without a prefix (journals recorded before levels) is a MUST.
package struct Violation: Sendable, Hashable {
    /// The level of the broken requirement.
    package enum Level: String, Sendable, Hashable {
        case must = "MUST"
        case should = "SHOULD"

        /// What a journaled message starts with at this level.
        package var prefix: String { rawValue + ": " }
    }

    /// Obligation id from the specs, e.g. `mmd.C8`, `qrt.C11`.
    package var obligation: String
    /// What the client did, starting with the level's prefix.
    package var message: String

    /// Creates a violation record from a journaled message.
    package init(obligation: String, message: String) {
        self.obligation = obligation
        self.message = message
    }

    /// Creates a violation record at `level` (the message gets the level's prefix).
    package init(obligation: String, level: Level, _ text: String) {
        self.init(obligation: obligation, message: level.prefix + text)
    }

    /// The level the message names (MUST when it names none).
    package var level: Level {
        message.hasPrefix(Level.should.prefix) ? .should : .must
    }
}
