package import ProtocolModel

extension Scenario {
    /// A scenario that serves a recorded session back.
    ///
    /// Each recorded server frame becomes a ``ReplayStep`` anchored to the client frame
    /// (text or binary) that preceded it in the journal — or to session start if the client
    /// had sent nothing yet — with the recorded delay since that client frame multiplied by
    /// `timeScale`. When the live client sends its n-th frame, the runtime schedules the
    /// steps anchored to frame n; so the server's pace follows the client's as in the
    /// recording.
    ///
    /// - Text frames are replayed verbatim (parsed JSON is re-encoded; ids are not rewritten).
    /// - Binary frames replay as ``ScriptedFrame/synthesizedAudio(byteLength:audio:)``: the
    ///   recorded bytes (``ReplayStep/payload``) where the journal kept them, else synthesized
    ///   voice-like audio of exactly the recorded length in the session's output format.
    /// - A server close becomes a ``ScriptedFrame/close(code:reason:)`` step.
    /// - Fault, violation and state entries are not replayed (faults that changed frames are
    ///   already visible in the recorded frames).
    ///
    /// Policies are switched off (no idle end, silence, audio-gap or cap timers) so that only
    /// the recording decides when the session ends.
    /// - Parameters:
    ///   - journal: The recorded entries, in recording order.
    ///   - timeScale: Multiplier for the recorded delays (1 = original timing, 0.5 = twice as fast).
    package static func replay(journal: [JournalEntry], timeScale: Double = 1, name: String = "replay") -> Scenario {
        var steps: [ReplayStep] = []
        var clientFrames = 0
        var clientNames: [String] = []
        var anchor: Int64 = 0
        for entry in journal {
            if entry.isFrame(.in) {
                clientFrames += 1
                clientNames.append(Self.replayName(of: entry))
                anchor = entry.t
                continue
            }
            let frame: ScriptedFrame
            switch entry.kind {
            case .text where entry.direction == .out && entry.json == nil && entry.text == nil && entry.audio != nil:
                // An audio event journaled as a summary only (no `--journal-audio`): nothing to replay.
                continue
            case .text where entry.direction == .out:
                frame = entry.json.map(ScriptedFrame.json) ?? .text(entry.text ?? "")
            case .binary where entry.direction == .out:
                frame = .synthesizedAudio(byteLength: entry.byteLength ?? 0, audio: entry.audio)
            case .close where entry.direction == .out:
                frame = .close(code: entry.closeCode ?? 1000, reason: entry.closeReason ?? "")
            default:
                continue
            }
            let delay = Int64((Double(max(0, entry.t - anchor)) * timeScale).rounded())
            var step = ReplayStep(afterClientFrame: clientFrames, delayMicros: delay, frame: frame)
            step.payload = entry.kind == .binary ? entry.payload : nil
            steps.append(step)
        }
        var scenario = Scenario(
            name: name,
            description: "Replay of a recorded session (\(steps.count) server frames, time scale \(timeScale))",
            timeScale: timeScale, policies: replayPolicies, replay: steps)
        scenario.replayClientFrames = clientNames
        return scenario
    }

    /// No idle end, silence, audio-gap or cap timers: only the recording ends a replayed session.
    static let replayPolicies = SessionPolicies(serverSilenceTimeoutMs: nil, audioGapTimeoutMs: nil, sessionCapMs: nil)

    /// How a replay names a client frame: its message name, else `binary` or `text`.
    package static func replayName(of entry: JournalEntry) -> String {
        entry.eventType ?? (entry.kind == .binary ? "binary" : "text")
    }
}
