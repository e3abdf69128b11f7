import Glibc
import LoadGenerator
import ProtocolModel
import WireJSON

/// `dialogmock-bench load --chaos`: while the N sessions stream, faults armed through the
/// control API on a share of them (each fault kind on its own test id) and hostile connections
/// of every kind in mock-server/bad-input.md; the untouched sessions must not notice. What the
/// generator's C code needs (per-session test ids, the control requests, the hostile schedule)
/// and, after the run, the `chaos` object of the report with its verdict.
struct ChaosPlan {
    /// One fault kind armed on the faulted sessions in turn (its test id: `chaos-fault-<label>`).
    struct Fault {
        var label: String
        var fault: JSONValue
    }

    static let untouchedPrefix = "chaos-u"
    static let faultPrefix = "chaos-fault-"
    static let hostilePrefix = "chaos-hostile-"
    /// Downlink lateness p99 the untouched sessions must keep (issue 44).
    static let latenessLimitMs = 5.0

    let sessions: Int
    let faultedPercent: Double
    let hostile: Int
    /// Untouched sessions that get a harmful fault anyway (`--chaos-sabotage`): the check can fail.
    let sabotaged: Int
    let faults: [Fault]
    /// The session indices faulted, with the index into `faults` each one carries.
    let faulted: [Int: Int]
    let duration: Double

    init(
        dialogProtocol: DialogProtocol, sessions: Int, faultedPercent: Double, hostile: Int, sabotaged: Int,
        duration: Double
    ) {
        self.sessions = sessions
        self.faultedPercent = faultedPercent
        self.hostile = hostile
        self.duration = duration
        faults = Self.faults(audio: Self.audioMatch(dialogProtocol))
        let count = faultedPercent > 0 ? max(1, Int((Double(sessions) * faultedPercent / 100).rounded())) : 0
        var faulted: [Int: Int] = [:]
        // Spread evenly over the sessions (and so over their streaming phase offsets).
        for k in 0..<min(count, sessions) {
            faulted[Int((Double(k) + 0.5) * Double(sessions) / Double(count))] = k % faults.count
        }
        self.faulted = faulted
        self.sabotaged = min(sabotaged, sessions - faulted.count)
    }

    /// The frames that carry answer audio: Qwen's audio delta events, multimodal binary frames.
    static func audioMatch(_ dialogProtocol: DialogProtocol) -> JSONValue {
        switch dialogProtocol {
        case .qwenRealtime: ["type": .string(QwenServerEvent.responseAudioDelta.rawValue)]
        case .qwenAudioLive: ["type": .string(QwenAudioLiveServerEvent.outputAudioDelta.rawValue)]
        case .multimodalDialog: ["binary": true]
        }
    }

    /// Faults that harm their own session (late, stalled, cut, throttled, lost or ended
    /// answers) and are meant to harm no other.
    static func faults(audio: JSONValue) -> [Fault] {
        [
            Fault(label: "delay", fault: ["kind": "delay", "ms": 1500, "repeat": "every", "match": audio]),
            Fault(label: "stall-write", fault: ["kind": "stall", "direction": "write", "ms": 3000]),
            Fault(label: "half-open", fault: ["kind": "stall", "direction": "both", "forever": true]),
            Fault(label: "fragment", fault: ["kind": "fragment", "frameBytes": 64]),
            Fault(label: "bandwidth", fault: ["kind": "bandwidthCap", "bytesPerSecond": 8000]),
            Fault(label: "drop-audio", fault: ["kind": "drop", "repeat": "every", "match": audio]),
            Fault(
                label: "duplicate-audio",
                fault: ["kind": "duplicate", "copies": 1, "repeat": "every", "match": audio]),
            Fault(
                label: "reorder-audio",
                fault: ["kind": "reorder", "window": 4, "holdMs": 500, "repeat": "every", "match": audio]),
            Fault(label: "close", fault: ["kind": "close", "code": 4000, "reason": "chaos"]),
            Fault(label: "abrupt-close", fault: ["kind": "abruptClose"]),
            Fault(
                label: "fatal-error",
                fault: [
                    "kind": "injectError",
                    "error": ["code": 500, "name": "InternalError", "message": "chaos", "fatal": true],
                ]),
            Fault(label: "expiry", fault: ["kind": "sessionExpiry", "afterMs": 2000]),
        ]
    }

    /// What the sabotaged untouched sessions get: answers throttled to a sixth of real time.
    static let sabotage: JSONValue = ["kind": "bandwidthCap", "bytesPerSecond": 8000]

    func testID(ofSession index: Int) -> String {
        if let fault = faulted[index] { return Self.faultPrefix + faults[fault].label }
        return Self.untouchedPrefix + String(index)
    }

    /// The untouched sessions that are sabotaged: the first `sabotaged` of them.
    var sabotagedSessions: [Int] { Array((0..<sessions).filter { faulted[$0] == nil }.prefix(sabotaged)) }

    /// The fault kinds in use (fewer faulted sessions than kinds use the first ones).
    var faultsInUse: [Int] { Array(Set(faulted.values)).sorted() }

    /// `POST /_mock/faults` bodies: each fault kind in use on its test id, then the sabotage.
    var armings: [(testID: String, fault: JSONValue)] {
        faultsInUse.map { (testID: Self.faultPrefix + faults[$0].label, fault: faults[$0].fault) }
            + sabotagedSessions.map { (testID: Self.untouchedPrefix + String($0), fault: Self.sabotage) }
    }

    static func request(method: String, path: String, body: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// Calls `body` with the C session set-ups and chaos configuration; their pointers live for the call only.
    func withC<Result>(
        _ body: (UnsafePointer<lg_session_setup>, UnsafePointer<lg_chaos>) -> Result
    ) -> Result {
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { for string in strings { free(string) } }
        func c(_ text: String) -> UnsafePointer<CChar>? {
            guard let copy = strdup(text) else { return nil }
            strings.append(copy)
            return UnsafePointer(copy)
        }
        let setups = (0..<sessions).map { index in
            lg_session_setup(
                test_id: c(testID(ofSession: index)), group: Int32(faulted[index] == nil ? LG_UNTOUCHED : LG_FAULTED))
        }
        let requests = armings.map { arming in
            c(
                Self.request(
                    method: "POST", path: "/_mock/faults",
                    body: JSONValue.object(["testId": .string(arming.testID), "fault": arming.fault]).encodedString()))
        }
        let prefix = c(Self.hostilePrefix)
        return setups.withUnsafeBufferPointer { setupBuffer in
            requests.withUnsafeBufferPointer { requestBuffer in
                var chaos = lg_chaos(
                    control_requests: requestBuffer.baseAddress, control_request_count: Int32(requestBuffer.count),
                    control_after: min(1, duration * 0.1), hostile: Int32(hostile),
                    hostile_after: min(1.5, duration * 0.15), hostile_spread: duration * 0.4, hostile_keep: 3,
                    oversize_bytes: (16 << 20) + 1, hostile_test_id_prefix: prefix)
                return withUnsafePointer(to: &chaos) { body(setupBuffer.baseAddress!, $0) }
            }
        }
    }

    /// Removes the faults the run armed (a server given with `--port` goes on serving).
    func disarm(port: UInt16) {
        for testID in Set(armings.map(\.testID)) {
            _ = ControlRequest.send(port: port, method: "DELETE", path: "/_mock/faults?testId=\(testID)")
        }
    }
}
