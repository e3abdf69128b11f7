/// Streaming energy-based voice activity detector with an adaptive noise floor. Pure Swift and
/// deterministic: the same samples give the same events however they are chunked.
///
/// Audio is cut into `frameMs` frames (10 ms); each frame's RMS level in dBFS is compared with
/// the thresholds described in `VADConfiguration`. The noise floor starts at the first frame's
/// level, drops immediately to any quieter frame and rises at most `noiseFloorRiseDBPerSecond`,
/// so steady background noise raises the bar above itself while speech, which has pauses, keeps
/// it low. A stream that *opens* loud (a client streaming a fixture or a tone with no lead
/// silence) has no quieter frame to set the floor by: when that opening lasts at least
/// `minSpeechMs` and ends in a drop below the absolute threshold and `marginAboveNoiseDB` below
/// its quietest frame, it was speech, reported at the drop as started at 0 (as a model-based
/// service VAD would have heard it); steady noise never drops, so it stays silence.
/// Times come from sample counts, not clocks, and are frame-accurate (10 ms).
/// Limitation: noise that appears suddenly after digital silence and is louder than the
/// absolute threshold is taken for speech until the floor has risen to it.
package struct VoiceActivityDetector: Sendable {
    private enum State: Sendable {
        case silence
        case candidate(startSample: Int, voicedMs: Int, gapMs: Int)
        case speech(lastVoicedEndSample: Int)
    }

    /// The settings in use.
    package let configuration: VADConfiguration
    /// Sample rate of the fed audio.
    package let sampleRate: Int
    /// Current noise floor estimate in dBFS (nil before the first frame).
    package private(set) var noiseFloorDBFS: Double?
    /// Samples analysed so far (whole frames only).
    package private(set) var processedSamples = 0

    private let frameSamples: Int
    private var pending: [Int16] = []
    private var state = State.silence
    /// The quietest level of the loud stretch the stream opened with (nil before its first frame).
    private var openingMinLevel: Double?
    /// Whether the stream's opening stretch is over (decided as speech or not).
    private var openingIsOver = false

    /// Creates a detector for audio at `sampleRate`.
    package init(sampleRate: Int, configuration: VADConfiguration = VADConfiguration()) {
        self.sampleRate = sampleRate
        self.configuration = configuration
        self.frameSamples = max(1, sampleRate * configuration.frameMs / 1000)
    }

    /// Milliseconds analysed so far.
    package var processedMs: Int { processedSamples * 1000 / sampleRate }

    /// Whether speech is currently ongoing (started and not yet stopped).
    package var isSpeaking: Bool {
        if case .speech = state { return true }
        return false
    }

    /// Feeds samples (any count) and returns the events completed by them.
    package mutating func feed(_ samples: some Collection<Int16>) -> [VADEvent] {
        if let events = samples.withContiguousStorageIfAvailable({ feedContiguous($0) }) { return events }
        return feed(Array(samples))
    }

    /// Feeds samples (from any module, without generic per-element calls).
    package mutating func feed(_ samples: [Int16]) -> [VADEvent] {
        samples.withUnsafeBufferPointer { feedContiguous($0) }
    }

    /// Feeds samples from memory the caller holds (e.g. s16le wire bytes on a little-endian host).
    package mutating func feed(_ samples: UnsafeBufferPointer<Int16>) -> [VADEvent] {
        feedContiguous(samples)
    }

    /// Frames are analysed where the samples are; only a frame's start left over from the
    /// previous call, or the rest of this one, is copied into `pending`.
    private mutating func feedContiguous(_ samples: UnsafeBufferPointer<Int16>) -> [VADEvent] {
        var events: [VADEvent] = []
        var start = 0
        if !pending.isEmpty {
            let needed = frameSamples - pending.count
            guard samples.count >= needed else {
                pending.append(contentsOf: samples)
                return []
            }
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: samples[0..<needed]))
            var frame: [Int16] = []
            swap(&frame, &pending)
            if let event = frame.withUnsafeBufferPointer({ analyse($0) }) { events.append(event) }
            frame.removeAll(keepingCapacity: true)
            pending = frame
            start = needed
        }
        while samples.count - start >= frameSamples {
            if let event = analyse(UnsafeBufferPointer(rebasing: samples[start..<(start + frameSamples)])) {
                events.append(event)
            }
            start += frameSamples
        }
        if start < samples.count { pending.append(contentsOf: UnsafeBufferPointer(rebasing: samples[start...])) }
        return events
    }

    /// Feeds a buffer (its rate must match) and returns the events completed by it.
    package mutating func feed(_ buffer: PCMBuffer) -> [VADEvent] {
        precondition(buffer.sampleRate == sampleRate, "VAD runs at \(sampleRate) Hz, got \(buffer.sampleRate) Hz")
        return feed(buffer.samples)
    }

    /// Ends the stream: if speech is ongoing, reports its end at the last voiced frame.
    package mutating func finish() -> [VADEvent] {
        defer { state = .silence }
        if case .speech(let end) = state { return [.speechStopped(atMs: milliseconds(end))] }
        return []
    }

    private mutating func analyse(_ frame: UnsafeBufferPointer<Int16>) -> VADEvent? {
        let level = max(-100, PCMBuffer.decibels(PCMBuffer.rms(frame)))
        let frameStart = processedSamples
        processedSamples += frame.count
        let floor = noiseFloorDBFS ?? level
        let slack = isSpeaking ? configuration.hysteresisDB : 0
        let voiced =
            level >= configuration.thresholdDBFS - slack
            && level >= floor + configuration.marginAboveNoiseDB - slack
        let rise = configuration.noiseFloorRiseDBPerSecond * Double(configuration.frameMs) / 1000
        noiseFloorDBFS = level < floor ? level : floor + min(level - floor, rise)
        if let event = endOfLoudOpening(level: level, frameStart: frameStart) { return event }
        return step(voiced: voiced, frameStart: frameStart)
    }

    /// Follows the stretch of frames at or above the absolute threshold that the stream opens
    /// with, and reports it as speech that started at 0 when it ends in a drop well below it.
    private mutating func endOfLoudOpening(level: Double, frameStart: Int) -> VADEvent? {
        guard !openingIsOver else { return nil }
        guard case .silence = state else {
            openingIsOver = true
            return nil
        }
        if level >= configuration.thresholdDBFS {
            openingMinLevel = min(openingMinLevel ?? level, level)
            return nil
        }
        openingIsOver = true
        guard let quietest = openingMinLevel, level <= quietest - configuration.marginAboveNoiseDB,
            milliseconds(frameStart) >= configuration.minSpeechMs
        else { return nil }
        state = .speech(lastVoicedEndSample: frameStart)
        return .speechStarted(atMs: 0)
    }

    private mutating func step(voiced: Bool, frameStart: Int) -> VADEvent? {
        let frameMs = configuration.frameMs
        switch state {
        case .silence:
            if voiced { state = .candidate(startSample: frameStart, voicedMs: 0, gapMs: 0) } else { return nil }
            return step(voiced: true, frameStart: frameStart)
        case .candidate(let start, let voicedMs, let gapMs):
            guard voiced else {
                state =
                    gapMs + frameMs >= configuration.candidateGapMs
                    ? .silence : .candidate(startSample: start, voicedMs: voicedMs, gapMs: gapMs + frameMs)
                return nil
            }
            guard voicedMs + frameMs >= configuration.minSpeechMs else {
                state = .candidate(startSample: start, voicedMs: voicedMs + frameMs, gapMs: 0)
                return nil
            }
            state = .speech(lastVoicedEndSample: processedSamples)
            return .speechStarted(atMs: max(0, milliseconds(start) - configuration.prefixPaddingMs))
        case .speech(let lastEnd):
            if voiced {
                state = .speech(lastVoicedEndSample: processedSamples)
                return nil
            }
            guard milliseconds(processedSamples - lastEnd) >= configuration.silenceDurationMs else { return nil }
            state = .silence
            return .speechStopped(atMs: milliseconds(lastEnd))
        }
    }

    private func milliseconds(_ samples: Int) -> Int {
        (samples * 1000 + sampleRate / 2) / sampleRate
    }
}
