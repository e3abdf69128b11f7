import ProtocolModel
import WireJSON

/// The turns of a Qwen-Audio-Live session as the wire shows them (qwen-audio-live.md §7): no
/// response object or `*.done` event marks an answer, so a turn is read from the deltas. It
/// starts with the user's first transcript piece after the previous answer began; its answer
/// starts with the first `session.output_audio.delta` after that. A turn that starts while
/// answer audio is still playing (its deltas' audio not yet over) is a barge-in.
struct LiveTurns {
    /// One user turn.
    struct Turn {
        /// The turn's first `session.input_transcript.delta`.
        var firstInput: Int
        /// The last input transcript piece before the answer's audio: the end of the user's speech.
        var lastInput: Int
        /// The answer's first `session.output_audio.delta`, if any.
        var firstAudio: Int?
        /// Whether the turn started while the previous answer's audio was still playing.
        var bargeIn: Bool
    }

    /// The downlink rate (§6).
    static let outputSampleRate = QwenAudioLive.outputSampleRate

    /// The first `session.updated`.
    var configured: Int?
    /// The turns in order.
    var turns: [Turn] = []
    /// The first `session.closed`.
    var closed: Int?

    init(_ transcript: Transcript) {
        configured = EntryMatcher.server(QwenAudioLiveServerEvent.sessionUpdated.rawValue).first(in: transcript)
        closed = EntryMatcher.server(QwenAudioLiveServerEvent.sessionClosed.rawValue).first(in: transcript)
        /// When the answer audio sent so far has played out (ms), assuming playback starts on arrival.
        var playbackEnd = -Double.infinity
        var answering = false
        for index in transcript.journal.indices where transcript.journal[index].isFrame(.out) {
            let ms = transcript.milliseconds(at: index)
            switch transcript.messageType(at: index).flatMap(QwenAudioLiveServerEvent.init(rawValue:)) {
            case .inputTranscriptDelta?:
                if turns.isEmpty || answering {
                    turns.append(Turn(firstInput: index, lastInput: index, bargeIn: answering && ms < playbackEnd))
                    answering = false
                } else {
                    turns[turns.count - 1].lastInput = index
                }
            case .outputAudioDelta?:
                let duration = Self.audioMilliseconds(transcript, at: index)
                playbackEnd = max(playbackEnd, ms) + duration
                if !answering, !turns.isEmpty, turns[turns.count - 1].firstAudio == nil {
                    turns[turns.count - 1].firstAudio = index
                }
                answering = true
            default:
                continue
            }
        }
    }

    /// The playing time of an output audio delta: the journal's audio summary, else the decoded
    /// base64 length at 24 kHz mono PCM16.
    static func audioMilliseconds(_ transcript: Transcript, at index: Int) -> Double {
        let entry = transcript.journal[index]
        if let duration = entry.audio?.durationMs { return duration }
        guard let bytes = entry.json?["delta"]?.stringValue.flatMap(Base64.checkedDecodedCount(ofEncoded:)) else {
            return 0
        }
        return Double(bytes) / Double(2 * outputSampleRate) * 1000
    }

    /// The `qal.turn` timeline: `Configured`, then per turn `Listening` (or `BargeIn`) and
    /// `Speaking`, then `Closed`. Illegal points: any state after `Closed`, and a client event
    /// other than `session.update` before `Configured` (qal.C4).
    func timeline(_ transcript: Transcript) -> StateTimeline {
        var points: [StateTimeline.Point] = []
        func point(_ index: Int, _ state: String) {
            points.append(.init(index: index, ms: transcript.milliseconds(at: index), state: state))
        }
        if let configured { point(configured, "Configured") }
        for turn in turns {
            point(turn.firstInput, turn.bargeIn ? "BargeIn" : "Listening")
            if let audio = turn.firstAudio { point(audio, "Speaking") }
        }
        if let closed { point(closed, "Closed") }
        let early = transcript.clientFrameIndices.first { index in
            index < (configured ?? Int.max)
                && transcript.messageType(at: index) != QwenAudioLiveClientEvent.sessionUpdate.rawValue
        }
        if let early {
            points.append(
                .init(
                    index: early, ms: transcript.milliseconds(at: early),
                    state: "client \(transcript.messageType(at: early) ?? "binary frame")", legal: false,
                    note: "client event before the first session.updated (qal.C4)"))
        }
        points.sort { $0.index < $1.index }
        if let closed {
            for position in points.indices where points[position].index > closed && points[position].legal {
                points[position].legal = false
                points[position].note = "\(points[position].state) after session.closed"
            }
        }
        return StateTimeline(machine: "qal.turn", points: points)
    }
}
