import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

extension MultiModalDialogSession {
    /// A text frame after Start: envelope checks (C6, C7, S20), then the directive.
    func receiveDirective(_ json: JSONValue?) -> [SessionCommand] {
        let frame: ClientFrame
        do throws(ParameterProblem) {
            frame = try ClientFrame(json)
        } catch {
            return reject(.invalidDirective(error.message), obligation: "mmd.C7", error.message)
        }
        guard let config else { return [] }
        if frame.taskID != config.taskID {
            let message =
                "task_id \(frame.taskID.map { "\"\($0)\"" } ?? "missing") differs from the run-task's \"\(config.taskID)\""
            return reject(.invalidDirective(message), obligation: "mmd.C6", message)
        }
        guard let directive = frame.directive else {
            let message = "unknown directive \(frame.directiveName.map { "\"\($0)\"" } ?? "(none)")"
            return reject(.invalidDirective(message), obligation: "mmd.C7", message)
        }
        if directive == .start {
            let message = "Start is only allowed as the first frame (\(frame.action ?? "no action"))"
            return reject(
                .invalidDirective(message),
                obligation: frame.action == DashScopeEnvelope.Action.continueTask.rawValue ? "mmd.C7" : "mmd.C2",
                message)
        }
        var commands: [SessionCommand] = []
        if frame.action != directive.expectedAction.rawValue {
            commands.append(
                .journal(
                    .must(
                        "mmd.C7",
                        "\(directive.rawValue) must use action \"\(directive.expectedAction.rawValue)\", got \(frame.action.map { "\"\($0)\"" } ?? "none")"
                    )))
        }
        if let sent = frame.dialogID, let dialogID, sent != dialogID {
            commands.append(
                .journal(.should("mmd.C23", "\(directive.rawValue) carries dialog_id \(sent), not \(dialogID)")))
        } else if frame.dialogID == nil {
            commands += reportOnce(
                "missingDialogID", "mmd.C23", level: .should,
                "directives carry no dialog_id (SHOULD carry the one from Started; first: \(directive.rawValue); known deviation of the dashscope Python SDK 2.0.2, which sends null)"
            )
        }
        commands += perform(directive, frame)
        return commands
    }

    private func perform(_ directive: Directive, _ frame: ClientFrame) -> [SessionCommand] {
        switch directive {
        case .start: return []
        case .stop: return stop()
        case .heartBeat: return heartBeat()
        case .sendSpeech: return sendSpeech()
        case .stopSpeech: return stopSpeech()
        case .cancelSpeech: return cancelSpeech()
        case .requestToSpeak: return requestToSpeak()
        case .requestToRespond: return requestToRespond(frame)
        case .updateInfo: return updateInfo(frame)
        case .localRespondingStarted: return localRespondingStarted()
        case .localRespondingEnded: return localRespondingEnded()
        }
    }

    /// A non-fatal `Error` now, with a violation.
    func reject(_ error: DialogErrorEvent, obligation: String, _ message: String) -> [SessionCommand] {
        reply(.error(error))
        return [.journal(.must(obligation, message))]
    }

    /// S16: echo at once; C21: not more than once per 5 s.
    private func heartBeat() -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if let last = lastHeartBeatAt, now - last < 5_000_000 {
            commands.append(
                .journal(
                    .should(
                        "mmd.C21",
                        "HeartBeat \((now - last) / 1000) ms after the previous one (SHOULD NOT be more often than every 5 s)"
                    )))
        }
        lastHeartBeatAt = now
        if scenario.runtime.scenario.replay == nil { reply(.event(Directive.heartBeat.rawValue, [:])) }
        return commands
    }

    /// S10: interrupt a Thinking/Responding round; in Listening only `RequestAccepted` (C20).
    private func requestToSpeak() -> [SessionCommand] {
        guard rounds.conversation != .listening, let current = rounds.current else {
            reply(.event(MultiModalDialogEvent.requestAccepted.rawValue, [:]))
            return [
                .journal(
                    .should("mmd.C20", "RequestToSpeak in Listening (SHOULD only be sent while Thinking/Responding)"))
            ]
        }
        guard scenario.runtime.isInterruptible else {
            // Seeds 000 and 001, "Interrupt": the request "returns RequestAccepted" (the SDK's
            // completion waits for it). Whether the answer stops is the application's setting
            // (AIBuds seed 004, the interruption switch): here it plays on.
            reply(.event(MultiModalDialogEvent.requestAccepted.rawValue, [:]))
            return [
                .journal(
                    .info(
                        "RequestToSpeak acknowledged (RequestAccepted); round \(current.number) plays on: "
                            + "the scenario makes answers uninterruptible"))
            ]
        }
        var commands = interrupt(current)
        timeline.add(.event(MultiModalDialogEvent.requestAccepted.rawValue, [:]), at: lane(now))
        timeline.add(.enter(.listening), at: lane(now))
        commands.append(.journal(.info("round \(current.number) interrupted by RequestToSpeak")))
        return commands
    }

    /// Drops the rest of `current`, the current round (its pending frames and fallback timer), at once.
    func interrupt(_ current: ActiveRound) -> [SessionCommand] {
        let audio = timeline.count(group: current.number) { if case .audio = $0 { true } else { false } }
        timeline.drop(group: current.number)
        timeline.resetLane(to: now)
        rounds.interrupt()
        scenario.runtime.report.interruptedAnswers += 1
        return [
            .cancelTimer(.engine(Self.playbackFallbackTimer)),
            .journal(.info("stopped round \(current.number): \(audio) audio frames not sent")),
        ]
    }

    /// C19: LocalRespondingStarted after RespondingStarted, once per round.
    private func localRespondingStarted() -> [SessionCommand] {
        switch rounds.localPlaybackStarted() {
        case .recorded, .interruptedRound:  // (the interrupted round is a LocalRespondingEnded case)
            return []
        case .repeated(let number):
            return [.journal(.must("mmd.C19", "LocalRespondingStarted sent twice in round \(number)"))]
        case .noRespondingRound:
            return [.journal(.must("mmd.C19", "LocalRespondingStarted without a RespondingStarted round"))]
        }
    }

    /// S9: LocalRespondingEnded returns to Listening (at once, or right after RespondingEnded).
    private func localRespondingEnded() -> [SessionCommand] {
        switch rounds.localPlaybackEnded() {
        case .recorded(let current):
            guard current.respondingEnded else {
                return [.journal(.info("LocalRespondingEnded before RespondingEnded"))]
            }
            timeline.add(.enter(.listening), at: lane(now))
            return []
        case .repeated(let number):
            return [.journal(.must("mmd.C19", "LocalRespondingEnded sent twice in round \(number)"))]
        case .interruptedRound:
            return [.journal(.info("LocalRespondingEnded for the interrupted round"))]
        case .noRespondingRound:
            return [
                .journal(.must("mmd.C19", "LocalRespondingEnded without a RespondingStarted round (or sent twice)"))
            ]
        }
    }
}
