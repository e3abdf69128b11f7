import ConformanceChecks
import ProtocolModel
import WireJSON

/// The journal entries a finding cites, rendered inline in report.html: time, direction, kind
/// and event on one line, the frame's JSON pretty-printed (cut at ``jsonLimit`` bytes) below.
///
/// Base64 payloads (audio, binary frames) are not repeated: the page already carries the case's
/// journal once (``HTMLCaseData``), so a payload shows as its first characters and its size, and
/// the page's script expands or copies it from there; an entry with audio gets a clip player.
enum HTMLEvidence {
    /// Bytes of pretty JSON shown per entry; the case's JSON file has the rest.
    static let jsonLimit = 2048
    /// Entries shown per finding (the first ones: the offending entry comes first).
    static let entryLimit = 6
    /// Characters of an abbreviated base64 string that stay visible.
    static let base64Prefix = 24

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
        var html = "<span class=\"entry\">\(head)</span>"
        if let audio = entry.audio {
            // The page's script draws this chunk's waveform (or its duration) with a play button.
            html +=
                "<div class=\"clip\" data-entry=\"\(index)\">\(XMLText.escape(HTMLAudio.summaryText(audio)))</div>"
        }
        return html + "<pre>\(body(entry, index: index))</pre>"
    }

    /// The frame's JSON (sorted keys, as in the case's JSON file), else the entry's other
    /// members (raw text, audio, violation, fault, …), escaped, with base64 payloads abbreviated.
    static func body(_ entry: JournalEntry, index: Int) -> String {
        var abbreviated: [(pointer: String, text: String)] = []
        let payloadKey = entry.audio == nil ? nil : HTMLAudio.payloadKey(entry)
        let text: String
        if let json = entry.json {
            let value = abbreviate(json.sortedKeys, pointer: "/json", payload: payloadKey, into: &abbreviated)
            text = value.encodedString(pretty: true)
        } else if var object = entry.jsonValue.objectValue {
            for key in ["t", "dir", "kind", "event", "bytes"] { object[key] = nil }
            let value = abbreviate(.object(object), pointer: "", payload: payloadKey, into: &abbreviated)
            text = object.isEmpty ? "" : value.encodedString(pretty: true)
        } else {
            text = ""
        }
        var html = XMLText.escape(truncated(text, limit: jsonLimit))
        for (number, item) in abbreviated.enumerated() {
            html = html.replacing("&quot;\(token(number))&quot;", with: base64HTML(item, index: index))
        }
        return html
    }

    /// `value` with each base64 string replaced by a token (``token(_:)``) and listed in `found`.
    private static func abbreviate(
        _ value: JSONValue, pointer: String, payload: String?, into found: inout [(pointer: String, text: String)]
    ) -> JSONValue {
        switch value {
        case .string(let text) where pointer == payload || looksLikeBase64(text):
            found.append((pointer, text))
            return .string(token(found.count - 1))
        case .object(let object):
            var result = JSONObject()
            for (key, member) in object {
                let escaped = key.replacing("~", with: "~0").replacing("/", with: "~1")
                result[key] = abbreviate(member, pointer: "\(pointer)/\(escaped)", payload: payload, into: &found)
            }
            return .object(result)
        case .array(let array):
            return .array(
                array.enumerated().map { offset, element in
                    abbreviate(element, pointer: "\(pointer)/\(offset)", payload: payload, into: &found)
                })
        default:
            return value
        }
    }

    private static func token(_ number: Int) -> String { "⟦b64:\(number)⟧" }

    /// A long run of the base64 alphabet of whole quads with some variety (so a long run of
    /// one letter stays text; an audio payload of silence is caught by its key instead).
    static func looksLikeBase64(_ text: String) -> Bool {
        guard text.utf8.count >= 256, text.utf8.count % 4 == 0 else { return false }
        var distinct = Set<UInt8>()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                if distinct.count < 8 { distinct.insert(byte) }
            default: return false
            }
        }
        return distinct.count >= 8
    }

    /// The first characters of a base64 string, its size, and buttons the script uses to show
    /// the whole string (read from the case's journal at `pointer` of entry `index`) or copy it.
    private static func base64HTML(_ item: (pointer: String, text: String), index: Int) -> String {
        let characters = item.text.utf8.count
        let padding = item.text.utf8.reversed().prefix(2).filter { $0 == UInt8(ascii: "=") }.count
        let bytes = characters / 4 * 3 - padding
        return
            "<span class=\"b64\" data-entry=\"\(index)\" data-pointer=\"\(XMLText.escape(item.pointer))\">&quot;\(XMLText.escape(String(item.text.prefix(base64Prefix))))…&quot; "
            + "<small>base64, \(characters) characters = \(bytes) bytes</small> "
            + "<button type=\"button\" class=\"b64-expand\">expand</button>"
            + "<button type=\"button\" class=\"b64-copy\">copy</button></span>"
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
