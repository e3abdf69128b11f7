import Testing

@testable import BenchmarkCLI

/// The soak's flatness verdict on synthetic round ends: a fault scenario's own high-water is
/// compared with itself, steady growth fails; a descriptor more is not a leak, a handful is.
@Suite struct SoakVerdictTests {
    static let scenarios = ["quick", "fragment", "drop"]

    /// Rounds rotating over `scenarios` with the given round-end RSS (and descriptors).
    static func report(rss: [Int], descriptors: [Int]? = nil, warmup: Int = 3) -> SoakReport {
        let rounds = rss.indices.map { index in
            var round = SoakBench.Round(index: index, scenario: scenarios[index % scenarios.count])
            round.sessions = 4
            round.framesUp = 10
            round.journalIn = 10
            return round
        }
        let ends = rss.indices.map {
            SoakBench.Sample(seconds: Double($0), rssKB: rss[$0], descriptors: descriptors?[$0] ?? 13)
        }
        return SoakReport(
            sessions: 4, duration: 60, roundSeconds: 10, rounds: rounds, roundEnds: ends, warmupRounds: warmup,
            timeline: [], serverExit: "exit 0")
    }

    @Test func eachScenarioIsComparedWithItself() {
        // Warm-up rotation, then quick 100k, fragment 140k (its own backlog), drop 100k, twice.
        let report = Self.report(rss: [90_000, 120_000, 95_000, 100_000, 140_000, 100_000, 100_500, 140_200, 100_300])
        #expect(report.drift(\.rssKB).map { $0.growth > 0.05 } == true)  // the old all-rounds rule fails this
        #expect(report.scenarioDrifts.map(\.scenario) == ["quick", "fragment", "drop"])
        #expect(report.scenarioDrifts.allSatisfy { $0.flat })
        #expect(report.rssFlat)
        #expect(report.passed)
    }

    @Test func steadyGrowthFailsEveryScenario() {
        let report = Self.report(rss: (0..<12).map { 100_000 + $0 * 3_000 })
        #expect(!report.rssFlat)
        #expect(report.scenarioDrifts.contains { drift in !drift.flat })
        #expect(!report.passed)
    }

    @Test func descriptorsHaveAnAbsoluteSlack() {
        let rss = Array(repeating: 100_000, count: 9)
        #expect(Self.report(rss: rss, descriptors: [13, 13, 13, 13, 14, 14, 13, 14, 15]).descriptorsFlat)
        #expect(!Self.report(rss: rss, descriptors: [13, 13, 13, 13, 14, 15, 16, 17, 18]).descriptorsFlat)
    }

    @Test func withoutARepeatedScenarioThereIsNoVerdict() {
        let report = Self.report(rss: [100_000, 100_000, 100_000, 100_000, 100_000], warmup: 3)
        #expect(report.scenarioDrifts.isEmpty)
        #expect(!report.rssFlat)
    }
}
