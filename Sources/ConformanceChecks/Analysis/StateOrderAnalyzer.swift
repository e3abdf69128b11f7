import ProtocolModel
import WireJSON

/// Builds state timelines from a transcript and validates them against the specs' state
/// machines: multimodal dialog §8 (Listening / Thinking / Responding), Qwen realtime §7.1
/// (engine states) and §7.2 (one response at a time), Qwen-Audio-Live §7 (engine states, and
/// the turns the wire shows).
package enum StateOrderAnalyzer {
    /// Every machine a `stateSequence` check may name.
    package static let machines = ["mmd.dialog", "qrt.session", "qrt.response", "qal.session", "qal.turn"]

    /// The multimodal dialog transitions of §8.2 (a state is only announced on change).
    package static let dialogTransitions: [String: Set<String>] = [
        "Listening": ["Thinking", "Responding"],
        "Thinking": ["Responding", "Listening"],
        "Responding": ["Listening"],
    ]

    /// Every timeline that applies to the protocol (``ProtocolAnalysis/stateTimelines(_:)``).
    package static func timelines(protocolName: String, transcript: Transcript) -> [StateTimeline] {
        DialogProtocol(rawValue: protocolName)?.analysis.stateTimelines(transcript) ?? []
    }

    /// Multimodal dialog states: the engine's `state` entries, else `DialogStateChanged` frames.
    package static func dialog(_ transcript: Transcript) -> StateTimeline {
        var sources = transcript.journal.indices.filter { transcript.journal[$0].kind == .state }
        if sources.isEmpty {
            sources = EntryMatcher.server(MultiModalDialogEvent.dialogStateChanged.rawValue).indices(in: transcript)
        }
        let started = EntryMatcher.server(MultiModalDialogEvent.started.rawValue).first(in: transcript)
        var points: [StateTimeline.Point] = []
        var current: String?
        for index in sources {
            let entry = transcript.journal[index]
            guard let state = entry.state ?? DashScopeEnvelope.output(of: entry.json)?["state"]?.stringValue else {
                continue
            }
            var point = StateTimeline.Point(index: index, ms: transcript.milliseconds(at: index), state: state)
            if let current {
                if current == state {
                    point.legal = false
                    point.note = "\(state) announced again without a change"
                } else if !(dialogTransitions[current]?.contains(state) ?? false) {
                    point.legal = false
                    point.note = "\(current) → \(state) is not a transition of §8.2"
                }
            } else if state != "Listening" {
                point.legal = false
                point.note = "the first state must be Listening"
            } else if let started, started > index {
                point.legal = false
                point.note = "Listening before Started"
            }
            points.append(point)
            current = state
        }
        return StateTimeline(machine: "mmd.dialog", points: points)
    }

    /// Qwen engine states (journal `state` entries); nothing may follow `Closed`. `machine` names
    /// the timeline (`qrt.session`, `qal.session`).
    package static func session(_ transcript: Transcript, machine: String = "qrt.session") -> StateTimeline {
        var points: [StateTimeline.Point] = []
        var closed = false
        for index in transcript.journal.indices where transcript.journal[index].kind == .state {
            let state = transcript.journal[index].state ?? "?"
            var point = StateTimeline.Point(index: index, ms: transcript.milliseconds(at: index), state: state)
            if closed {
                point.legal = false
                point.note = "state after Closed"
            }
            closed = closed || state == "Closed"
            points.append(point)
        }
        return StateTimeline(machine: machine, points: points)
    }
}

extension EntryMatcher {
    /// A server message of `type`.
    package static func server(_ type: String) -> EntryMatcher {
        guard let matcher = try? EntryMatcher(.object(["server": .string(type)])) else { preconditionFailure() }
        return matcher
    }
}
