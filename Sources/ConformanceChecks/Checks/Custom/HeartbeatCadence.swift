import ProtocolModel
import WireJSON

/// `mmd.heartbeatCadence` (mmd.C21): while the session is open, the connection is never silent
/// (no frame either way) for `maxSilenceMs` (default 60000) before the client's last frame,
/// and client `HeartBeat`s are at least `minIntervalMs` apart (default 5000).
package struct HeartbeatCadence: CustomRule {
    package static let name = "mmd.heartbeatCadence"

    var maxSilenceMs: Double
    var minIntervalMs: Double

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        maxSilenceMs = try parameters.double("maxSilenceMs") ?? 60000
        minIntervalMs = try parameters.double("minIntervalMs") ?? 5000
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected =
            "no \(format(maxSilenceMs)) ms without traffic; HeartBeat at most every \(format(minIntervalMs)) ms"
        let frames = transcript.journal.indices.filter {
            transcript.journal[$0].kind == .text || transcript.journal[$0].kind == .binary
        }
        guard let lastClient = transcript.clientFrameIndices.last else {
            return context.notExercised(expected, "the client sent no frame")
        }
        for (previous, next) in zip(frames, frames.dropFirst())
        where next <= lastClient || transcript.journal[next].direction == .out {
            let gap = transcript.milliseconds(at: next) - transcript.milliseconds(at: previous)
            if gap >= maxSilenceMs {
                return context.fail(
                    expected, "silent for \(format(gap)) ms (#\(previous) → #\(next))", evidence: [next, previous])
            }
        }
        let beats = EntryMatcher.client(Directive.heartBeat.rawValue).indices(in: transcript)
        for (previous, next) in zip(beats, beats.dropFirst()) {
            let gap = transcript.milliseconds(at: next) - transcript.milliseconds(at: previous)
            if gap < minIntervalMs {
                return context.fail(
                    expected, "HeartBeats \(format(gap)) ms apart (#\(previous), #\(next))", evidence: [next, previous])
            }
        }
        return context.pass(expected, "\(beats.count) HeartBeat(s)", evidence: beats)
    }
}
