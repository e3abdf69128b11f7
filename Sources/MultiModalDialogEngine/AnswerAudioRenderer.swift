package import ScenarioEngine
package import WireAudio

/// Renders the PCM of an answer at the downstream rate, with `volume`, `speech_rate` and
/// `pitch_rate` from Start applied (§5.1, §7.2).
///
/// Synthesized answers come from `VoiceSynthesizer` (length follows the spoken text); fixture
/// answers (`.file`) are WAV files resolved against `baseDirectory`, resampled, time-stretched
/// and scaled. Same inputs and seed → identical samples.
package struct AnswerAudioRenderer: Sendable {
    /// The downstream settings.
    package var settings: DownlinkSettings
    /// Directory that relative fixture paths are resolved against (nil: the working directory).
    package var baseDirectory: String?

    /// Creates a renderer.
    package init(settings: DownlinkSettings, baseDirectory: String?) {
        self.settings = settings
        self.baseDirectory = baseDirectory
    }

    /// The answer audio for `audio` speaking `spoken`, or a problem text when a fixture
    /// cannot be read (the answer then has no audio).
    /// - Parameter seed: Voice seed (vary per round for natural variety, fixed for determinism).
    package func render(_ audio: TurnContent.Audio, spoken: String, seed: UInt64) -> (pcm: PCMBuffer, problem: String?) {
        let empty = PCMBuffer(sampleRate: settings.sampleRate)
        guard !settings.textOnly else { return (empty, nil) }
        switch audio {
        case .none:
            return (empty, nil)
        case .synthesized(let rate):
            var voice = VoiceSynthesizer(sampleRate: settings.sampleRate, seed: seed)
            voice.volume = settings.volume
            voice.speechRate = rate * Double(settings.speechRate) / 100
            voice.pitchRate = Double(settings.pitchRate) / 100
            return (voice.synthesize(spoken), nil)
        case .file(let path):
            let resolved = resolve(path)
            do {
                var pcm = try WAVFile.read(path: resolved)
                if pcm.sampleRate != settings.sampleRate { pcm = pcm.resampled(to: settings.sampleRate) }
                if settings.speechRate != 100 { pcm = pcm.applyingSpeechRate(percent: settings.speechRate) }
                if settings.volume != 50 { pcm = pcm.applyingVolume(settings.volume) }
                return (pcm, nil)
            } catch {
                return (empty, "answer fixture \(resolved) unreadable: \(error)")
            }
        }
    }

    /// `path` if absolute, else `baseDirectory/path`.
    package func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), let baseDirectory, !baseDirectory.isEmpty else { return path }
        return baseDirectory.hasSuffix("/") ? baseDirectory + path : baseDirectory + "/" + path
    }
}
