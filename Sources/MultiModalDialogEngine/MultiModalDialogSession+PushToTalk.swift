import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

extension MultiModalDialogSession {
    /// S7: SendSpeech opens the push2talk bracket (Listening only, C10); in tap2talk/duplex it
    /// is accepted and changes nothing (SEED-000/001 tap-to-start).
    func sendSpeech() -> [SessionCommand] {
        guard config?.mode == .pushToTalk else {
            return [.journal(.info("SendSpeech outside push2talk: nothing to do"))]
        }
        guard rounds.conversation == .listening else {
            return reject(
                .invalidState("SendSpeech is only allowed in Listening"), obligation: "mmd.C10",
                "SendSpeech outside Listening")
        }
        guard uplink?.pushToTalkOpen != true else {
            return [.journal(.must("mmd.C10", "SendSpeech while a SendSpeech bracket is open"))]
        }
        uplink?.openBracket()
        endStretch("pushToTalkOutsideBracket")
        beginUtterance(startMs: 0)
        if let open = uplink?.utterance {
            timeline.add(.event(MultiModalDialogEvent.speechStarted.rawValue, [:]), at: lane(now), group: open.round)
        }
        return userInput()
    }

    /// S7: StopSpeech closes the utterance (final SpeechContent → Thinking); without audio it
    /// behaves like CancelSpeech. In tap2talk/duplex it ends an utterance in progress.
    func stopSpeech() -> [SessionCommand] {
        guard config?.mode == .pushToTalk else {
            guard uplink?.utterance != nil else { return [.journal(.info("StopSpeech without speech in progress"))] }
            return closeUtterance(at: lane(now))
        }
        guard uplink?.pushToTalkOpen == true, let open = uplink?.utterance else {
            return [.journal(.must("mmd.C10", "StopSpeech without SendSpeech"))]
        }
        guard open.bracketAudioMs > 0 else {
            var commands: [SessionCommand] = [.journal(.must("mmd.C10", "no audio between SendSpeech and StopSpeech"))]
            commands += cancelSpeech()
            return commands
        }
        return closeUtterance(at: lane(now))
    }

    /// S7: CancelSpeech discards the utterance: SpeechEnded (if SpeechStarted went out), no
    /// answer, Listening stays.
    func cancelSpeech() -> [SessionCommand] {
        guard let open = uplink?.utterance else {
            if config?.mode == .pushToTalk {
                return [.journal(.must("mmd.C10", "CancelSpeech without SendSpeech"))]
            }
            return [.journal(.info("CancelSpeech without speech in progress"))]
        }
        let unsent = timeline.drop(group: open.round)
        let startWasSent = !unsent.contains { $0.action == .event(MultiModalDialogEvent.speechStarted.rawValue, [:]) }
        if startWasSent { timeline.add(.event(MultiModalDialogEvent.speechEnded.rawValue, [:]), at: lane(now)) }
        uplink?.restartDetection()
        return [.journal(.info("utterance cancelled; no answer"))] + updateIdleHold()
    }
}
