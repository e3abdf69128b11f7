import WireJSON

/// When the server speaks: a delay distribution per server event type, jitter, and the
/// streaming cadences for answer audio and text.
///
/// Event types are the protocol's own names (`SpeechStarted`, `RespondingStarted`,
/// `response.created`, `session.created`); `"*"` is the default for any other type.
package struct TimingModel: Sendable, Hashable {
    /// The key for the distribution used when an event type has none of its own.
    package static let defaultKey = "*"

    /// Delay distributions keyed by server event type (or `"*"`).
    package var events: [String: DelayDistribution]
    /// Uniform jitter in `[-jitterMs, +jitterMs]` added to every sampled delay (result ≥ 0).
    package var jitterMs: Double
    /// Cadence for streamed answer audio.
    package var audio: AudioCadence
    /// Cadence for streamed answer text.
    package var text: TextCadence

    /// Creates a timing model; with no arguments every event is immediate.
    package init(
        events: [String: DelayDistribution] = [:], jitterMs: Double = 0,
        audio: AudioCadence = AudioCadence(), text: TextCadence = TextCadence()
    ) {
        self.events = events
        self.jitterMs = jitterMs
        self.audio = audio
        self.text = text
    }

    /// The distribution for `eventType`, falling back to `"*"` and then to zero delay.
    package func distribution(for eventType: String) -> DelayDistribution {
        events[eventType] ?? events[Self.defaultKey] ?? .fixed(0)
    }

    /// Samples the delay before `eventType` in microseconds, jitter included (two draws when
    /// jitter is on, one or more for the distribution; the count depends only on the scenario).
    package func sampleDelayMicros(for eventType: String, using random: inout SeededRandom) -> Int64 {
        var ms = distribution(for: eventType).sampleMs(using: &random)
        if jitterMs > 0 {
            ms = max(0, ms + random.nextDouble(in: -jitterMs, jitterMs))
        }
        return Int64((ms * 1000).rounded())
    }
}

extension TimingModel {
    /// Parses the `timing` object.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> TimingModel {
        let reader = try context.object(value, at: tokens)
        try reader.rejectUnknownKeys(allowing: ["events", "jitterMs", "audio", "text"])
        var model = TimingModel()
        if let events = try reader.object("events") {
            for (name, distribution) in events.object {
                model.events[name] = try DelayDistribution.parse(distribution, at: events.path(name), context: context)
            }
        }
        model.jitterMs = try reader.double("jitterMs", in: 0...60_000) ?? 0
        if let audio = try reader.object("audio") {
            try audio.rejectUnknownKeys(allowing: ["chunkMs", "realTimeFactor"])
            model.audio.chunkMs = try audio.double("chunkMs", in: 5...1000) ?? model.audio.chunkMs
            model.audio.realTimeFactor =
                try audio.double("realTimeFactor", in: 0.1...1000) ?? model.audio.realTimeFactor
        }
        if let text = try reader.object("text") {
            try text.rejectUnknownKeys(allowing: ["timeToFirstTokenMs", "tokensPerSecond", "tokenization"])
            model.text.timeToFirstTokenMs =
                try text.double("timeToFirstTokenMs", in: 0...60_000) ?? model.text.timeToFirstTokenMs
            model.text.tokensPerSecond =
                try text.double("tokensPerSecond", in: 0.1...10_000) ?? model.text.tokensPerSecond
            model.text.tokenization = try text.enumeration("tokenization", as: TextCadence.Tokenization.self) ?? .auto
        }
        return model
    }
}
