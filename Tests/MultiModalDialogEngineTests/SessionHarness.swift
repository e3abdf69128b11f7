import AnswerAudio
import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import SessionTesting
import WireAudio
import WireJSON

/// Drives one session like the server's session driver, with a manual clock and no sockets:
/// inputs at chosen times, timers fired in time order, sent frames collected with their times.
final class SessionHarness {
    let runner: ManualSessionRunner<MultiModalDialogSession<ManualClock>>
    let memory: DialogMemory
    var clock: ManualClock { runner.clock }
    var session: MultiModalDialogSession<ManualClock> { runner.session }
    var timers: [SessionTimer: Int64] { runner.timers }
    var sent: [ScheduledFrame] { runner.sent }
    var journal: [JournalNote] { runner.notes }
    var closes: [(code: Int, atMicros: Int64)] { runner.closes.map { ($0.code, $0.atMicros) } }
    var taskID = "0b6c2a4e-7d1f-4c55-9a55-3f0e9d2b1c77"
    /// Put the dialog_id from Started into directives (as the Java SDK does).
    var sendsDialogID = true
    /// How often the session waited for answer audio a worker was still rendering.
    var awaited: Int { runner.awaited }

    init(
        scenario: Scenario = TestScenarios.plain, memory: DialogMemory = DialogMemory(),
        options: MultiModalDialogSessionOptions = MultiModalDialogSessionOptions(), sessionOrdinal: UInt64 = 0
    ) {
        self.memory = memory
        let clock = ManualClock()
        let bridge = ScenarioBridge(
            runtime: ScenarioRuntime(scenario: scenario, clock: clock, sessionOrdinal: sessionOrdinal))
        runner = ManualSessionRunner(
            session: MultiModalDialogSession(scenario: bridge, memory: memory, options: options), clock: clock)
    }

    var now: Int64 { clock.nowMicros }

    /// Carries out commands as the driver would.
    func process(_ commands: [SessionCommand]) { runner.process(commands) }

    /// Moves time to `micros`, firing every timer due on the way in time order.
    func advance(to micros: Int64) { runner.advance(toMicros: micros) }

    /// Moves time forward by `ms` milliseconds.
    func advance(ms: Int64) { runner.advance(ms: ms) }

    /// Sends a client text frame.
    func send(_ json: JSONValue) { runner.receive(text: json.encoded()) }

    /// Sends raw text (possibly not JSON).
    func sendRaw(_ text: String) { runner.receive(text: Array(text.utf8)) }

    /// Sends a directive with `continue-task` (or the given action).
    func directive(_ name: String, input: JSONObject = [:], parameters: JSONValue? = nil, action: String? = nil) {
        var input = input
        if sendsDialogID, input["dialog_id"] == nil, let id = dialogID { input["dialog_id"] = .string(id) }
        send(ClientMessages.directive(name, taskID: taskID, input: input, parameters: parameters, action: action))
    }

    /// Sends a binary frame.
    func sendBinary(_ bytes: [UInt8]) { runner.receive(binary: bytes) }

    /// Starts the session and waits until Listening is announced.
    func start(_ parameters: JSONObject = [:], dialogID: String? = nil) {
        send(ClientMessages.start(taskID: taskID, parameters: parameters, dialogID: dialogID))
        advance(ms: 200)
    }

    /// Streams PCM as 100 ms frames in real time, stopping early once `stop` holds.
    func stream(_ pcm: PCMBuffer, frameMs: Int = 100, stop: (SessionHarness) -> Bool = { _ in false }) {
        for chunk in FramePacing.chunk(pcm, milliseconds: frameMs) {
            if stop(self) { return }
            sendBinary(chunk.littleEndianBytes)
            advance(ms: Int64(frameMs))
        }
    }

    /// Streams like a tap2talk client: stops uploading at SpeechEnded.
    func streamUntilSpeechEnded(_ pcm: PCMBuffer) {
        stream(pcm) { $0.events.contains("SpeechEnded") }
    }

    /// Advances in 10 ms steps until `condition` holds (at most `maxMs`).
    func advance(untilMs maxMs: Int64 = 30_000, _ condition: (SessionHarness) -> Bool) {
        let end = now + maxMs * 1000
        while !condition(self), now < end { advance(ms: 10) }
    }

    /// Advances until `event` has been sent `count` times.
    func advance(until event: String, count: Int = 1) {
        advance { $0.events.filter { $0 == event }.count >= count }
    }

    /// The dialog_id from Started.
    var dialogID: String? { outputs("Started").first?["dialog_id"]?.stringValue }

    // MARK: - Reading what was sent

    /// Text frames' JSON in send order.
    var texts: [JSONValue] { sent.filter(\.isText).compactMap { try? JSONValue.decode($0.bytes) } }
    /// Dialog event names (`payload.output.event`, else `header.event`) in send order.
    var events: [String] { sent.filter(\.isText).compactMap(\.eventType) }
    /// Events and `<audio>` markers in order.
    var timeline: [String] { sent.map { $0.eventType ?? "<audio>" } }
    /// Binary frames.
    var audioFrames: [ScheduledFrame] { sent.filter { !$0.isText } }
    /// `payload.output` of every result-generated frame named `event`.
    func outputs(_ event: String) -> [JSONValue] {
        texts.compactMap { $0["payload"]?["output"] }.filter { $0["event"]?.stringValue == event }
    }
    /// States announced in order.
    var states: [String] { outputs("DialogStateChanged").compactMap { $0["state"]?.stringValue } }
    /// Violation obligation ids journaled.
    var violations: [String] {
        journal.compactMap { if case .violation(let id, _) = $0 { id } else { nil } }
    }
    /// Index of the first sent frame named `event`.
    func index(of event: String) -> Int? { timeline.firstIndex(of: event) }
    /// Index of the last sent frame named `event`.
    func lastIndex(of event: String) -> Int? { timeline.lastIndex(of: event) }
}
