package import ConformanceChecks
import Glibc

/// Selects cases by id globs (`fnmatch`), exclusions and shard.
package enum CaseSelector {
    package static func matches(_ id: String, _ pattern: String) -> Bool {
        fnmatch(pattern, id, 0) == 0 || fnmatch(pattern, String(id.split(separator: "/")[0]), 0) == 0
    }

    /// The selected cases in suite order, and the ones left out (reported as skipped).
    package static func select(
        _ cases: [ConformanceCase], includes: [String], excludes: [String],
        shard: (index: Int, count: Int)?
    ) -> (selected: [ConformanceCase], skipped: [ConformanceCase]) {
        var selected: [ConformanceCase] = []
        var skipped: [ConformanceCase] = []
        for candidate in cases {
            let included = includes.isEmpty || includes.contains { matches(candidate.id, $0) }
            let excluded = excludes.contains { matches(candidate.id, $0) }
            if included && !excluded { selected.append(candidate) } else { skipped.append(candidate) }
        }
        if let shard {
            let chosen = selected.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
            let chosenIDs = Set(chosen.map(\.id))
            skipped += selected.filter { !chosenIDs.contains($0.id) }
            selected = chosen
        }
        return (selected, skipped)
    }
}
