/// The name of a Qwen realtime dialect (``QwenDialect``) sharing one protocol (spec §0), chosen
/// from the model name in the upgrade URL. Each dialect declares its own name in its folder
/// (`QwenProfile.omni` in `Dialects/Omni/`); the raw value is the name reports use.
package struct QwenProfile: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The profile of `model` among the standard dialects, or `nil` for a model of no family.
    package init?(model: String) {
        guard let dialect = QwenDialects.standard.dialect(forModel: model) else { return nil }
        self = dialect.profile
    }

    /// The model families the realtime route serves, for refusals.
    package static var servedModels: String { QwenDialects.standard.servedModels }

    package var description: String { rawValue }
}
