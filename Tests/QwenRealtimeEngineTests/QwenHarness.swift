import AnswerAudio
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import SessionTesting
import WireAudio
import WireJSON

/// Drives a `QwenRealtimeSession` like the server's session driver, without sockets: a
/// `ManualClock`, a timer table, frames recorded at their send times.
final class QwenHarness {
    /// A server frame as the client would receive it.
    struct Received {
        var atMicros: Int64
        var sequence: Int
        var json: JSONValue
        var type: String { json["type"]?.stringValue ?? "" }
    }

    let runner: ManualSessionRunner<QwenRealtimeSession<ManualClock>>
    var clock: ManualClock { runner.clock }
    var session: QwenRealtimeSession<ManualClock> { runner.session }
    var notes: [JournalNote] { runner.notes }
    var closes: [(code: Int, reason: String, atMicros: Int64)] { runner.closes }
    /// How often the session waited for answer audio a worker was still rendering.
    var awaited: Int { runner.awaited }
    /// The sent frames decoded so far (decoded once each, in the order they were handed over).
    private var decoded: [Received] = []
    private var decodedCount = 0
    private var eventCounter = 0
    /// The client event ``appendAudio(_:rate:chunkMs:)`` sends (the dialect's append event).
    var appendEvent = "input_audio_buffer.append"

    init(
        scenario: Scenario = QwenHarness.scenario(), model: String = "qwen-audio-3.0-realtime-plus",
        baseDirectory: String = ".",
        answerAudio: AnswerAudioCache = .inline, dialects: QwenDialects = .standard
    ) {
        let clock = ManualClock()
        let runtime = ScenarioRuntime(scenario: scenario, clock: clock)
        let session = QwenRealtimeSession(
            scenario: ScenarioBridge(runtime: runtime), model: model, dialect: dialects.dialect(forModel: model)!,
            baseDirectory: baseDirectory, answerAudio: answerAudio)
        runner = ManualSessionRunner(session: session, clock: clock)
    }

    /// A scenario with immediate events and the given turns.
    static func scenario(
        _ turns: [TurnContent] = [], seed: UInt64 = 7, policies: SessionPolicies = SessionPolicies()
    ) -> Scenario {
        Scenario(seed: seed, policies: policies, turns: TurnScript(list: turns))
    }

    // MARK: - Driver

    func apply(_ commands: [SessionCommand]) { runner.process(commands) }

    /// Runs due timers in time order up to `micros`, then sets the clock there.
    func advance(toMicros micros: Int64) { runner.advance(toMicros: micros) }

    /// Advances the clock by `ms`, running timers.
    func advance(ms: Int64) { runner.advance(ms: ms) }

    /// JSON frames with their send times.
    var frames: [Received] {
        while decodedCount < runner.sent.count {
            let frame = runner.sent[decodedCount]
            if let json = try? JSONValue.decode(frame.bytes) {
                decoded.append(Received(atMicros: frame.sendAtMicros, sequence: decodedCount, json: json))
            }
            decodedCount += 1
        }
        return decoded
    }

    // MARK: - Client

    /// Sends a client event; adds an `event_id` unless `eventID` is empty.
    @discardableResult
    func send(_ type: String, _ fields: JSONObject = [:], eventID: String? = nil) -> String {
        eventCounter += 1
        let id = eventID ?? "event_client\(eventCounter)"
        var object: JSONObject = ["type": .string(type)]
        if !id.isEmpty { object["event_id"] = .string(id) }
        for (key, value) in fields { object[key] = value }
        sendText(JSONValue.object(object).encodedString())
        return id
    }

    /// Sends raw text as a text frame.
    func sendText(_ text: String) {
        runner.receive(text: Array(text.utf8))
    }

    /// Sends raw text classified from its JSON tree, never read in place (the reference the
    /// in-place path of `input_audio_buffer.append` must match).
    func sendTextThroughJSONTree(_ text: String) {
        let bytes = Array(text.utf8)
        let json = try? JSONValue.decode(bytes)
        let classification = InboundClassification(eventType: json?["type"]?.stringValue, json: json)
        apply(session.receive(text: bytes, classification: classification))
    }

    /// Appends `buffer` (resampled to `rate`) in `chunkMs` chunks, in real time.
    func appendAudio(_ buffer: PCMBuffer, rate: Int = 16000, chunkMs: Int = 100) {
        let audio = buffer.resampled(to: rate)
        let step = rate * chunkMs / 1000
        var start = 0
        while start < audio.count {
            let chunk = audio.slice(samples: start..<min(start + step, audio.count))
            send(appendEvent, ["audio": .string(Base64.encode(chunk.littleEndianBytes))])
            advance(ms: Int64(chunkMs))
            start += step
        }
    }

    /// Appends `ms` of digital silence.
    func appendSilence(ms: Int, rate: Int = 16000) {
        appendAudio(PCMBuffer.silence(milliseconds: ms, sampleRate: rate), rate: rate)
    }

    // MARK: - Reading

    /// Frames in send order.
    var received: [Received] { frames.sorted { ($0.atMicros, $0.sequence) < ($1.atMicros, $1.sequence) } }
    /// Types in send order.
    var types: [String] { received.map(\.type) }
    /// Frames of one type.
    func events(_ type: String) -> [JSONValue] { received.filter { $0.type == type }.map(\.json) }
    /// Types received after the first frame of `type`'s index `from`.
    func types(since count: Int) -> [String] { Array(types.dropFirst(count)) }
    /// Journaled violations' obligation ids.
    var violations: [String] {
        notes.compactMap { if case .violation(let id, _) = $0 { id } else { nil } }
    }
    /// Journaled states.
    var states: [String] {
        notes.compactMap { if case .state(let name) = $0 { name } else { nil } }
    }
    /// Types with all audio / transcript / text deltas removed (for order assertions).
    func compactTypes(since count: Int = 0) -> [String] {
        let deltas: Set<String> = ["response.audio.delta", "response.audio_transcript.delta", "response.text.delta"]
        return types(since: count).filter { !deltas.contains($0) }
    }
}
