package import AnswerAudio
package import ProtocolModel
package import ScenarioEngine
import SessionCore

/// The timeline of one response, computed when it starts and streamed step by step from an
/// engine timer, so a cancel or a barge-in stops it between two steps (S10, S11, S15).
package struct ResponsePlan: Sendable, Hashable {
    /// One thing the response does.
    package enum Step: Sendable, Hashable {
        /// `response.created`.
        case created
        /// `response.output_item.added` + `conversation.item.created` + `content_part.added`.
        case messageAdded
        /// A transcript (audio modality) or text (text-only) delta.
        case textDelta(String)
        /// A chunk of s16le PCM at the output rate, sent base64-encoded, and its level (measured
        /// when the answer was rendered) for the journal.
        case audioDelta([UInt8], AudioLevel?)
        /// The `.done` events of the message part and item.
        case messageDone
        /// A function call item starts (index into the calls).
        case callAdded(Int)
        /// A piece of a call's arguments.
        case argumentsDelta(Int, String)
        /// `function_call_arguments.done` + `output_item.done` of a call.
        case callDone(Int)
        /// `response.done`.
        case done
        /// The answer's audio is still being rendered: the plan is made when it is ready.
        case awaitAudio(AnswerAudioHandle)
    }

    /// A step and when it is due, relative to the response start.
    package struct TimedStep: Sendable, Hashable {
        /// Microseconds after the response start.
        package var offsetMicros: Int64
        /// What to do.
        package var step: Step
    }

    /// The steps in sending order (offsets never decrease).
    package private(set) var steps: [TimedStep] = []

    /// The PCM bytes of all the plan's audio deltas.
    package var audioBytes: Int {
        steps.reduce(0) { total, timed in
            if case .audioDelta(let bytes, _) = timed.step { return total + bytes.count }
            return total
        }
    }
    /// Length of the answer audio in microseconds (0 without audio).
    package private(set) var audioDurationMicros: Int64 = 0

    /// A spoken answer whose audio is still being rendered: it waits before `response.created`.
    package static func awaitingAudio(_ handle: AnswerAudioHandle) -> ResponsePlan {
        var plan = ResponsePlan()
        plan.steps = [TimedStep(offsetMicros: 0, step: .awaitAudio(handle))]
        return plan
    }

    /// A spoken or written answer: text pieces interleaved with the audio's PCM chunks (already
    /// cut on the cadence); the audio starts with the first text piece and the transcript keeps
    /// pace with it.
    package static func message(text: [TextCadence.Piece], audio: RenderedAnswer?) -> ResponsePlan {
        var plan = ResponsePlan()
        plan.steps = [TimedStep(offsetMicros: 0, step: .created), TimedStep(offsetMicros: 0, step: .messageAdded)]
        var timeline = text.map { TimedStep(offsetMicros: $0.sendOffsetMicros, step: .textDelta($0.text)) }
        if let audio, !audio.frames.isEmpty {
            let start = text.first?.sendOffsetMicros ?? 0
            // The transcript follows the speech: a piece goes out no earlier than the audio
            // at its position in the text (so a barge-in leaves a partial transcript).
            let span = Double(audio.frames.last?.sendOffsetMicros ?? 0)
            let total = Double(max(1, text.reduce(0) { $0 + $1.text.count }))
            var before = 0
            for index in timeline.indices {
                let aligned = start + Int64(span * Double(before) / total)
                timeline[index].offsetMicros = max(timeline[index].offsetMicros, aligned)
                before += text[index].text.count
            }
            for frame in audio.frames where !frame.bytes.isEmpty {
                timeline.append(
                    TimedStep(offsetMicros: start + frame.sendOffsetMicros, step: .audioDelta(frame.bytes, frame.level))
                )
            }
            plan.audioDurationMicros = audio.durationMicros
        }
        // Stable by time; text first at equal times (the transcript leads the audio).
        let ordered = timeline.enumerated().sorted {
            ($0.element.offsetMicros, $0.offset) < ($1.element.offsetMicros, $1.offset)
        }
        plan.steps += ordered.map(\.element)
        let end = plan.steps.last?.offsetMicros ?? 0
        plan.steps += [TimedStep(offsetMicros: end, step: .messageDone), TimedStep(offsetMicros: end, step: .done)]
        return plan
    }

    /// Function calls only (no audio): each call's arguments in at least two deltas, paced
    /// like text tokens.
    /// - Parameters:
    ///   - arguments: The serialized arguments of each call.
    ///   - firstMicros: Delay of the first call (time to first token).
    ///   - intervalMicros: Time between two argument pieces.
    package static func calls(arguments: [String], firstMicros: Int64, intervalMicros: Int64) -> ResponsePlan {
        var plan = ResponsePlan()
        plan.steps = [TimedStep(offsetMicros: 0, step: .created)]
        var time = firstMicros
        for (index, text) in arguments.enumerated() {
            plan.steps.append(TimedStep(offsetMicros: time, step: .callAdded(index)))
            for piece in split(text) {
                plan.steps.append(TimedStep(offsetMicros: time, step: .argumentsDelta(index, piece)))
                time += intervalMicros
            }
            plan.steps.append(TimedStep(offsetMicros: time, step: .callDone(index)))
        }
        plan.steps.append(TimedStep(offsetMicros: time, step: .done))
        return plan
    }

    /// A response that fails (`response.done{status:"failed"}`) after `afterMicros`.
    package static func failed(afterMicros: Int64) -> ResponsePlan {
        var plan = ResponsePlan()
        plan.steps = [TimedStep(offsetMicros: 0, step: .created), TimedStep(offsetMicros: afterMicros, step: .done)]
        return plan
    }

    /// Cuts `text` into 2–6 pieces of similar length (whole characters) that concatenate to it.
    package static func split(_ text: String) -> [String] {
        let characters = Array(text)
        guard characters.count >= 2 else { return [text] }
        let count = min(6, max(2, characters.count / 8))
        let size = (characters.count + count - 1) / count
        return stride(from: 0, to: characters.count, by: size).map {
            String(characters[$0..<min($0 + size, characters.count)])
        }
    }
}

extension ResponsePlan.Step: TimelineAction {
    /// The timeline waits at an ``awaitAudio(_:)`` step until the audio is rendered.
    package var awaitedAudio: AnswerAudioHandle? {
        if case .awaitAudio(let handle) = self { return handle }
        return nil
    }
}
