import DialogClients
import WireAudio

/// The `wrong-rate` faults: a client that captures at 48 kHz and forgets to resample. The
/// session declares 16 kHz PCM; the speech goes as 48 kHz samples in 20 ms frames, paced as
/// 48 kHz audio, so the server receives three times the declared rate (each frame is 60 ms of
/// 16 kHz audio, one every 20 ms) and the harness's `audioPacing` reads 300 % of real time.
enum UnresampledSpeech {
    /// The rate the client really captures at.
    static let captureRate = 48_000
    /// One frame's wall-clock length.
    static let frameMillis = 20

    /// `pcm16k` (s16le at 16 kHz) as 48 kHz s16le frames of ``frameMillis``.
    static func frames(of pcm16k: [UInt8]) -> [[UInt8]] {
        let bytes = PCMBuffer(littleEndianBytes: pcm16k, sampleRate: 16_000).resampled(to: captureRate)
            .littleEndianBytes
        return AudioChunker.ranges(count: bytes.count, chunkBytes: captureRate * 2 * frameMillis / 1000).map {
            Array(bytes[$0])
        }
    }

    /// Sends each frame of `pcm16k` with `send`, one every ``frameMillis`` (real time at 48 kHz),
    /// until `send` returns false (the session is over).
    static func stream(_ pcm16k: [UInt8], _ send: (_ frame: [UInt8]) -> Bool) async {
        let clock = ContinuousClock()
        let start = clock.now
        for (index, frame) in frames(of: pcm16k).enumerated() {
            guard send(frame) else { return }
            try? await clock.sleep(until: start + .milliseconds(frameMillis * (index + 1)))
        }
    }
}
