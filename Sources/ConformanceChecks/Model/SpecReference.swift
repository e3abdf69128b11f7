import ProtocolModel
import WireJSON

/// Where a case's requirement comes from: a document of the suite, its section, the level
/// and the normative sentence itself (kept beside the case, never duplicated in code).
package struct SpecReference: Sendable, Hashable {
    /// The spec document key (`multimodal-dialog`, `qwen-realtime`), listed in `suite.json`.
    package var doc: String
    /// The section the sentence sits in (e.g. `12. CLIENT OBLIGATIONS`).
    package var section: String
    /// MUST, SHOULD or MAY.
    package var level: RequirementLevel
    /// The short normative sentence.
    package var quote: String

    /// Creates a reference.
    package init(doc: String, section: String, level: RequirementLevel, quote: String) {
        self.doc = doc
        self.section = section
        self.level = level
        self.quote = quote
    }
}
