import ConformanceChecks
import ProtocolModel
import WireJSON

/// Audio in report.html: a case's uplink and downlink audio as one track each (the page's
/// script concatenates the chunks of a direction, draws the waveform and plays it), and the
/// summary text of one chunk. The payloads are read from the case's journal (``HTMLCaseData``),
/// never written twice.
enum HTMLAudio {
    /// Where an audio entry's base64 payload is (a JSON pointer into the entry), when the journal
    /// kept it: a binary frame's `data`, else a text frame's `audio` / `delta` / `data` member.
    /// The page's script asks the timeline component (`DialogTimeline.audioPayload`), which looks
    /// in the same places, in the same order.
    static func payloadKey(_ entry: JournalEntry) -> String? {
        if entry.payload != nil { return "/data" }
        guard let object = entry.json?.objectValue else { return nil }
        return ["audio", "delta", "data"].first { object[$0]?.stringValue != nil }.map { "/json/\($0)" }
    }

    /// `pcm 16000 Hz · 100 ms`.
    static func summaryText(_ audio: AudioSummary) -> String {
        var text = audio.codec
        if let rate = audio.sampleRate { text += " \(rate) Hz" }
        return text + " · \(SVGCharts.fixed(audio.durationMs)) ms"
    }

    /// One track per direction that carried audio, with its totals; empty when none did.
    static func tracksHTML(_ transcript: Transcript) -> String {
        var html = ""
        for direction in [JournalEntry.Direction.in, .out] {
            let chunks = transcript.journal.filter { $0.direction == direction && $0.audio != nil }
            guard let first = chunks.first?.audio else { continue }
            let duration = chunks.reduce(0) { $0 + ($1.audio?.durationMs ?? 0) }
            let kept = chunks.filter { payloadKey($0) != nil }.count
            var text = "\(chunks.count) chunk\(chunks.count == 1 ? "" : "s"), \(SVGCharts.fixed(duration)) ms of "
            text += first.codec + (first.sampleRate.map { " \($0) Hz" } ?? "")
            if kept == 0 {
                text += " — the journal has no payload for them (a binary frame keeps only its summary unless"
                text += " the mock runs with --journal-audio): durations only"
            }
            html += "<div class=\"track\" data-dir=\"\(direction.rawValue)\">"
            html += "<b>\(direction == .in ? "client → mock" : "mock → client")</b> \(XMLText.escape(text))</div>"
        }
        return html.isEmpty ? "" : "<div class=\"audio\">\(html)</div>\n"
    }
}
