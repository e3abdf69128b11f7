import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

extension MultiModalDialogSession {
    /// S11–S13: RequestToRespond in Listening starts a round; elsewhere `Error{InvalidState}`.
    func requestToRespond(_ frame: ClientFrame) -> [SessionCommand] {
        guard rounds.conversation == .listening else {
            var commands = reject(
                .invalidState("RequestToRespond is only allowed in Listening"),
                obligation: "mmd.C13", "RequestToRespond outside Listening")
            if let command = rounds.unansweredFollowUp {
                commands.append(.journal(.must("mmd.C17", "follow-up of \(command) sent before Listening")))
            }
            return commands
        }
        let input = ParameterReader(object: frame.input, path: "input", obligation: "mmd.C13")
        let type: String
        let text: String
        do throws(ParameterProblem) {
            guard let kind = try input.choice("type", ["transcript", "prompt"]) else {
                throw input.problem("type", "is required (transcript or prompt)")
            }
            type = kind
        } catch {
            // DOC-MMERR "421-InvalidParameter": a wrong type gets the status error and the
            // connection closes.
            return failWithStatus(.respondTypeInvalid, violation: error)
        }
        do throws(ParameterProblem) {
            guard let value = try input.string("text") else { throw input.problem("text", "must be a non-null string") }
            text = value
        } catch {
            return reject(.invalidParameter(error.message), obligation: error.obligation, error.message)
        }
        let parameters = frame.parameters
        do throws(ParameterProblem) {
            _ = try ImageRules.validate(parameters?["images"])
        } catch {
            return reject(.invalidImage(error.message), obligation: error.obligation, error.message)
        }
        var commands = userInput()
        if type == "prompt" { scenario.runtime.report.turns += 1 }
        if frame.dialogID == nil {
            commands.append(
                .journal(
                    .should(
                        "mmd.C13",
                        "RequestToRespond carries no dialog_id (SHOULD carry the current one; known deviation of the dashscope Python SDK 2.0.2, which sends null)"
                    )))
        }
        if let command = rounds.takePendingCommand() {
            commands.append(.journal(.info("RequestToRespond follows the \(command) command")))
        }
        if let open = uplink?.utterance {
            timeline.drop(group: open.round)
            commands.append(.journal(.info("RequestToRespond replaces the utterance in progress")))
        }
        if config?.mode != .duplex { uplink?.restartDetection() } else { uplink?.dropUtterance() }
        let biz = parameters?["biz_params"]?.objectValue ?? JSONObject()
        if let videos = biz["videos"] {
            return commands + videoRequest(videos, type: type)
        }
        if type == "transcript" {
            startRound(.transcript(text), at: now)
        } else {
            var variables = scenario.runtime.variables
            for (key, value) in biz["user_prompt_params"]?.objectValue ?? JSONObject() {
                variables[key] = value.stringValue ?? value.encodedString()
            }
            let thinkingAt = lane(now)
            let number = rounds.numberNextRound()
            timeline.add(.enter(.thinking), at: thinkingAt, group: number)
            let (index, turn) = consumeTurn(user: text, variables: variables)
            commands.append(.journal(.info("RequestToRespond prompt → scripted turn \(index)")))
            planRound(number: number, content: .scripted(turn), from: thinkingAt)
        }
        return commands
    }

    /// S13/C16: `videos=[{action:"connect"|"exit", type:"voicechat_video_channel"}]`.
    private func videoRequest(_ videos: JSONValue, type: String) -> [SessionCommand] {
        guard let entry = videos.arrayValue?.first?.objectValue,
            let action = entry["action"]?.stringValue, action == "connect" || action == "exit"
        else {
            let message = "biz_params.videos must be [{action: connect|exit, type: voicechat_video_channel}]"
            return reject(.invalidParameter(message), obligation: "mmd.C16", message)
        }
        var commands: [SessionCommand] = []
        if type != "prompt" {
            commands.append(
                .journal(.must("mmd.C16", "video \(action) must use RequestToRespond type prompt, got \(type)")))
        }
        if entry["type"]?.stringValue != "voicechat_video_channel" {
            commands.append(.journal(.must("mmd.C16", "videos[0].type must be voicechat_video_channel")))
        }
        if action == "connect", config?.allowsVideo != true {
            commands.append(
                .journal(.must("mmd.C16", "video connect in a session started with upstream.type AudioOnly")))
        }
        if action == "exit" {
            video.exit()
        }
        let phrase = action == "connect" ? options.videoConnectPhrase : options.videoExitPhrase
        startRound(.video(phrase: phrase, connect: action == "connect"), at: now)
        commands.append(.journal(.info("video \(action) requested")))
        return commands
    }

    /// The next scripted turn (with these variables) and its index, remembered for the dialog (S21).
    func consumeTurn(user: String?, variables: [String: String]) -> (index: Int, turn: TurnContent) {
        let index = rounds.takeTurn()
        let turn = scenario.runtime.scenario.turn(at: index, variables: variables)
        if let dialogID {
            memory.remember(
                DialogMemory.Exchange(user: user ?? turn.transcript, answer: turn.answer),
                nextTurnIndex: rounds.turnIndex, in: dialogID)
        }
        return (index, turn)
    }

    /// Starts a round that goes straight to Responding (transcript, video phrases).
    private func startRound(_ content: RoundContent, at time: Int64) {
        let number = rounds.numberNextRound()
        planRound(number: number, content: content, from: lane(time))
    }
}
