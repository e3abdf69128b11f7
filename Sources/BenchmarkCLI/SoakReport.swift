/// The JSON document of `dialogmock-bench soak`, and its verdict.
struct SoakReport {
    /// How far a sample may drift from the first one after the warm-up.
    static let flatTolerance = 0.05

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
    }

    /// Round-end values after the warm-up rounds (the last warm-up round's end is the baseline).
    func drift(_ value: (SoakBench.Sample) -> Int) -> Drift? {
        let after = roundEnds.dropFirst(max(0, warmupRounds - 1)).map(value)
        guard after.count >= 2 else { return nil }
        guard let first = after.first, let last = after.last, let max = after.max() else { return nil }
        return Drift(first: first, max: max, last: last)
    }

    var rssFlat: Bool { drift(\.rssKB).map { $0.growth <= Self.flatTolerance } ?? false }
    var descriptorsFlat: Bool { drift(\.descriptors).map { $0.growth <= Self.flatTolerance } ?? false }
    var passed: Bool { lostFrames == 0 && rssFlat && descriptorsFlat && serverExit == "exit 0" }

    var json: BenchJSON {
        func driftJSON(_ drift: Drift?, _ unit: String) -> BenchJSON {
            guard let drift else { return .null }
            return .object([("firstAfterWarmup" + unit, .int(drift.first)), ("maxAfter" + unit, .int(drift.max)),
                            ("last" + unit, .int(drift.last)), ("growthPercent", .number(drift.growth * 100, digits: 2))])
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
            ("rssFlat", .bool(rssFlat)),
            ("descriptors", driftJSON(drift(\.descriptors), "")),
            ("descriptorsFlat", .bool(descriptorsFlat)),
            ("totals", .object([
                ("sessions", .int(rounds.reduce(0) { $0 + $1.sessions })),
                ("connected", .int(rounds.reduce(0) { $0 + $1.connected })),
                ("failedOrDropped", .int(rounds.reduce(0) { $0 + $1.failed })),
                ("turnsAnswered", .int(rounds.reduce(0) { $0 + $1.turnsAnswered })),
                ("framesUp", .int(rounds.reduce(0) { $0 + $1.framesUp })),
                ("journaledIn", .int(rounds.reduce(0) { $0 + $1.journalIn })),
                ("framesDown", .int(rounds.reduce(0) { $0 + $1.framesDown })),
                ("journaledOut", .int(rounds.reduce(0) { $0 + $1.journalOut })),
            ])),
            ("rounds", .array(rounds.map { round in
                .object([("round", .int(round.index)), ("scenario", .string(round.scenario)), ("sessions", .int(round.sessions)),
                         ("connected", .int(round.connected)), ("failedOrDropped", .int(round.failed)),
                         ("turnsAnswered", .int(round.turnsAnswered)), ("framesUp", .int(round.framesUp)),
                         ("journaledIn", .int(round.journalIn)), ("framesDown", .int(round.framesDown)),
                         ("journaledOut", .int(round.journalOut))])
            })),
            ("roundEnds", .array(roundEnds.map { sample in
                .object([("seconds", .number(sample.seconds)), ("rssKB", .int(sample.rssKB)), ("descriptors", .int(sample.descriptors))])
            })),
            ("timeline", .array(timeline.map { sample in
                .object([("seconds", .number(sample.seconds)), ("rssKB", .int(sample.rssKB)), ("descriptors", .int(sample.descriptors))])
            })),
        ])
    }
}
