/// What a binary (or base64) audio payload contained, measured by the server's audio layer.
package struct AudioSummary: Sendable, Hashable {
    /// `pcm`, `opus`, `raw-opus`, `mp3`, `wav` …
    package var codec: String
    /// Audio length in milliseconds.
    package var durationMs: Double
    /// Number of codec frames (PCM: 1 per WebSocket frame; Opus: packets).
    package var frames: Int
    /// Sample rate in Hz, when known.
    package var sampleRate: Int?

    /// Creates a summary.
    package init(codec: String, durationMs: Double, frames: Int = 1, sampleRate: Int? = nil) {
        self.codec = codec
        self.durationMs = durationMs
        self.frames = frames
        self.sampleRate = sampleRate
    }
}

/// A note describing one application of a fault, for the journal and the report.
package struct FaultNote: Sendable, Hashable {
    /// The fault's id from the scenario, if it has one.
    package var faultId: String?
    /// The fault kind as named in scenario files (`duplicate`, `close`, …).
    package var kind: String
    /// What happened, e.g. `dropped response.audio.delta (3120 bytes)`.
    package var detail: String

    /// Creates a note.
    package init(faultId: String?, kind: String, detail: String) {
        self.faultId = faultId
        self.kind = kind
        self.detail = detail
    }
}

/// A client deviation from the protocol noticed by the server (not an error of the mock).
package struct Violation: Sendable, Hashable {
    /// Obligation id from the specs, e.g. `mmd.C8`, `qrt.C11`.
    package var obligation: String
    /// What the client did.
    package var message: String

    /// Creates a violation record.
    package init(obligation: String, message: String) {
        self.obligation = obligation
        self.message = message
    }
}
