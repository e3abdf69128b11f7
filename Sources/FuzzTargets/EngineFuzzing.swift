import AnswerAudio
import MockServer
import MultiModalDialogEngine
import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import SessionTesting

/// Feeds client frames to a real engine through ``ManualSessionRunner`` and then lets the
/// session run out its timers: no frame, timing or order may crash it or make it loop.
enum EngineFuzzing {
    /// Scenarios an input may pick with its variant byte: the shipped ones whose faults,
    /// triggers and policies reach other paths, each with the quick scenario's short answers
    /// and timing (streaming long answers would spend the fuzzer's time in base64), spoken
    /// (variants 0–10) or text only (11–15: no audio is streamed).
    static let scenarios: [Scenario] = {
        let quick = shipped("quick")
        let spoken = [
            "quick", "default", "inject-error", "duplicate", "reorder", "idle-end", "truncated", "fragment",
            "malformed",
            "session-expiry", "unknown-event",
        ].map { name in
            var scenario = shipped(name)
            scenario.turns = quick.turns
            scenario.timing = quick.timing
            return scenario
        }
        let textOnly = spoken.prefix(5).map { scenario in
            var scenario = scenario
            scenario.turns.list = scenario.turns.list.map { turn in
                var turn = turn
                turn.audio = .none
                return turn
            }
            scenario.turns.fallback.audio = .none
            return scenario
        }
        return spoken + textOnly
    }()

    private static func shipped(_ name: String) -> Scenario {
        guard let text = EmbeddedScenarios.files[name],
            let scenario = try? Scenario.load(text: text, file: "\(name).json")
        else {
            fatalError("shipped scenario \(name) does not load")
        }
        return scenario
    }

    /// One answer cache for every input: inline rendering (no threads), bounded in bytes.
    /// A synthesized answer speaks at most ``spokenPrefix`` characters of its text: each input
    /// brings new answer keys (a RequestToRespond text of up to 4 KB, or another voice, rate or
    /// volume), and voicing them in full took 60 % of the multimodal target's time, which fell
    /// to 92 inputs a second on a grown corpus (7,165 with the prefix). The prefix still puts
    /// every kind of text through the synthesizer, and the engine streams whatever comes back.
    static let answerAudio = AnswerAudioCache(byteBudget: 32 << 20, workers: 0) { key in
        var key = key
        if case .synthesized(let text, let rate) = key.source, text.count > spokenPrefix {
            key.source = .synthesized(text: String(text.prefix(spokenPrefix)), rate: rate)
        }
        return AnswerRenderer.render(key)
    }
    static let spokenPrefix = 12
    static let qwenModels = ["qwen-omni-turbo-realtime", "qwen3-omni-flash-realtime", "qwen-audio-3.0-realtime-plus"]
    /// Qwen-Audio-Live service models: the documented one and a dated snapshot of it.
    static let liveModels = [QwenAudioLive.serviceModel, QwenAudioLive.serviceModel + "-20261123"]
    /// Simulated time a session may run after its last input (answers stream out, timeouts fire).
    static let drainMicros: Int64 = 60_000_000

    static func runMultimodalDialog(_ bytes: [UInt8]) {
        let (variant, steps) = EngineInput.parse(bytes)
        let clock = ManualClock()
        var options = MultiModalDialogSessionOptions()
        options.answerAudio = answerAudio
        let session = MultiModalDialogSession(
            scenario: bridge(variant, clock), memory: DialogMemory(), options: options)
        drive(ManualSessionRunner(session: session, clock: clock), steps)
    }

    static func runQwenRealtime(_ bytes: [UInt8]) { runQwen(bytes, models: qwenModels) }

    static func runQwenAudioLive(_ bytes: [UInt8]) { runQwen(bytes, models: liveModels) }

    /// A Qwen engine session of the dialect serving one of `models` (the variant's upper bits
    /// pick it, the lower ones the scenario).
    private static func runQwen(_ bytes: [UInt8], models: [String]) {
        let (variant, steps) = EngineInput.parse(bytes)
        let clock = ManualClock()
        let model = models[Int(variant / 16) % models.count]
        guard let profile = QwenProfile(model: model) else { fatalError("no Qwen dialect serves \(model)") }
        let session = QwenRealtimeSession(
            scenario: bridge(variant, clock), model: model, profile: profile, answerAudio: answerAudio)
        drive(ManualSessionRunner(session: session, clock: clock), steps)
    }

    private static func bridge(_ variant: UInt8, _ clock: ManualClock) -> ScenarioBridge<ManualClock> {
        ScenarioBridge(runtime: ScenarioRuntime(scenario: scenarios[Int(variant % 16)], clock: clock))
    }

    private static func drive<Session: ProtocolSession>(
        _ runner: ManualSessionRunner<Session>, _ steps: [EngineInput.Step]
    ) {
        for step in steps {
            guard runner.closes.isEmpty else { break }
            switch step {
            case .text(let bytes): runner.receive(text: bytes)
            case .binary(let bytes): runner.receive(binary: bytes)
            case .wait(let ms): runner.advance(ms: ms)
            case .close:
                runner.session.closed(peerCode: 1000)
                return
            }
            runner.advance(ms: 1)
        }
        // Let it run out: every timer due within the drain window fires, and a session that
        // keeps rescheduling without end is a hang libFuzzer reports.
        runner.advance(toMicros: runner.nowMicros + drainMicros)
        runner.session.closed(peerCode: nil)
    }
}
