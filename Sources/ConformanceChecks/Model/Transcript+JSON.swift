import ProtocolModel
package import WireJSON

extension Transcript {
    /// The example-file shape: `{"journal": [JournalEntry…], "adapterEvents": [...],
    /// "client": ClientProcessResult}` (``ClientProcessResult/jsonValue``).
    package var jsonValue: JSONValue {
        .object([
            "journal": .array(journal.map(\.jsonValue)),
            "adapterEvents": .array(adapterEvents.map(\.jsonValue)),
            "client": client.jsonValue,
        ])
    }

    /// Reads the example-file shape written by ``jsonValue``; `adapterEvents` and `client`
    /// are optional (a passive client that exited 0).
    /// - Throws: ``TranscriptDecodingError`` naming the bad entry.
    package init(jsonValue value: JSONValue) throws(TranscriptDecodingError) {
        guard let entries = value["journal"]?.arrayValue else {
            throw TranscriptDecodingError("a transcript needs a \"journal\" array")
        }
        var journal: [JournalEntry] = []
        for (index, element) in entries.enumerated() {
            do {
                journal.append(try JournalEntry(jsonValue: element))
            } catch {
                throw TranscriptDecodingError("journal[\(index)]: \(error.message)")
            }
        }
        var events: [AdapterEvent] = []
        for (index, element) in (value["adapterEvents"]?.arrayValue ?? []).enumerated() {
            do {
                events.append(try AdapterEvent(jsonValue: element))
            } catch {
                throw TranscriptDecodingError("adapterEvents[\(index)]: \(error.message)")
            }
        }
        let client = value["client"]
        let exitCode = client?["exitCode"].flatMap { $0.isNull ? nil : $0.intValue }.map {
            Int32(truncatingIfNeeded: $0)
        }
        let result = ClientProcessResult(
            exitCode: client == nil ? 0 : exitCode,
            signal: client?["signal"]?.intValue.map { Int32(truncatingIfNeeded: $0) },
            driven: client?["driven"]?.boolValue ?? false,
            timedOut: client?["timedOut"]?.boolValue ?? false,
            stderrTail: client?["stderrTail"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        self.init(journal: journal, adapterEvents: events, client: result)
    }

    /// Reads an example file's text.
    /// - Throws: ``TranscriptDecodingError`` for bad JSON or a bad entry.
    package init(exampleText text: String) throws(TranscriptDecodingError) {
        let value: JSONValue
        do {
            value = try JSONValue.decode(text)
        } catch {
            throw TranscriptDecodingError("\(error.line):\(error.column): \(error.message)")
        }
        try self.init(jsonValue: value)
    }
}

extension ClientProcessResult {
    /// A transcript's `client`: `{"exitCode", "driven", "timedOut"?, "signal"?, "stderrTail"?}`.
    package var jsonValue: JSONValue {
        var object: JSONObject = [
            "exitCode": exitCode.map { .int(Int64($0)) } ?? .null, "driven": .bool(driven),
        ]
        if timedOut { object["timedOut"] = .bool(true) }
        if let signal { object["signal"] = .int(Int64(signal)) }
        if !stderrTail.isEmpty { object["stderrTail"] = .array(stderrTail.map(JSONValue.string)) }
        return .object(object)
    }
}
