import ProtocolModel
package import WireJSON

/// One event a driven client (adapter, the adapter protocol of conformance/README.md) wrote on stdout, timestamped by the harness
/// on the journal's clock (µs since the session started).
package struct AdapterEvent: Sendable, Hashable {
    /// Microseconds since the session started (same clock as ``JournalEntry/t``).
    package var t: Int64
    /// The event name (`playback_started`, `audio`, `error`, `closed` …).
    package var name: String
    /// The whole event object as the adapter wrote it.
    package var json: JSONValue

    /// Creates an event; `json` defaults to `{"event": name}`.
    package init(t: Int64, name: String, json: JSONValue? = nil) {
        self.t = t
        self.name = name
        self.json = json ?? .object(["event": .string(name)])
    }

    /// The event as `{"t", "event", …other members of json}` for example files and reports.
    package var jsonValue: JSONValue {
        var object: JSONObject = ["t": .int(t), "event": .string(name)]
        for (key, value) in json.objectValue ?? [:] where key != "event" && key != "t" { object[key] = value }
        return .object(object)
    }

    /// Reads an event written by ``jsonValue`` (or an adapter line plus `t`).
    /// - Throws: ``TranscriptDecodingError`` when `t` or `event` is missing.
    package init(jsonValue value: JSONValue) throws(TranscriptDecodingError) {
        guard let t = value["t"]?.intValue else {
            throw TranscriptDecodingError("adapter event needs an integer \"t\"")
        }
        guard let name = value["event"]?.stringValue else {
            throw TranscriptDecodingError("adapter event needs a string \"event\"")
        }
        var object = value.objectValue ?? [:]
        object["t"] = nil
        self.init(t: t, name: name, json: .object(object))
    }
}

/// How the client process ended, as the runner saw it.
package struct ClientProcessResult: Sendable, Hashable {
    /// The exit status (`nil` when it was killed, ended on a signal, or is still running at the timeout).
    package var exitCode: Int32?
    /// The signal that ended it (`nil` when it exited, or the runner killed it at the timeout).
    package var signal: Int32?
    /// Whether the client announced itself as an adapter (the adapter protocol, conformance/README.md).
    package var driven: Bool
    /// Whether the runner had to kill it at the case timeout.
    package var timedOut: Bool
    /// The last lines the client wrote to stderr (at most ``stderrTailLines``), for the reports.
    package var stderrTail: [String]

    /// How many stderr lines ``stderrTail`` keeps.
    package static let stderrTailLines = 5

    /// Creates a result.
    package init(
        exitCode: Int32? = 0, signal: Int32? = nil, driven: Bool = false, timedOut: Bool = false,
        stderrTail: [String] = []
    ) {
        self.exitCode = exitCode
        self.signal = signal
        self.driven = driven
        self.timedOut = timedOut
        self.stderrTail = stderrTail
    }

    /// How the client ended, in words: "exit 0", "signal 11", "killed at the case timeout".
    package var endDescription: String {
        if timedOut { return "killed at the case timeout" }
        if let signal { return "ended by signal \(signal)" }
        if let exitCode { return "exit \(exitCode)" }
        return "ended without an exit status"
    }
}

/// A transcript or example file that cannot be read.
package struct TranscriptDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
