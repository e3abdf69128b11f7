import WireJSON

/// Suggests the closest known name for a mistyped key (edit distance, an adjacent swap counting as one edit).
package enum DidYouMean {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo:
    /// at most a third of the word's length in edits (and at least one), or a case-only change.
    package static func suggestion(for word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        if let sameIgnoringCase = candidates.first(where: { $0.lowercased() == lowered }) {
            return sameIgnoringCase
        }
        let limit = max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = lowered.editDistance(to: candidate.lowercased(), countingTranspositions: true)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }
}
