import WireJSON

/// Finds the known name closest to a mistyped one, for "did you mean" hints.
enum NameSuggester {
    /// The largest edit distance still worth suggesting.
    static let maximumDistance = 2

    /// The candidate with the smallest edit distance to `typed`, if it is within
    /// `maximumDistance`; ties go to the earlier candidate.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = typed.editDistance(to: candidate)
            if distance <= maximumDistance, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }
}
