/// The draft 2020-12 vocabularies a schema resource uses, from its metaschema's `$vocabulary`.
/// Core is always on; a metaschema without `$vocabulary` (or an unknown one) enables them all.
struct Vocabularies: OptionSet, Sendable, Hashable {
    let rawValue: Int

    static let applicator = Vocabularies(rawValue: 1 << 0)
    static let unevaluated = Vocabularies(rawValue: 1 << 1)
    static let validation = Vocabularies(rawValue: 1 << 2)
    static let formatAssertion = Vocabularies(rawValue: 1 << 3)

    /// What a schema without `$schema` (or with the standard metaschema) gets.
    static let standard: Vocabularies = [.applicator, .unevaluated, .validation]

    private static let prefix = "https://json-schema.org/draft/2020-12/vocab/"

    /// The vocabularies a `$vocabulary` object names. Known vocabularies are used whether they
    /// are required (`true`) or optional (`false`), except format-assertion, which only asserts
    /// when required; unknown optional vocabularies are ignored.
    init(vocabularyObject: [(key: String, value: Bool)]) {
        var set: Vocabularies = []
        for (uri, required) in vocabularyObject {
            switch uri {
            case Self.prefix + "applicator": set.insert(.applicator)
            case Self.prefix + "unevaluated": set.insert(.unevaluated)
            case Self.prefix + "validation": set.insert(.validation)
            case Self.prefix + "format-assertion" where required: set.insert(.formatAssertion)
            default: break
            }
        }
        self = set
    }

    init(rawValue: Int) { self.rawValue = rawValue }
}
