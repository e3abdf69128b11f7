import DialogClients
import WireAudio

/// The `wrong-rate` faults: a client that captures at 48 kHz (`wrong-rate`) or 24 kHz
/// (`wrong-rate-24k`, as third-party clients that send 24 kHz PCM labelled `pcm16` do) and
/// forgets to resample. The session declares 16 kHz PCM; the speech goes as capture-rate samples
/// in 20 ms frames, paced as capture-rate audio, so the server receives 3× (1.5×) the declared
/// rate: each 48 kHz frame is 60 ms of 16 kHz audio, one every 20 ms.
enum UnresampledSpeech {
    /// One frame's wall-clock length.
    static let frameMillis = 20

    /// `pcm16k` (s16le at 16 kHz) as `captureRate` s16le frames of ``frameMillis``.
    static func frames(of pcm16k: [UInt8], captureRate: Int) -> [[UInt8]] {
        let bytes = PCMBuffer(littleEndianBytes: pcm16k, sampleRate: 16_000).resampled(to: captureRate)
            .littleEndianBytes
        return AudioChunker.ranges(count: bytes.count, chunkBytes: captureRate * 2 * frameMillis / 1000).map {
            Array(bytes[$0])
        }
    }

    /// Sends each frame of `pcm16k` at `captureRate` with `send`, one every ``frameMillis`` (real
    /// time at the capture rate), until `send` returns false (the session is over).
    static func stream(_ pcm16k: [UInt8], captureRate: Int, _ send: (_ frame: [UInt8]) -> Bool) async {
        let clock = ContinuousClock()
        let start = clock.now
        for (index, frame) in frames(of: pcm16k, captureRate: captureRate).enumerated() {
            guard send(frame) else { return }
            try? await clock.sleep(until: start + .milliseconds(frameMillis * (index + 1)))
        }
    }
}
