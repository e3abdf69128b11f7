package import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireAudio
import WireJSON

/// The multimodal dialog protocol (spec `multimodal-dialog.md`, S2–S23) as a pure state
/// machine: the server's session driver feeds it frames and timer firings and carries out the
/// returned commands. Every outbound frame goes through the scenario's fault stage; frames
/// are only handed out when due (see ``OutboundTimeline``), so interrupts and Stop are exact.
/// Service-thread confined.
package final class MultiModalDialogSession<Clock: ScenarioClock>: ProtocolSession {
    /// Where the session is in its lifetime.
    enum Lifecycle { case awaitingStart, active, finished }

    /// Engine timer: the next timeline step is due.
    static var timelineTimer: String { "timeline" }
    /// Engine timer: LocalRespondingEnded did not come within the grace (S9).
    static var playbackFallbackTimer: String { "listeningFallback" }

    package let scenario: ScenarioBridge<Clock>
    /// The per-dialog memory shared by the server's sessions (S21).
    package let memory: DialogMemory
    /// Mock choices.
    package let options: MultiModalDialogSessionOptions

    var lifecycle = Lifecycle.awaitingStart
    var config: StartConfiguration?
    var frames = ServerFrameBuilder(taskID: "")
    var dialogID: String?
    /// The announced state, the conversation phase, the turns and the current round.
    var rounds = DialogRounds()
    /// Every frame planned for later, grouped by round; dialog events go on its send lane.
    var timeline = OutboundTimeline<DialogAction>(timer: MultiModalDialogSession.timelineTimer)
    /// The uplink's decoder, speech detection and utterance (from Start on).
    var uplink: Uplink?
    var video = VideoCall()
    var lastHeartBeatAt: Int64?
    var clientStatus: JSONValue?
    /// Violations already reported for a stretch of frames (reset when the stretch ends).
    var reportedStretches: Set<String> = []
    /// The final report of a session the client closed, for ``closingNotes()``.
    var closingReport: JSONValue?
    /// A rendered fault asked for a fatal error; the session must close.
    var fatalRendered = false
    /// The level of the last binary frame's decoded audio, until the driver takes it.
    var receivedAudioLevel: AudioLevel?

    /// Creates a session.
    /// - Parameters:
    ///   - scenario: The session's scenario runtime.
    ///   - memory: The server-wide dialog memory (for `dialog_id` resume).
    ///   - options: Mock choices (defaults follow the spec).
    package init(
        scenario: ScenarioBridge<Clock>, memory: DialogMemory,
        options: MultiModalDialogSessionOptions = MultiModalDialogSessionOptions()
    ) {
        self.scenario = scenario
        self.memory = memory
        self.options = options
        // Multimodal dialog has the 60 s server-silence and 20 s audio-gap rules besides the
        // idle end and the session cap.
        scenario.runtime.policyWatches = [.idleEnd, .serverSilence, .audioGap, .sessionCap]
    }

    /// S1 for the server's router: see ``MultiModalDialogUpgrade/check(path:headers:apiKeys:requestID:)``.
    package static func checkUpgrade(
        path: String, headers: [String: String], apiKeys: Set<String>
    ) -> UpgradeVerdict<[JournalNote]> {
        MultiModalDialogUpgrade.check(path: path, headers: headers, apiKeys: apiKeys)
    }

    var now: Int64 { scenario.now }

    // MARK: - ProtocolSession

    package func open() -> [SessionCommand] {
        timeline.resetLane(to: now)
        return handle(scenario.runtime.start())
    }

    package func classify(text bytes: [UInt8]) -> InboundClassification {
        let (type, json) = ClientFrame.classify(bytes)
        return InboundClassification(eventType: type, json: json)
    }

    package func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        let before = lifecycle
        if lifecycle == .awaitingStart, let taskID = DashScopeEnvelope.taskID(of: classification.json) {
            frames.taskID = taskID  // what a trigger on the first frame sends echoes its task_id
        }
        var commands = handle(
            scenario.runtime.clientMessage(type: classification.eventType ?? "", json: classification.json))
        if fatalRendered, lifecycle != .finished {
            // A fatal error a trigger injected on this very frame is its answer (e.g. a refused
            // Start, preset model-access-denied): the frame is not carried out.
            return commands + teardown(journal: "fatal error injected by a fault")
        }
        // A trigger on this very frame may have ended the session; the frame is not "after the end".
        guard before == .finished || lifecycle != .finished else { return commands }
        commands += entry { receiveText(classification.json) }
        return commands
    }

    package func receive(binary bytes: [UInt8]) -> [SessionCommand] {
        entry { receiveAudio(bytes) }
    }

    package func takeReceivedAudioLevel() -> AudioLevel? {
        defer { receivedAudioLevel = nil }
        return receivedAudioLevel
    }

    package func engineTimerFired(_ name: String) -> [SessionCommand] {
        entry {
            switch name {
            case Self.timelineTimer:
                timeline.timerFired()
                return []
            case Self.playbackFallbackTimer:
                return playbackGraceExpired()
            default:
                return [.journal(.info("unknown engine timer \(name)"))]
            }
        }
    }

    package func closed(peerCode: Int?) {
        if lifecycle != .finished, let report = scenario.runtime.finalReport(endReason: "clientClosed") {
            closingReport = report
        }
        lifecycle = .finished
        timeline.removeAll()
    }

    /// The final report of a session the client closed (journaled by ``closingNotes()``).
    package func closingNotes() -> [JournalNote] {
        closingReport.map { [.report($0)] } ?? []
    }

    /// Runs one input, then emits every due timeline step and keeps the timeline timer right.
    func entry(_ body: () -> [SessionCommand]) -> [SessionCommand] {
        var commands = body()
        commands += drain()
        if fatalRendered, lifecycle != .finished {
            commands += teardown(journal: "fatal error injected by a fault")
        }
        return commands
    }

    /// Text frames: before Start, the Start; after it, directives; after the end, C22.
    private func receiveText(_ json: JSONValue?) -> [SessionCommand] {
        switch lifecycle {
        case .awaitingStart:
            return receiveStart(json)
        case .active:
            return receiveDirective(json)
        case .finished:
            return reportOnce("afterFinish", "mmd.C22", "frame after finish-task or the end of the task (ignored)")
        }
    }

    /// A violation journaled once per stretch `key` (cleared with ``endStretch(_:)``).
    func reportOnce(
        _ key: String, _ obligation: String, level: Violation.Level = .must, _ message: String
    ) -> [SessionCommand] {
        guard reportedStretches.insert(key).inserted else { return [] }
        return [.journal(.violation(obligation, level, message))]
    }

    /// Ends a stretch so that its violation is reported again next time.
    func endStretch(_ key: String) {
        reportedStretches.remove(key)
    }
}
