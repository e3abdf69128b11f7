/// A headless "player": models when downstream audio would finish playing, so a client without
/// a sound card can report playback (LocalRespondingStarted/Ended, adapter playback events)
/// at the times a real device would.
///
/// Audio is queued with its duration as it arrives; the playhead runs in real time from the
/// first chunk. Playback ends when input has ended and the queued audio has been played, or at
/// once on ``flush(atMicros:)`` (interrupt, barge-in, cancel).
struct PlaybackModel: Sendable {
    /// Whether a track is open (begun and not yet ended or flushed).
    private(set) var isPlaying = false
    /// Whether any audio was queued in the open track.
    private(set) var hasAudio = false
    /// When the queued audio will have been played (monotonic µs).
    private(set) var playheadEndMicros: Int64 = 0
    /// Whether the producer said no more audio comes for this track.
    private(set) var inputEnded = false
    /// Bumped on every begin and flush, so stale end timers can be recognised.
    private(set) var generation = 0

    /// Opens a track; returns false if one was already open.
    mutating func begin(atMicros now: Int64) -> Bool {
        guard !isPlaying else { return false }
        isPlaying = true
        hasAudio = false
        inputEnded = false
        playheadEndMicros = now
        generation += 1
        return true
    }

    /// Queues `durationMicros` of audio that arrived at `now`.
    mutating func enqueue(durationMicros: Int64, atMicros now: Int64) {
        guard isPlaying else { return }
        hasAudio = true
        playheadEndMicros = max(playheadEndMicros, now) + durationMicros
    }

    /// No more audio for this track; returns when the track will end.
    mutating func endInput(atMicros now: Int64) -> Int64 {
        inputEnded = true
        return max(playheadEndMicros, now)
    }

    /// Ends the track if `generation` is still current and its audio has been played.
    /// - Returns: true when the track ended now.
    mutating func finishIfDue(generation: Int, atMicros now: Int64) -> Bool {
        guard isPlaying, inputEnded, generation == self.generation, now >= playheadEndMicros else { return false }
        isPlaying = false
        return true
    }

    /// What an end-of-track timer for `generation` finds at `now`.
    enum EndCheck: Equatable, Sendable {
        /// The track ended now.
        case ended
        /// The track still plays (audio came after the timer was set): check again then.
        case later(atMicros: Int64)
        /// The timer belongs to a track already ended or flushed.
        case stale
    }

    /// Ends the track if its audio has been played, else says when to look again.
    mutating func checkEnd(generation: Int, atMicros now: Int64) -> EndCheck {
        if finishIfDue(generation: generation, atMicros: now) { return .ended }
        guard isPlaying, generation == self.generation else { return .stale }
        return .later(atMicros: max(now + 1_000, playheadEndMicros))
    }

    /// Calls `check` with `generation` at `micros` (monotonic), off the caller's lock: the
    /// client's end-of-track timer.
    static func wake(atMicros micros: Int64, generation: Int, _ check: @escaping @Sendable (Int) -> Void) {
        Task {
            await Clock.sleep(untilMicros: micros)
            check(generation)
        }
    }

    /// Stops playback at once. - Returns: true when a track was open.
    mutating func flush(atMicros now: Int64) -> Bool {
        guard isPlaying else { return false }
        isPlaying = false
        playheadEndMicros = now
        generation += 1
        return true
    }
}

/// Duration of downstream or upstream audio by format.
public enum AudioDuration {
    /// Microseconds of s16le mono PCM at `sampleRate`.
    public static func pcmMicros(byteCount: Int, sampleRate: Int) -> Int64 {
        Int64(byteCount / 2) * 1_000_000 / Int64(max(1, sampleRate))
    }

    /// Microseconds of a downstream chunk: exact for PCM, estimated from the bit rate for
    /// compressed formats (`mp3`, `opus`, `raw-opus`).
    public static func micros(byteCount: Int, format: String, sampleRate: Int, bitRateKbps: Int) -> Int64 {
        if format == "pcm" { return pcmMicros(byteCount: byteCount, sampleRate: sampleRate) }
        return Int64(byteCount) * 8_000 / Int64(max(1, bitRateKbps))
    }
}
