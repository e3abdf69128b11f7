import AnswerAudio
import Dispatch
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
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

    let clock = ManualClock()
    let session: QwenRealtimeSession<ManualClock>
    private var timers: [SessionTimer: Int64] = [:]
    private(set) var frames: [Received] = []
    private(set) var notes: [JournalNote] = []
    private(set) var closes: [(code: Int, reason: String, atMicros: Int64)] = []
    private var sequence = 0
    /// How often the session waited for answer audio a worker was still rendering.
    private(set) var awaited = 0
    private var eventCounter = 0

    init(scenario: Scenario = QwenHarness.scenario(), model: String = "qwen-audio-3.0-realtime-plus", baseDirectory: String = ".",
         answerAudio: AnswerAudioCache = .inline) {
        let runtime = ScenarioRuntime(scenario: scenario, clock: clock)
        session = QwenRealtimeSession(
            scenario: ScenarioBridge(runtime: runtime), model: model, profile: QwenProfile(model: model)!,
            baseDirectory: baseDirectory, answerAudio: answerAudio)
        apply(session.open())
    }

    /// A scenario with immediate events and the given turns.
    static func scenario(_ turns: [TurnContent] = [], seed: UInt64 = 7, policies: SessionPolicies = SessionPolicies()) -> Scenario {
        Scenario(seed: seed, policies: policies, turns: TurnScript(list: turns))
    }

    // MARK: - Driver

    func apply(_ commands: [SessionCommand]) {
        for command in commands {
            switch command {
            case .send(let frame):
                if let json = try? JSONValue.decode(frame.bytes) {
                    frames.append(Received(atMicros: frame.sendAtMicros, sequence: sequence, json: json))
                }
                sequence += 1
            case .transport(.close(let code, let reason), let at):
                closes.append((code, reason, at))
            case .transport:
                continue
            case .scheduleTimer(let timer, let at):
                timers[timer] = at
            case .cancelTimer(let timer):
                timers[timer] = nil
            case .journal(let note):
                notes.append(note)
            case .awaitAudio(let handle, let timer):
                awaited += 1
                handle.waitUntilRendered()
                timers[timer] = clock.nowMicros
            }
        }
    }

    /// Runs due timers in time order up to `micros`, then sets the clock there.
    func advance(toMicros micros: Int64) {
        while let (timer, at) = timers.min(by: { $0.value < $1.value }), at <= micros {
            timers[timer] = nil
            if at > clock.nowMicros { clock.set(toMicros: at) }
            apply(session.timerFired(timer))
        }
        if micros > clock.nowMicros { clock.set(toMicros: micros) }
    }

    /// Advances the clock by `ms`, running timers.
    func advance(ms: Int64) { advance(toMicros: clock.nowMicros + ms * 1000) }

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
        let bytes = Array(text.utf8)
        apply(session.receive(text: bytes, classification: session.classify(text: bytes)))
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
            send("input_audio_buffer.append", ["audio": .string(Base64.encode(chunk.littleEndianBytes))])
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
