package import ProtocolModel
package import WireJSON

/// Everything observed during one case run: the mock's session journal (both directions,
/// faults, violations, states), the adapter's events (driven clients) and how the process ended.
package struct Transcript: Sendable, Hashable {
    /// The session journal in time order.
    package var journal: [JournalEntry]
    /// Adapter events on the journal's clock (empty for passive clients).
    package var adapterEvents: [AdapterEvent]
    /// How the client process ended.
    package var client: ClientProcessResult

    /// Creates a transcript.
    package init(journal: [JournalEntry], adapterEvents: [AdapterEvent] = [], client: ClientProcessResult = .init()) {
        self.journal = journal
        self.adapterEvents = adapterEvents
        self.client = client
    }

    /// Indices of frames the client sent (text and binary), in order.
    package var clientFrameIndices: [Int] { journal.indices.filter { journal[$0].isFrame(.in) } }

    /// Indices of frames the server sent, in order.
    package var serverFrameIndices: [Int] { journal.indices.filter { journal[$0].isFrame(.out) } }

    /// The message type of the frame at `index`: the journal's `event`, else the protocol's
    /// name for it read from the JSON (multimodal directive / output event / header event,
    /// Qwen `type`); `nil` for binary frames and non-JSON text.
    package func messageType(at index: Int) -> String? {
        let entry = journal[index]
        guard entry.kind == .text else { return nil }
        if let type = entry.eventType { return type }
        return Self.messageType(of: entry.json)
    }

    /// The protocol's message name inside a parsed frame.
    package static func messageType(of json: JSONValue?) -> String? { MessageName.of(json) }

    /// Uplink audio in milliseconds for the frame at `index`: the audio summary when the server
    /// decoded it, else (a journal without summaries) the byte length as 16-bit mono PCM at
    /// `sampleRate`, but only when the client declared PCM: an Opus or MP3 frame the server could
    /// not summarise has an unknown length, not its byte count's.
    package func audioMilliseconds(at index: Int, sampleRate: Int) -> Double? {
        let entry = journal[index]
        if let audio = entry.audio { return audio.durationMs }
        guard declaredUplinkFormat == "pcm", let bytes = entry.byteLength, sampleRate > 0 else { return nil }
        return Double(bytes) / Double(2 * sampleRate) * 1000
    }

    /// The uplink format a multimodal client declared in Start (`upstream.audio_format`, default
    /// `pcm`, as the service assumes).
    package var declaredUplinkFormat: String {
        // Stops at the first Start (a multimodal session's first frame); no index array per call (called per audio frame).
        for entry in journal
        where entry.isFrame(.in) && DashScopeEnvelope.directiveName(of: entry.json) == Directive.start.rawValue {
            return DashScopeEnvelope.parameters(of: entry.json)?["upstream"]?["audio_format"]?.stringValue ?? "pcm"
        }
        return "pcm"
    }

    /// The first index at or after `start` whose entry satisfies `predicate`.
    package func firstIndex(from start: Int = 0, where predicate: (JournalEntry) -> Bool) -> Int? {
        guard start < journal.count else { return nil }
        return journal[max(start, 0)...].firstIndex(where: predicate)
    }

    /// The time of the entry at `index` in milliseconds.
    package func milliseconds(at index: Int) -> Double { Double(journal[index].t) / 1000 }
}
