package import SessionCore

/// Every violation the engine journals starts with its level, `MUST: ` or `SHOULD: `, so that
/// one obligation id can carry both (e.g. mmd.C11: the MUST 20 s gap and the SHOULD pause after
/// SpeechEnded) and a case's `serverViolations` check can select one level with `message`.
extension JournalNote {
    /// A MUST-level violation (`MUST: ` + message).
    package static func must(_ obligation: String, _ message: String) -> JournalNote {
        .violation(obligation: obligation, message: "MUST: \(message)")
    }

    /// A SHOULD-level violation (`SHOULD: ` + message).
    package static func should(_ obligation: String, _ message: String) -> JournalNote {
        .violation(obligation: obligation, message: "SHOULD: \(message)")
    }
}

/// The level of a journaled violation.
enum ViolationLevel { case must, should }
