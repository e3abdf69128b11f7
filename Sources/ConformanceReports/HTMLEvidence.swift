import ConformanceChecks
import ProtocolModel
import WireJSON

/// The journal entries a finding cites, rendered inline in report.html: time, direction, kind
/// and event on one line, the frame's JSON pretty-printed (cut at ``jsonLimit`` bytes) below.
enum HTMLEvidence {
    /// Bytes of pretty JSON shown per entry; the case's JSON file has the rest.
    static let jsonLimit = 2048
    /// Entries shown per finding (the first ones: the offending entry comes first).
    static let entryLimit = 6

    /// The cited entries of `check` as a list; indices outside the journal are shown bare.
    static func html(_ check: CheckResult, transcript: Transcript) -> String {
        var html = "<ol class=\"evidence\">"
        for index in check.evidence.prefix(entryLimit) {
            guard transcript.journal.indices.contains(index) else {
                html += "<li>#\(index) (not in the journal)</li>"
                continue
            }
            html += "<li>\(entry(transcript.journal[index], index: index, transcript: transcript))</li>"
        }
        if check.evidence.count > entryLimit {
            html += "<li>… and \(check.evidence.map { "#\($0)" }.dropFirst(entryLimit).joined(separator: " "))</li>"
        }
        return html + "</ol>"
    }

    private static func entry(_ entry: JournalEntry, index: Int, transcript: Transcript) -> String {
        var head = "#\(index) · \(SVGCharts.fixed(Double(entry.t) / 1000)) ms · "
        switch entry.direction {
        case .in?: head += "client → mock · "
        case .out?: head += "mock → client · "
        case nil: break
        }
        head += entry.kind.rawValue
        if let event = transcript.messageType(at: index) { head += " · <b>\(XMLText.escape(event))</b>" }
        if let bytes = entry.byteLength { head += " · \(bytes) B" }
        return
            "<span class=\"entry\">\(head)</span><pre>\(XMLText.escape(truncated(body(entry), limit: jsonLimit)))</pre>"
    }

    /// The frame's JSON (sorted keys, as in the case's JSON file), else the entry's other
    /// members (raw text, audio, violation, fault, …).
    private static func body(_ entry: JournalEntry) -> String {
        if let json = entry.json { return json.sortedKeys.encodedString(pretty: true) }
        guard var object = entry.jsonValue.objectValue else { return "" }
        for key in ["t", "dir", "kind", "event", "bytes"] { object[key] = nil }
        return object.isEmpty ? "" : JSONValue.object(object).encodedString(pretty: true)
    }

    /// At most `limit` UTF-8 bytes of `text` (cut on a character boundary), with what was left out.
    static func truncated(_ text: String, limit: Int) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count > limit else { return text }
        var end = limit
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
            + "\n… (\(bytes.count - end) more bytes in the case's JSON)"
    }
}
