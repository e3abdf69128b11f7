/// The JSON document of `dialogmock-bench soak`, and its verdict.
///
/// Flatness is judged per scenario: each scenario's round-end RSS after the warm-up must stay
/// within 5 % (or 4 MiB) of its own first round end. A fault that builds a backlog (`fragment`,
/// `bandwidth`) raises the allocator's high-water once, in its own round, and later rounds of
/// other scenarios start from there; comparing a scenario with itself across rotations still
/// catches a leak (it grows every rotation) without blaming that one-time step. Descriptors are
/// judged over all round ends with an absolute slack of 2 (13 → 14 is not a leak).
struct SoakReport {
    /// How far a round end may drift from its baseline.
    static let flatTolerance = 0.05
    /// Growth below this is flat whatever the percentage (allocator and page granularity).
    static let rssSlackKB = 4096
    static let descriptorSlack = 2

    let sessions: Int
    let duration: Double
    let roundSeconds: Double
    let rounds: [SoakBench.Round]
    /// RSS and descriptors at the end of every round (its sessions closed): what flatness is judged on.
    let roundEnds: [SoakBench.Sample]
    let warmupRounds: Int
    /// Samples every `--sample` seconds, sessions running or not.
    let timeline: [SoakBench.Sample]
    let serverExit: String?

    /// Frames the clients sent that their session's journal does not hold.
    var lostFrames: Int { rounds.reduce(0) { $0 + max(0, $1.framesUp - $1.journalIn) } }

    struct Drift {
        let first: Int
        let max: Int
        let last: Int
        var growth: Double { first > 0 ? Double(max - first) / Double(first) : 0 }

        func isFlat(slack: Int) -> Bool {
            max - first <= Swift.max(slack, Int(Double(first) * SoakReport.flatTolerance))
        }
    }

    /// One scenario's round ends after the warm-up.
    struct ScenarioDrift {
        let scenario: String
        let rounds: Int
        let rss: Drift
        var flat: Bool { rss.isFlat(slack: SoakReport.rssSlackKB) }

        var json: BenchJSON {
            let fields: [(String, BenchJSON)] = [
                ("scenario", .string(scenario)), ("rounds", .int(rounds)), ("firstKB", .int(rss.first)),
                ("maxKB", .int(rss.max)),
                ("lastKB", .int(rss.last)), ("growthPercent", .number(rss.growth * 100, digits: 2)),
                ("flat", .bool(flat)),
            ]
            return .object(fields)
        }
    }

    /// Round-end values after the warm-up rounds (the last warm-up round's end is the baseline).
    func drift(_ value: (SoakBench.Sample) -> Int) -> Drift? {
        Self.drift(roundEnds.dropFirst(max(0, warmupRounds - 1)).map(value))
    }

    static func drift(_ values: [Int]) -> Drift? {
        guard values.count >= 2, let first = values.first, let last = values.last, let max = values.max() else {
            return nil
        }
        return Drift(first: first, max: max, last: last)
    }

    /// Per scenario (in the order they first ran), the RSS at the ends of its rounds after the
    /// warm-up; scenarios with fewer than two such rounds are left out.
    var scenarioDrifts: [ScenarioDrift] {
        var order: [String] = []
        var values: [String: [Int]] = [:]
        for (round, end) in zip(rounds, roundEnds) where round.index >= warmupRounds {
            if values[round.scenario] == nil { order.append(round.scenario) }
            values[round.scenario, default: []].append(end.rssKB)
        }
        return order.compactMap { name in
            Self.drift(values[name] ?? []).map {
                ScenarioDrift(scenario: name, rounds: values[name]?.count ?? 0, rss: $0)
            }
        }
    }

    /// Flat when at least one scenario repeated after the warm-up and none grew.
    var rssFlat: Bool {
        let drifts = scenarioDrifts
        return !drifts.isEmpty && drifts.allSatisfy(\.flat)
    }

    var descriptorsFlat: Bool { drift(\.descriptors)?.isFlat(slack: Self.descriptorSlack) ?? false }
    var passed: Bool { lostFrames == 0 && rssFlat && descriptorsFlat && serverExit == "exit 0" }

    var json: BenchJSON {
        func driftJSON(_ drift: Drift?, _ unit: String) -> BenchJSON {
            guard let drift else { return .null }
            return .object([
                ("firstAfterWarmup" + unit, .int(drift.first)), ("maxAfter" + unit, .int(drift.max)),
                ("last" + unit, .int(drift.last)), ("growthPercent", .number(drift.growth * 100, digits: 2)),
            ])
        }
        return .object([
            ("benchmark", .string("soak")),
            ("sessions", .int(sessions)),
            ("durationSeconds", .number(duration)),
            ("roundSeconds", .number(roundSeconds)),
            ("warmupRounds", .int(warmupRounds)),
            ("passed", .bool(passed)),
            ("serverExit", serverExit.map { .string($0) } ?? .null),
            ("lostJournalFrames", .int(lostFrames)),
            ("rss", driftJSON(drift(\.rssKB), "KB")),
            ("rssByScenario", .array(scenarioDrifts.map(\.json))),
            ("rssFlat", .bool(rssFlat)),
            ("descriptors", driftJSON(drift(\.descriptors), "")),
            ("descriptorsFlat", .bool(descriptorsFlat)),
            (
                "totals",
                .object([
                    ("sessions", .int(rounds.reduce(0) { $0 + $1.sessions })),
                    ("connected", .int(rounds.reduce(0) { $0 + $1.connected })),
                    ("failedOrDropped", .int(rounds.reduce(0) { $0 + $1.failed })),
                    ("turnsAnswered", .int(rounds.reduce(0) { $0 + $1.turnsAnswered })),
                    ("framesUp", .int(rounds.reduce(0) { $0 + $1.framesUp })),
                    ("journaledIn", .int(rounds.reduce(0) { $0 + $1.journalIn })),
                    ("framesDown", .int(rounds.reduce(0) { $0 + $1.framesDown })),
                    ("journaledOut", .int(rounds.reduce(0) { $0 + $1.journalOut })),
                ])
            ),
            (
                "rounds",
                .array(
                    rounds.map { round in
                        .object([
                            ("round", .int(round.index)), ("scenario", .string(round.scenario)),
                            ("sessions", .int(round.sessions)),
                            ("connected", .int(round.connected)), ("failedOrDropped", .int(round.failed)),
                            ("turnsAnswered", .int(round.turnsAnswered)), ("framesUp", .int(round.framesUp)),
                            ("journaledIn", .int(round.journalIn)), ("framesDown", .int(round.framesDown)),
                            ("journaledOut", .int(round.journalOut)),
                        ])
                    })
            ),
            (
                "roundEnds",
                .array(
                    roundEnds.map { sample in
                        .object([
                            ("seconds", .number(sample.seconds)), ("rssKB", .int(sample.rssKB)),
                            ("descriptors", .int(sample.descriptors)),
                        ])
                    })
            ),
            (
                "timeline",
                .array(
                    timeline.map { sample in
                        .object([
                            ("seconds", .number(sample.seconds)), ("rssKB", .int(sample.rssKB)),
                            ("descriptors", .int(sample.descriptors)),
                        ])
                    })
            ),
        ])
    }
}
