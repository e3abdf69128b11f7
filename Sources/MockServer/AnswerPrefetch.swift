import AnswerAudio
import MockSessions
import MultiModalDialogEngine
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore

/// Starts rendering a scenario's scripted answers, on the cache's workers, as soon as it loads:
/// in the formats clients ask for most (Qwen PCM 24 kHz; multimodal PCM 16 and 24 kHz), so that
/// a session's first answer is already rendered when it is due.
enum AnswerPrefetch {
    static func keys(for scenario: Scenario) -> [AnswerAudioKey] {
        var turns = scenario.turns.list
        turns.append(scenario.turns.fallback)
        var keys: [AnswerAudioKey] = []
        for turn in turns {
            let source: AnswerAudioKey.Source
            switch turn.audio {
            case .none, .file: continue
            case .synthesized(let rate): source = .synthesized(text: turn.spoken, rate: rate)
            }
            keys.append(
                QwenRealtimeSession<MonotonicScenarioClock>.answerKey(source, sampleRate: 24000, scenario: scenario))
            for rate in [16000, 24000] {
                var downlink = DownlinkSettings()
                downlink.sampleRate = rate
                keys.append(
                    MultiModalDialogSession<MonotonicScenarioClock>.answerKey(
                        source, downlink: downlink, seed: scenario.seed, cadence: scenario.timing.audio))
            }
        }
        return keys
    }

    static func start(_ scenario: Scenario, cache: AnswerAudioCache) {
        cache.prefetch(keys(for: scenario))
    }
}
