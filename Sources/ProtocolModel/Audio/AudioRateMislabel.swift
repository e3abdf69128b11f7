/// Uplink audio whose declared format lies about its rate: a client that captures at 24 kHz and
/// labels it 16 kHz streams, in real time, 1.5 s of "16 kHz audio" per second; one that sends
/// stereo as mono, 2 s. The service would hear it sped up (or slowed down) and misrecognise it:
/// a MUST of the audio-format obligation (``DialogProtocol/audioFormatObligation``).
///
/// The evidence is the sustained rate. Each chunk's audio over the time to the next chunk (at
/// most ``burstGapMs`` later) is one step's rate; the steps within ±``steadyBand`` of their
/// median are the steady stream. When they cover at least ``minimumWallMs`` and ``steadyShare``
/// of the streaming time, their rate is the client's, and it is a mislabel when it matches,
/// within ``tolerance``, the ratio of a common real format to the declared rate (8–48 kHz, mono
/// or stereo; mono first). A burst upload (a file sent as fast as possible) matches no such
/// ratio; a client that paces correctly sends 1.0; a pre-buffered start or a pause does not move
/// the median. The harness judges a whole journal with it (``judge(_:declaredRate:)``); the mock
/// judges the last steps as frames arrive (``AudioRateMonitor``).
package struct AudioRateMislabel: Sendable, Hashable {
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

    /// One step of the stream: a chunk's audio and the wall time to the next chunk.
    package struct Step: Sendable, Hashable {
        package var audioMs: Double
        package var wallMs: Double
        package init(audioMs: Double, wallMs: Double) {
            self.audioMs = audioMs
            self.wallMs = wallMs
        }
    }

    /// "24 kHz" or "16 kHz stereo" as the audio most likely is.
    package var likelyFormat: String {
        Self.kilohertz(likelyRate) + (likelyChannels == 2 ? " stereo" : "")
    }

    /// "audio looks like 24 kHz sent as 16 kHz: … at 150% of real time, steadily (…)".
    package var summary: String {
        let speed = ratio > 1 ? "sped up" : "slowed down"
        return "audio looks like \(likelyFormat) sent as \(Self.kilohertz(declaredRate))"
            + (likelyChannels == 2 ? " mono" : "")
            + ": \(Self.decimal(wallMs)) ms of streaming carried \(Self.decimal(ratio * 100))% of real time, steadily"
            + " (the service would hear it \(speed))"
    }

    /// The step between a chunk at `ms` of `durationMs` and the next one at `nextMs`, or nil
    /// across a pause (or two chunks at the same instant).
    package static func step(ms: Double, durationMs: Double, nextMs: Double) -> Step? {
        let gap = nextMs - ms
        return gap > 0 && gap <= burstGapMs ? Step(audioMs: durationMs, wallMs: gap) : nil
    }

    /// The mislabel `steps` show at `declaredRate`, or nil. `scratch` holds the rates while they
    /// are sorted (the mock passes a buffer it keeps, so a judgement allocates nothing).
    package static func judge(
        _ steps: some Collection<Step>, declaredRate: Int, scratch: inout [Double]
    ) -> AudioRateMislabel? {
        guard declaredRate > 0, !steps.isEmpty else { return nil }
        scratch.removeAll(keepingCapacity: true)
        for step in steps { scratch.append(step.audioMs / step.wallMs) }
        scratch.sort()
        let median = scratch[scratch.count / 2]
        guard median > 0 else { return nil }
        var (steadyWall, steadyAudio, streamingWall) = (0.0, 0.0, 0.0)
        for step in steps {
            streamingWall += step.wallMs
            if abs(step.audioMs / step.wallMs / median - 1) <= steadyBand {
                steadyWall += step.wallMs
                steadyAudio += step.audioMs
            }
        }
        guard steadyWall >= minimumWallMs, steadyWall / streamingWall >= steadyShare else { return nil }
        let ratio = steadyAudio / steadyWall
        guard let format = likelyFormat(ratio: ratio, declaredRate: declaredRate) else { return nil }
        return AudioRateMislabel(
            likelyRate: format.rate, likelyChannels: format.channels, declaredRate: declaredRate, ratio: ratio,
            wallMs: steadyWall)
    }

    /// ``judge(_:declaredRate:scratch:)`` with a scratch buffer of its own.
    package static func judge(_ steps: some Collection<Step>, declaredRate: Int) -> AudioRateMislabel? {
        var scratch: [Double] = []
        return judge(steps, declaredRate: declaredRate, scratch: &scratch)
    }

    /// The common format whose ratio to `declaredRate` is nearest `ratio` within ``tolerance``
    /// (not the declared format itself; mono before stereo on a tie).
    static func likelyFormat(ratio: Double, declaredRate: Int) -> (rate: Int, channels: Int)? {
        var best: (rate: Int, channels: Int, distance: Double)?
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
        return best.map { ($0.rate, $0.channels) }
    }

    private static func kilohertz(_ rate: Int) -> String {
        rate % 1000 == 0 ? "\(rate / 1000) kHz" : "\(decimal(Double(rate) / 1000)) kHz"
    }

    /// At most one decimal.
    private static func decimal(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}

/// The mock's side of ``AudioRateMislabel``: the last ``capacity`` steps of a session's uplink
/// in a ring it keeps (allocated at the first audio frame), judged every ``judgeEvery`` steps
/// once there are enough, until a mislabel is found. Per frame: two stores, no allocation.
package struct AudioRateMonitor: Sendable {
    /// Steps kept (at 20 ms frames, 2.5 s of streaming; at 100 ms, 12.8 s).
    package static let capacity = 128
    /// Steps between two judgements.
    package static let judgeEvery = 16

    private var steps: [AudioRateMislabel.Step] = []
    private var next = 0
    private var sinceJudged = 0
    private var last: (ms: Double, durationMs: Double)?
    private var scratch: [Double] = []
    /// The mislabel found (judging stops there).
    package private(set) var found: AudioRateMislabel?

    package init() {}

    /// Takes a chunk of `durationMs` declared audio that arrived at `ms`; returns the mislabel
    /// the first time one is found.
    package mutating func add(ms: Double, durationMs: Double, declaredRate: Int) -> AudioRateMislabel? {
        guard found == nil else { return nil }
        defer { last = (ms, durationMs) }
        guard let last, let step = AudioRateMislabel.step(ms: last.ms, durationMs: last.durationMs, nextMs: ms) else {
            return nil
        }
        if steps.count < Self.capacity {
            if steps.isEmpty { steps.reserveCapacity(Self.capacity) }
            steps.append(step)
        } else {
            steps[next] = step
            next = (next + 1) % Self.capacity
        }
        sinceJudged += 1
        guard sinceJudged >= Self.judgeEvery else { return nil }
        sinceJudged = 0
        found = AudioRateMislabel.judge(steps, declaredRate: declaredRate, scratch: &scratch)
        return found
    }
}
