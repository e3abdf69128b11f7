import ProtocolModel
import Synchronization
import WireJSON

/// The headless player of the model's audio. The protocol has no end-of-answer event: a track
/// ends once its queued audio has played and no delta came for `playbackIdleMillis`.
extension QwenAudioLiveClient {
    func audioDelta(_ s: inout QwenAudioLiveSessionState, _ base64: String) {
        guard let pcm = Base64.decode(base64) else { return }
        let now = Clock.nowMicros()
        s.audioDeltas += 1
        s.lastAudioMicros = now
        if s.player.begin(atMicros: now) { emit(s) { $0.onPlaybackStarted?() } }
        emit(s) { $0.onAudio?(pcm) }
        s.player.enqueue(
            durationMicros: AudioDuration.pcmMicros(byteCount: pcm.count, sampleRate: QwenAudioLive.outputSampleRate),
            atMicros: now)
        armPlaybackCheck(&s)
    }

    /// Server VAD barge-in: user speech during the model's audio (with `interrupt_response`)
    /// stops the model, so the queued rest is dropped. In duplex the model may talk over the
    /// user, and its audio keeps playing.
    func stopPlaybackOnBargeIn(_ s: inout QwenAudioLiveSessionState) {
        guard s.turnDetection != "duplex", s.interruptResponse else { return }
        stopPlayback(&s, .bargeIn)
    }

    /// Flushes the player now.
    func stopPlayback(_ s: inout QwenAudioLiveSessionState, _ end: QwenAudioLivePlaybackEnd) {
        if s.player.flush(atMicros: Clock.nowMicros()) { emit(s) { $0.onPlaybackEnded?(end) } }
    }

    /// When the open track may end: its audio played and a quiet spell after the last delta.
    private func playbackEndMicros(_ s: QwenAudioLiveSessionState) -> Int64 {
        max(s.player.playheadEndMicros, s.lastAudioMicros + Int64(options.playbackIdleMillis) * 1_000)
    }

    private func armPlaybackCheck(_ s: inout QwenAudioLiveSessionState) {
        guard !s.playbackCheckArmed else { return }
        s.playbackCheckArmed = true
        PlaybackModel.wake(atMicros: playbackEndMicros(s), generation: s.player.generation) { [weak self] in
            self?.playbackDue(generation: $0)
        }
    }

    private func playbackDue(generation: Int) {
        state.withLock { s in
            s.playbackCheckArmed = false
            guard s.player.isPlaying, s.player.generation == generation else {
                if s.player.isPlaying { armPlaybackCheck(&s) }  // a new track began meanwhile
                return
            }
            let now = Clock.nowMicros()
            if now >= playbackEndMicros(s) {
                _ = s.player.endInput(atMicros: now)
                if s.player.finishIfDue(generation: generation, atMicros: now) {
                    emit(s) { $0.onPlaybackEnded?(.played) }
                }
            } else {
                armPlaybackCheck(&s)
            }
        }
    }
}
