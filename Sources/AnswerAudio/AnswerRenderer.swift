import ScenarioEngine
import WireAudio

/// Renders one `AnswerAudioKey`: synthesis or fixture, resampling, speech rate, volume, then
/// framing along the cadence. A pure function of the key (same key → identical bytes); it is
/// slow (milliseconds per second of audio), so servers call it on a worker thread through
/// `AnswerAudioCache`, never on a service thread.
package enum AnswerRenderer {
    package static func render(_ key: AnswerAudioKey) -> RenderedAnswer {
        let (pcm, problem) = samples(key)
        guard !pcm.isEmpty else { return RenderedAnswer(frames: [], durationMicros: 0, problem: problem) }
        let durationMicros = Int64(pcm.count) * 1_000_000 / Int64(pcm.sampleRate)
        let chunks = key.cadence.chunks(forDurationMicros: durationMicros)
        do {
            return RenderedAnswer(
                frames: try AnswerEncoder.encode(pcm, chunks: chunks, encoding: key.encoding),
                durationMicros: durationMicros, problem: problem)
        } catch {
            return RenderedAnswer(frames: [], durationMicros: 0, problem: "answer audio encoder failed: \(error)")
        }
    }

    /// The answer's PCM at the key's rate with its volume and rates applied.
    static func samples(_ key: AnswerAudioKey) -> (PCMBuffer, String?) {
        switch key.source {
        case .synthesized(let text, let rate):
            return (synthesize(text, rate: rate, key), nil)
        case .file(let path, let folder, let fallbackText):
            do {
                var pcm = try WAVFile.read(path: path, inside: folder)
                if pcm.sampleRate != key.sampleRate { pcm = pcm.resampled(to: key.sampleRate) }
                if key.speechRatePercent != 100 { pcm = pcm.applyingSpeechRate(percent: key.speechRatePercent) }
                if key.volume != 50 { pcm = pcm.applyingVolume(key.volume) }
                return (pcm, nil)
            } catch {
                let problem = "answer fixture \(path) unreadable: \(error)"
                guard let fallbackText else { return (PCMBuffer(sampleRate: key.sampleRate), problem) }
                return (synthesize(fallbackText, rate: 1, key), problem + " (synthesized instead)")
            }
        }
    }

    private static func synthesize(_ text: String, rate: Double, _ key: AnswerAudioKey) -> PCMBuffer {
        var voice = VoiceSynthesizer(sampleRate: key.sampleRate, seed: key.seed)
        voice.volume = key.volume
        voice.speechRate = rate * Double(key.speechRatePercent) / 100
        voice.pitchRate = Double(key.pitchRatePercent) / 100
        return voice.synthesize(text)
    }
}
