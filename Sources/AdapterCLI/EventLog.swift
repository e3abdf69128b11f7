import Glibc
import Synchronization
import WireJSON
import WireSocket

/// The adapter's stdout: one JSON object per line (the adapter protocol, conformance/README.md), flushed at once, and the
/// record of events that `wait` commands look for.
final class EventLog: Sendable {
    private struct State {
        /// Set once the case is over: late callbacks of its client write nothing into the next case.
        var retired = false
        var names: [String] = []
        /// `wait` matches events at or after this index, then moves past the match.
        var cursor = 0
    }

    private let state = Mutex(State())
    /// Whether lines go to stdout (a passive client keeps its events to itself).
    let writesOutput: Bool

    init(writesOutput: Bool = true) { self.writesOutput = writesOutput }

    /// Writes one line of output.
    func writeLine(_ object: JSONObject) {
        guard writesOutput else { return }
        let line = JSONValue.object(object).encodedString() + "\n"
        state.withLock { state in if !state.retired { writeAll(STDOUT_FILENO, line) } }
    }

    /// Ends this log's case: nothing more is written.
    func retire() { state.withLock { $0.retired = true } }

    /// Writes an event (`{"event": name, …fields}`) and records it for `wait`.
    func event(_ name: String, _ fields: JSONObject = [:]) {
        var object: JSONObject = ["event": .string(name)]
        for (key, value) in fields { object[key] = value }
        let line = JSONValue.object(object).encodedString() + "\n"
        state.withLock { state in
            state.names.append(name)
            if writesOutput && !state.retired { writeAll(STDOUT_FILENO, line) }
        }
    }

    /// `{"event":"ack","cmd":…}` after a command (with extra fields such as `timedOut`).
    func ack(_ command: String, _ fields: JSONObject = [:]) {
        var object: JSONObject = ["event": "ack", "cmd": .string(command)]
        for (key, value) in fields { object[key] = value }
        writeLine(object)
    }

    /// Waits for the next `name` event at or after the cursor. - Returns: false on timeout.
    func wait(for name: String, timeoutMillis: Int) async -> Bool {
        let deadline = Self.nowMillis() + Int64(timeoutMillis)
        while true {
            let found = state.withLock { state -> Bool in
                guard let index = state.names[state.cursor...].firstIndex(of: name) else { return false }
                state.cursor = index + 1
                return true
            }
            if found { return true }
            if Self.nowMillis() >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Whether `name` occurred at any time.
    func hasSeen(_ name: String) -> Bool { state.withLock { $0.names.contains(name) } }

    private static func nowMillis() -> Int64 { MonotonicClock.nowMicros() / 1000 }
}

/// Logs to stderr (captured by the harness as the adapter's log).
func log(_ text: String) {
    writeAll(STDERR_FILENO, "dialogmock-adapter: \(text)\n")
}

/// Writes all of `text` to a file descriptor (unbuffered, so every line is out at once).
func writeAll(_ descriptor: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written <= 0 { return }
        bytes = bytes.dropFirst(written)
    }
}
