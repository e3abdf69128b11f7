import Synchronization
import WireJSON

/// The harness's side of a reusable adapter (conformance/README.md, "Reusable adapters"): an
/// adapter whose announce line has `"reusable": true` serves case after case in one process,
/// which saves its start-up (an SDK import, a VM) on every case but the first.
enum ReusableAdapter {
    /// Ends the current case: the adapter ends its session as at end of input and acks with its `exit` status.
    static let endCase = "end_case"
    /// Starts the next case: `env` holds the case's `MOCK_*` values.
    static let nextCase = "next_case"

    /// Whether an announce line offers reuse.
    static func offersReuse(_ announce: JSONValue?) -> Bool { announce?["reusable"]?.boolValue == true }

    static func nextCaseLine(environment: [String: String]) -> String {
        var values: JSONObject = [:]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { values[name] = .string(value) }
        return JSONValue.object(["cmd": .string(nextCase), "env": .object(values)]).encodedString()
    }

    static let endCaseLine = JSONValue.object(["cmd": .string(endCase)]).encodedString()

    /// Whether `json` is the adapter's ack of `command`.
    static func isAck(_ json: JSONValue?, of command: String) -> Bool {
        json?["event"]?.stringValue == "ack" && json?["cmd"]?.stringValue == command
    }

    /// The exit status a case's `end_case` ack reports: its `exit`, else 0 when ok and 1 when not.
    static func exitStatus(of ack: JSONValue) -> Int32 {
        if let code = ack["exit"]?.intValue, (0...255).contains(code) { return Int32(code) }
        return ack["ok"]?.boolValue == false ? 1 : 0
    }
}

/// Reusable adapter processes idle between cases (at most one per job, as each case hands its
/// adapter back when it is done).
final class AdapterPool: Sendable {
    private let idle = Mutex<[ClientProcess]>([])

    /// An idle adapter that is still running, if any.
    func take() -> ClientProcess? {
        while let client = idle.withLock({ $0.popLast() }) {
            if client.isRunning { return client }
        }
        return nil
    }

    func put(_ client: ClientProcess) { idle.withLock { $0.append(client) } }

    /// Ends every idle adapter: end of input, then up to `graceMillis` to exit, then a kill.
    func closeAll(graceMillis: Int = 3_000) async {
        let clients = idle.withLock { clients in
            defer { clients.removeAll() }
            return clients
        }
        for client in clients { client.closeStdin() }
        for client in clients { _ = await client.waitForExit(timeoutMillis: graceMillis) }
    }
}
