/// Uplink audio whose declared format lies about its rate: a client that captures at 24 kHz and
/// labels it 16 kHz streams, in real time, 1.5 s of "16 kHz audio" per second; one that sends
/// stereo as mono, 2 s. The service would hear it sped up (or slowed down) and misrecognise it.
///
/// The evidence is the sustained rate. Each chunk's audio over the time to the next chunk (at
/// most ``burstGapMs`` later) is one step's rate; the steps within ±``steadyBand`` of their
/// median are the steady stream. When they cover at least ``minimumWallMs`` and ``steadyShare``
/// of the streaming time, their rate is the client's, and it is a mislabel when it matches,
/// within ``tolerance``, the ratio of a common real format to the declared rate (8–48 kHz, mono
/// or stereo). A burst upload (a file sent as fast as possible) matches no such ratio; a client
/// that paces correctly sends 1.0; a pre-buffered start or a pause does not move the median.
package struct AudioMislabel: Sendable, Hashable {
    /// The rate the audio most likely has.
    package var likelyRate: Int
    /// Channels it most likely has (2: stereo sent as mono).
    package var likelyChannels: Int
    /// The rate the client declared.
    package var declaredRate: Int
    /// Audio sent per wall time over the steady steps.
    package var ratio: Double
    /// Wall time the steady steps cover, in milliseconds.
    package var wallMs: Double

    /// Chunks further apart than this are a pause (push-to-talk, turn gaps), not a step.
    package static let burstGapMs = 500.0
    /// Steps this close to the median rate are the steady stream.
    package static let steadyBand = 0.25
    /// The steady stream must last this long to call its rate sustained.
    package static let minimumWallMs = 1_000.0
    /// The share of the streaming time the steady stream must cover.
    package static let steadyShare = 0.6
    /// How far the measured ratio may be from a mislabel's.
    package static let tolerance = 0.08
    /// Real capture rates a client may forget to resample from.
    package static let commonRates = [8_000, 11_025, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]

    /// "24 kHz" or "16 kHz stereo" as the audio most likely is.
    package var likelyFormat: String {
        Self.kilohertz(likelyRate) + (likelyChannels == 2 ? " stereo" : "")
    }

    /// "audio looks like 24 kHz sent as 16 kHz (… at 147% of real time …)".
    package var summary: String {
        let speed = ratio > 1 ? "sped up" : "slowed down"
        return "audio looks like \(likelyFormat) sent as \(Self.kilohertz(declaredRate))"
            + (likelyChannels == 2 ? " mono" : "")
            + ": \(format(wallMs)) ms of streaming carried \(format(ratio * 100))% of real time, steadily"
            + " (the service would hear it \(speed))"
    }

    /// The mislabel `chunks` show (their `durationMs` at `declaredRate`), or nil.
    package static func detect(_ chunks: [UplinkAudio.Chunk], declaredRate: Int) -> AudioMislabel? {
        guard declaredRate > 0 else { return nil }
        var steps: [(audioMs: Double, wallMs: Double)] = []
        for (chunk, next) in zip(chunks, chunks.dropFirst()) {
            let gap = next.ms - chunk.ms
            guard gap > 0, gap <= burstGapMs, let audio = chunk.durationMs else { continue }
            steps.append((audio, gap))
        }
        guard !steps.isEmpty else { return nil }
        let rates = steps.map { $0.audioMs / $0.wallMs }.sorted()
        let median = rates[rates.count / 2]
        guard median > 0 else { return nil }
        let steady = steps.filter { abs($0.audioMs / $0.wallMs / median - 1) <= steadyBand }
        let steadyWall = steady.reduce(0) { $0 + $1.wallMs }
        let streamingWall = steps.reduce(0) { $0 + $1.wallMs }
        guard steadyWall >= minimumWallMs, steadyWall / streamingWall >= steadyShare else { return nil }
        let ratio = steady.reduce(0) { $0 + $1.audioMs } / steadyWall
        var best: (rate: Int, channels: Int, distance: Double)?
        // Mono first: of two formats with one ratio (48 kHz, 24 kHz stereo), the common one.
        for channels in [1, 2] {
            for rate in commonRates {
                let factor = Double(rate * channels) / Double(declaredRate)
                guard abs(factor - 1) > 0.01 else { continue }
                let distance = abs(ratio / factor - 1)
                if distance <= tolerance, distance < (best?.distance ?? .infinity) - 1e-9 {
                    best = (rate, channels, distance)
                }
            }
        }
        guard let best else { return nil }
        return AudioMislabel(
            likelyRate: best.rate, likelyChannels: best.channels, declaredRate: declaredRate, ratio: ratio,
            wallMs: steadyWall)
    }

    private static func kilohertz(_ rate: Int) -> String {
        rate % 1000 == 0 ? "\(rate / 1000) kHz" : "\(format(Double(rate) / 1000)) kHz"
    }
}
