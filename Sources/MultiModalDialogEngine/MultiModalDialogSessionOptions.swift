package import AnswerAudio
package import WireAudio

/// Engine settings that are mock choices rather than protocol facts (spec [inferred] items),
/// so a server profile or a test can change them.
package struct MultiModalDialogSessionOptions: Sendable {
    /// Send `task-started` before `Started` (S3; §4.3 inferred).
    package var sendsTaskStarted = true
    /// Extra time after the answer audio's length before falling back to Listening without
    /// `LocalRespondingEnded` (S9).
    package var playbackGraceMicros: Int64 = 5_000_000
    /// tap2talk: audio arriving this soon after `SpeechEnded` was sent is taken as already in
    /// flight when the client saw it, not as a breach of the mmd.C11 SHOULD.
    package var tapToTalkStopGraceMicros: Int64 = 150_000
    /// After the client's Stop: how long the socket stays open (reading) before the server's
    /// close, so that frames sent right behind finish-task are journaled (C22).
    package var closeAfterStopMicros: Int64 = 200_000
    /// Settings of the uplink voice-activity detector (S6).
    package var vad = VADConfiguration()
    /// Speech time per revealed transcript token in partial `SpeechContent` (S6).
    package var transcriptTokenMs = 250
    /// Directory against which relative answer fixture paths are resolved.
    package var audioBaseDirectory: String?
    /// Where answer audio comes from: rendered once per distinct answer and shared. The server
    /// passes the cache with worker threads; the default renders inline (engine tests).
    package var answerAudio: AnswerAudioCache = .inline
    /// An unknown `Start.input.dialog_id` fails the task instead of opening a new context (§9.10).
    package var rejectsUnknownDialogID = false
    /// What the bot says when a video call connects (S13).
    package var videoConnectPhrase = "Video call connected. I can see you now."
    /// What the bot says when a video call ends (S13).
    package var videoExitPhrase = "Okay, the video call has ended."
    /// WebSocket close code after Stopped/task-finished and after task-failed.
    package var closeCode = 1000
    /// Accepted gap between video frames in ms (C15: ~500 ms, tolerance 250–1000 ms).
    package var videoFrameGapMs: ClosedRange<Int64> = 250...1000

    /// The defaults described on each property.
    package init() {}
}
