import Glibc
import LoadGenerator
import ProtocolModel
import WireJSON

/// The `chaos` object of the load report: the untouched sessions against the faulted ones, the
/// hostile connections and how the server treated them, and the verdict.
struct ChaosReport {
    let plan: ChaosPlan
    let dialogProtocol: DialogProtocol
    let result: lg_result
    /// `GET /_mock/sessions` after the run, by test id (a test id shared by faulted sessions keeps a list).
    let serverSessions: [String: [JSONValue]]

    /// The server's sessions once the run's untouched ones are all closed (up to 5 s after it).
    static func serverSessions(port: UInt16, plan: ChaosPlan) -> [String: [JSONValue]] {
        var byTestID: [String: [JSONValue]] = [:]
        for _ in 0..<100 {
            byTestID = Dictionary(grouping: SoakBench.sessionSummaries(port: port)) { $0["testId"]?.stringValue ?? "" }
            let untouchedOpen = byTestID.contains { entry in
                entry.key.hasPrefix(ChaosPlan.untouchedPrefix) && entry.value.contains { $0["open"] == .bool(true) }
            }
            if !untouchedOpen { break }
            usleep(50_000)
        }
        return byTestID
    }

    /// The client's and the server's counts of one untouched session's data frames and payload bytes.
    struct FrameCheck {
        var verified = 0, unverified = 0, mismatched = 0
        var clientUp = 0, serverIn = 0, serverOut = 0, clientDown = 0
        var bytesUp = 0, bytesIn = 0, bytesOut = 0, bytesDown = 0
        var lostUp = 0, lostDown = 0

        var lost: Int { lostUp + lostDown }
    }

    var details: [lg_session_result] {
        guard let detail = result.sessions_detail else { return [] }
        return Array(UnsafeBufferPointer(start: detail, count: Int(result.requested)))
    }

    var hostileDetails: [lg_hostile_result] {
        guard let detail = result.hostile_detail else { return [] }
        return Array(UnsafeBufferPointer(start: detail, count: Int(result.hostile_count)))
    }

    var controlStatuses: [Int] {
        guard let statuses = result.control_statuses else { return [] }
        return UnsafeBufferPointer(start: statuses, count: plan.armings.count).map(Int.init)
    }

    /// "Lose no frame": for every untouched session, the data frames (text and binary messages)
    /// and payload bytes the client sent are what the server journaled in (`framesIn`,
    /// `bytesIn`), and what the server journaled out (`framesOut`, `bytesOut`: frames it sent,
    /// not those a fault held back) is what the client received.
    var frameCheck: FrameCheck {
        var check = FrameCheck()
        for (index, session) in details.enumerated() where Int(session.group) == Int(LG_UNTOUCHED) {
            guard let summary = serverSessions[ChaosPlan.untouchedPrefix + String(index)]?.first,
                let framesIn = summary["framesIn"]?.intValue, let framesOut = summary["framesOut"]?.intValue,
                let bytesIn = summary["bytesIn"]?.intValue, let bytesOut = summary["bytesOut"]?.intValue
            else {
                check.unverified += 1
                continue
            }
            check.verified += 1
            check.clientUp += session.frames_up
            check.serverIn += Int(framesIn)
            check.serverOut += Int(framesOut)
            check.clientDown += session.frames_down
            check.bytesUp += session.bytes_up
            check.bytesIn += Int(bytesIn)
            check.bytesOut += Int(bytesOut)
            check.bytesDown += session.bytes_down
            check.lostUp += max(0, session.frames_up - Int(framesIn))
            check.lostDown += max(0, Int(framesOut) - session.frames_down)
            if session.frames_up != Int(framesIn) || session.bytes_up != Int(bytesIn)
                || session.frames_down != Int(framesOut) || session.bytes_down != Int(bytesOut)
            {
                check.mismatched += 1
            }
        }
        return check
    }

    /// The outcome of a hostile connection as one label: `close 1009`, `HTTP 426`, …
    static func label(_ result: lg_hostile_result) -> String {
        switch Int(result.outcome) {
        case Int(LG_HOSTILE_CLOSE_FRAME.rawValue): "close \(result.code)"
        case Int(LG_HOSTILE_HTTP_STATUS.rawValue): "HTTP \(result.code)"
        default: lg_hostile_outcome_name(result.outcome).map { String(cString: $0) } ?? "?"
        }
    }

    /// What mock-server/bad-input.md says the server does with each kind (a connection the
    /// server drops only after `--handshake-timeout`, or closes only past `--max-queued-bytes`,
    /// may still be open when the run ends).
    func expected(_ kind: Int) -> [String] {
        switch kind {
        case Int(LG_HOSTILE_GARBAGE_FRAMES.rawValue): ["close 1002", "closed without a close frame", "reset"]
        case Int(LG_HOSTILE_NON_UTF8_TEXT.rawValue): ["close 1007"]
        case Int(LG_HOSTILE_OVERSIZE.rawValue): ["close 1009"]
        case Int(LG_HOSTILE_BAD_JSON.rawValue):
            dialogProtocol.descriptor.notJSONFirstFrameEndsTheSession ? ["close 1000"] : ["kept open"]
        case Int(LG_HOSTILE_BAD_CLOSE_REASON.rawValue): ["closed without a close frame", "reset"]
        case Int(LG_HOSTILE_SLOWLORIS.rawValue): ["closed without a close frame", "kept open"]
        case Int(LG_HOSTILE_NEVER_READS.rawValue): ["kept open", "close 1008"]
        case Int(LG_HOSTILE_PLAIN_HTTP.rawValue): ["HTTP 426"]
        case Int(LG_HOSTILE_UNKNOWN_PATH.rawValue): ["HTTP 404"]
        default: []
        }
    }

    var untouchedLateness: lg_samples { result.group_lateness_ms.0 }
    var faultedLateness: lg_samples { result.group_lateness_ms.1 }

    struct Verdict {
        var latenessP99Ms: Double
        var lostFrames: Int
        var mismatchedSessions: Int
        var unverifiedSessions: Int
        var droppedOrFailed: Int
        var faultsArmed: Bool
        var hostileOpened: Bool

        var reasons: [String] {
            var reasons: [String] = []
            if latenessP99Ms > ChaosPlan.latenessLimitMs {
                reasons.append(
                    "untouched downlink lateness p99 \(BenchJSON.fixed(latenessP99Ms, digits: 2)) ms > \(Int(ChaosPlan.latenessLimitMs)) ms"
                )
            }
            if lostFrames > 0 { reasons.append("\(lostFrames) frames of untouched sessions lost") }
            if mismatchedSessions > 0 {
                reasons.append(
                    "\(mismatchedSessions) untouched sessions' frame or byte counts differ from the server's")
            }
            if unverifiedSessions > 0 {
                reasons.append("\(unverifiedSessions) untouched sessions not in GET /_mock/sessions (--keep-sessions)")
            }
            if droppedOrFailed > 0 { reasons.append("\(droppedOrFailed) untouched sessions dropped or failed") }
            if !faultsArmed { reasons.append("a fault could not be armed") }
            if !hostileOpened { reasons.append("not every hostile connection was opened") }
            return reasons
        }

        var pass: Bool { reasons.isEmpty }
    }

    var verdict: Verdict {
        let check = frameCheck
        let untouched = details.filter { Int($0.group) == Int(LG_UNTOUCHED) }
        return Verdict(
            latenessP99Ms: LoadReport.percentile(untouchedLateness, 0.99), lostFrames: check.lost,
            mismatchedSessions: check.mismatched, unverifiedSessions: check.unverified,
            droppedOrFailed: untouched.reduce(0) { $0 + Int($1.dropped) + Int($1.failed) },
            faultsArmed: controlStatuses.allSatisfy { (200..<300).contains($0) },
            hostileOpened: hostileDetails.allSatisfy { Int($0.outcome) != Int(LG_HOSTILE_PENDING.rawValue) })
    }

    static func group(_ sessions: [lg_session_result]) -> [(String, BenchJSON)] {
        [
            ("sessions", .int(sessions.count)),
            ("failed", .int(sessions.reduce(0) { $0 + Int($1.failed) })),
            ("dropped", .int(sessions.reduce(0) { $0 + Int($1.dropped) })),
            ("closedCleanly", .int(sessions.reduce(0) { $0 + Int($1.clean) })),
            ("lateChunks", .int(sessions.reduce(0) { $0 + $1.late_chunks })),
            ("maxLatenessMs", .number(sessions.map(\.max_lateness_ms).max() ?? 0, digits: 1)),
        ]
    }

    var json: BenchJSON {
        let details = self.details
        let check = frameCheck
        let verdict = self.verdict
        let statuses = controlStatuses
        let armings = plan.armings
        let faults: [BenchJSON] = plan.faultsInUse.map { index in
            let fault = plan.faults[index]
            let testID = ChaosPlan.faultPrefix + fault.label
            let mine = plan.faulted.filter { $0.value == index }.keys.sorted().map { details[$0] }
            let status = armings.firstIndex { $0.testID == testID }.flatMap { $0 < statuses.count ? statuses[$0] : nil }
            let server = serverSessions[testID] ?? []
            var members: [(String, BenchJSON)] = [
                ("label", .string(fault.label)), ("testId", .string(testID)),
                ("fault", .string(fault.fault.encodedString())), ("armStatus", .int(status ?? 0)),
            ]
            members += Self.group(mine)
            members.append(("serverFramesOut", .int(server.reduce(0) { $0 + Int($1["framesOut"]?.intValue ?? 0) })))
            members.append(("clientFramesDown", .int(mine.reduce(0) { $0 + $1.frames_down })))
            return .object(members)
        }
        let hostile = hostileDetails
        let kinds: [BenchJSON] = (0..<Int(LG_HOSTILE_KINDS.rawValue)).compactMap { raw in
            let mine = hostile.filter { Int($0.kind) == raw }
            guard !mine.isEmpty, let name = lg_hostile_kind_name(Int32(raw)).map({ String(cString: $0) }) else {
                return nil
            }
            var outcomes: [(String, Int)] = []
            for result in mine {
                let label = Self.label(result)
                if let at = outcomes.firstIndex(where: { $0.0 == label }) {
                    outcomes[at].1 += 1
                } else {
                    outcomes.append((label, 1))
                }
            }
            let expected = expected(raw)
            let server = serverSessions[ChaosPlan.hostilePrefix + name] ?? []
            return .object([
                ("kind", .string(name)), ("opened", .int(mine.count)),
                ("upgraded", .int(mine.filter { $0.upgraded != 0 }.count)),
                ("outcomes", .object(outcomes.map { ($0.0, .int($0.1)) })),
                ("expected", .array(expected.map { .string($0) })),
                ("asExpected", .int(mine.filter { expected.contains(Self.label($0)) }.count)),
                ("maxSecondsToOutcome", .number(mine.map(\.seconds).max() ?? 0, digits: 2)),
                ("bytesSent", .int(mine.reduce(0) { $0 + $1.bytes_sent })),
                ("framesReceived", .int(mine.reduce(0) { $0 + $1.frames_received })),
                ("serverSessions", .int(server.count)),
                ("serverViolations", .int(server.reduce(0) { $0 + Int($1["violations"]?.intValue ?? 0) })),
            ])
        }
        let untouched = details.filter { Int($0.group) == Int(LG_UNTOUCHED) }
        let faulted = details.filter { Int($0.group) == Int(LG_FAULTED) }
        var untouchedMembers = Self.group(untouched)
        untouchedMembers += [
            ("sabotaged", .int(plan.sabotaged)),
            ("latenessMs", LoadReport.distribution(untouchedLateness, digits: 2)),
            (
                "frames",
                .object([
                    ("verifiedSessions", .int(check.verified)), ("unverifiedSessions", .int(check.unverified)),
                    ("clientSent", .int(check.clientUp)), ("serverJournaledIn", .int(check.serverIn)),
                    ("serverJournaledOut", .int(check.serverOut)), ("clientReceived", .int(check.clientDown)),
                    ("clientBytesSent", .int(check.bytesUp)), ("serverBytesIn", .int(check.bytesIn)),
                    ("serverBytesOut", .int(check.bytesOut)), ("clientBytesReceived", .int(check.bytesDown)),
                    ("lostUp", .int(check.lostUp)), ("lostDown", .int(check.lostDown)), ("lost", .int(check.lost)),
                    ("mismatchedSessions", .int(check.mismatched)),
                ])
            ),
        ]
        var faultedMembers = Self.group(faulted)
        faultedMembers.append(("latenessMs", LoadReport.distribution(faultedLateness, digits: 2)))
        return .object([
            ("faultedPercent", .number(plan.faultedPercent, digits: 1)),
            ("untouched", .object(untouchedMembers)),
            ("faulted", .object(faultedMembers)),
            ("faults", .array(faults)),
            (
                "hostile",
                .object([
                    ("requested", .int(plan.hostile)),
                    (
                        "opened",
                        .int(hostile.filter { Int($0.outcome) != Int(LG_HOSTILE_PENDING.rawValue) }.count)
                    ),
                    ("byKind", .array(kinds)),
                ])
            ),
            ("controlStatuses", .array(statuses.map { .int($0) })),
            ("chaosThreadCpuPercent", .number(result.chaos_cpu_percent)),
            (
                "verdict",
                .object([
                    ("untouchedLatenessP99Ms", .number(verdict.latenessP99Ms, digits: 2)),
                    ("latenessLimitMs", .number(ChaosPlan.latenessLimitMs, digits: 1)),
                    ("lostFrames", .int(verdict.lostFrames)), ("mismatchedSessions", .int(verdict.mismatchedSessions)),
                    ("unverifiedSessions", .int(verdict.unverifiedSessions)),
                    ("untouchedDroppedOrFailed", .int(verdict.droppedOrFailed)),
                    ("faultsArmed", .bool(verdict.faultsArmed)), ("hostileOpened", .bool(verdict.hostileOpened)),
                    ("reasons", .array(verdict.reasons.map { .string($0) })), ("pass", .bool(verdict.pass)),
                ])
            ),
        ])
    }
}
