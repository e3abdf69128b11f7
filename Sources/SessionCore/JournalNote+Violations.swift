package import ProtocolModel
import ScenarioEngine

/// Every violation an engine journals carries its level (``Violation/Level``).
extension JournalNote {
    /// A broken client obligation at `level`.
    package static func violation(_ obligation: String, _ level: Violation.Level, _ message: String) -> JournalNote {
        .violation(obligation: obligation, message: level.prefix + message)
    }

    /// A MUST-level violation (`MUST: ` + message).
    package static func must(_ obligation: String, _ message: String) -> JournalNote {
        violation(obligation, .must, message)
    }

    /// A SHOULD-level violation (`SHOULD: ` + message).
    package static func should(_ obligation: String, _ message: String) -> JournalNote {
        violation(obligation, .should, message)
    }
}
