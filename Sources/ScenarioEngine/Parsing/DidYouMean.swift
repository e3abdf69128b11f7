/// Suggests the closest known name for a mistyped key (Levenshtein distance).
enum DidYouMean {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo:
    /// at most a third of the word's length in edits (and at least one), or a case-only change.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        if let sameIgnoringCase = candidates.first(where: { $0.lowercased() == lowered }) {
            return sameIgnoringCase
        }
        let limit = max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The number of single-character insertions, deletions and substitutions (and adjacent
    /// transpositions) turning `a` into `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let left = Array(a)
        let right = Array(b)
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var previousPrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[right.count]
    }
}
