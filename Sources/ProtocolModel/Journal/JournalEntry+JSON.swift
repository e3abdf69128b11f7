package import WireJSON

/// A journal line that could not be read back.
package struct JournalDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number in the JSON Lines text, when decoding a whole journal.
    package var line: Int?
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(line: Int? = nil, message: String) {
        self.line = line
        self.message = message
    }

    package var description: String { line.map { "line \($0): \(message)" } ?? message }
}

extension JournalEntry {
    /// The entry as one JSON object with keys in a fixed order; absent members are omitted:
    /// `{"t", "dir", "kind", "bytes", "event", "json", "text", "audio": {"codec",
    /// "durationMs", "frames", "sampleRate", "level": {"rmsDb", "peakDb"}}, "state", "fault": {"id", "kind", "detail"},
    /// "violation": {"obligation", "message"}, "code", "reason", "data", "undelivered"}` (`data`: a
    /// binary frame's bytes in base64, when kept; `undelivered`: true on a proxied upstream frame
    /// that arrived after the client had closed).
    package var jsonValue: JSONValue {
        var object = JSONObject()
        object["t"] = .int(t)
        object["dir"] = direction.map { .string($0.rawValue) }
        object["kind"] = .string(kind.rawValue)
        object["bytes"] = byteLength.map { .int(Int64($0)) }
        object["event"] = eventType.map(JSONValue.string)
        object["json"] = json
        object["text"] = text.map(JSONValue.string)
        if let audio {
            var summary: JSONObject = [
                "codec": .string(audio.codec), "durationMs": .double(audio.durationMs),
                "frames": .int(Int64(audio.frames)),
            ]
            summary["sampleRate"] = audio.sampleRate.map { .int(Int64($0)) }
            if let level = audio.level {
                summary["level"] = ["rmsDb": .double(level.rmsDb), "peakDb": .double(level.peakDb)]
            }
            object["audio"] = .object(summary)
        }
        object["state"] = state.map(JSONValue.string)
        if let fault {
            var note = JSONObject()
            note["id"] = fault.faultId.map(JSONValue.string)
            note["kind"] = .string(fault.kind)
            note["detail"] = .string(fault.detail)
            object["fault"] = .object(note)
        }
        if let violation {
            object["violation"] = ["obligation": .string(violation.obligation), "message": .string(violation.message)]
        }
        object["code"] = closeCode.map { .int(Int64($0)) }
        object["reason"] = closeReason.map(JSONValue.string)
        object["data"] = payload.map { .string(Base64.encode($0)) }
        if undelivered { object["undelivered"] = .bool(true) }
        return .object(object)
    }

    /// Reads an entry from the object written by ``jsonValue``; unknown keys are ignored so
    /// newer recorders stay readable.
    package init(jsonValue value: JSONValue) throws(JournalDecodingError) {
        guard case .object(let object) = value else { throw JournalDecodingError(message: "expected a JSON object") }
        guard let t = object["t"]?.intValue else { throw JournalDecodingError(message: "missing integer \"t\"") }
        guard let kindName = object["kind"]?.stringValue, let kind = Kind(rawValue: kindName) else {
            throw JournalDecodingError(message: "missing or unknown \"kind\"")
        }
        var direction: Direction?
        if let name = object["dir"]?.stringValue {
            guard let parsed = Direction(rawValue: name) else {
                throw JournalDecodingError(message: "unknown \"dir\" \"\(name)\"")
            }
            direction = parsed
        }
        self.init(t: t, direction: direction, kind: kind)
        byteLength = object["bytes"]?.intValue.map { Int($0) }
        eventType = object["event"]?.stringValue
        json = object["json"]
        text = object["text"]?.stringValue
        if let audio = object["audio"]?.objectValue {
            guard let codec = audio["codec"]?.stringValue, let duration = audio["durationMs"]?.doubleValue else {
                throw JournalDecodingError(message: "\"audio\" needs \"codec\" and \"durationMs\"")
            }
            self.audio = AudioSummary(
                codec: codec, durationMs: duration, frames: Int(audio["frames"]?.intValue ?? 1),
                sampleRate: audio["sampleRate"]?.intValue.map { Int($0) })
            if let level = audio["level"]?.objectValue {
                guard let rms = level["rmsDb"]?.doubleValue, let peak = level["peakDb"]?.doubleValue else {
                    throw JournalDecodingError(message: "\"audio.level\" needs \"rmsDb\" and \"peakDb\"")
                }
                self.audio?.level = AudioLevel(rmsDb: rms, peakDb: peak)
            }
        }
        state = object["state"]?.stringValue
        if let note = object["fault"]?.objectValue {
            fault = FaultNote(
                faultId: note["id"]?.stringValue, kind: note["kind"]?.stringValue ?? "",
                detail: note["detail"]?.stringValue ?? "")
        }
        if let record = object["violation"]?.objectValue {
            violation = Violation(
                obligation: record["obligation"]?.stringValue ?? "", message: record["message"]?.stringValue ?? "")
        }
        closeCode = object["code"]?.intValue.map { Int($0) }
        closeReason = object["reason"]?.stringValue
        if let data = object["data"]?.stringValue {
            guard let bytes = Base64.decode(data) else { throw JournalDecodingError(message: "\"data\" is not base64") }
            payload = bytes
        }
        undelivered = object["undelivered"]?.boolValue ?? false
    }
}
