import ProtocolModel
import WireJSON

/// `mmd.localRespondingPerRound` (mmd.C19): for every answer round (`RespondingStarted`) the
/// client sends `LocalRespondingEnded` exactly once, after `RespondingStarted`, before the next
/// round starts; a round cut short by the session end (client `Stop`, close) is excused.
package struct LocalRespondingPerRound: CustomRule {
    package static let name = "mmd.localRespondingPerRound"

    package init(parameters: CheckParameters) throws(CheckParameterError) {}

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected = "one LocalRespondingEnded per RespondingStarted round, after it"
        let rounds = EntryMatcher.server(MultiModalDialogEvent.respondingStarted.rawValue).indices(in: transcript)
        let ends = EntryMatcher.client(Directive.localRespondingEnded.rawValue).indices(in: transcript)
        if let early = ends.first, rounds.first.map({ early < $0 }) ?? true {
            return context.fail(
                expected, "LocalRespondingEnded at #\(early) before any RespondingStarted", evidence: [early])
        }
        guard !rounds.isEmpty else { return context.notExercised(expected, "no answer round (RespondingStarted)") }
        let sessionEnd =
            EntryMatcher.client(Directive.stop.rawValue).first(in: transcript)
            ?? transcript.firstIndex { $0.kind == .close } ?? transcript.journal.count
        for (number, start) in rounds.enumerated() {
            let next = number + 1 < rounds.count ? rounds[number + 1] : transcript.journal.count
            let inRound = ends.filter { $0 > start && $0 < next }
            if inRound.count > 1 {
                return context.fail(
                    expected, "round \(number + 1): LocalRespondingEnded sent \(inRound.count) times", evidence: inRound
                )
            }
            if inRound.isEmpty,
                next < sessionEnd || (number + 1 == rounds.count && sessionEnd == transcript.journal.count)
            {
                return context.missing(
                    expected, "round \(number + 1) (RespondingStarted #\(start)) never got LocalRespondingEnded",
                    context: [start])
            }
        }
        return context.pass(expected, "\(rounds.count) round(s), \(ends.count) LocalRespondingEnded", evidence: ends)
    }
}
