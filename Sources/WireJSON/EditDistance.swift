extension String {
    /// The package's one edit distance, for "did you mean" hints: the number of single-character
    /// insertions, deletions and substitutions turning `self` into `other` (Levenshtein), counted
    /// in characters. With `countingTranspositions`, swapping two adjacent characters is one edit
    /// too (optimal string alignment).
    package func editDistance(to other: String, countingTranspositions: Bool = false) -> Int {
        let left = Array(self)
        let right = Array(other)
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        // Three rolling rows of the dynamic-programming table are enough (two without transpositions).
        var previousPrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if countingTranspositions, i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    current[j] = Swift.min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[right.count]
    }
}
