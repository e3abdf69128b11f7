import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

extension MultiModalDialogSession {
    /// S15/S12/C15: UpdateInfo stores status and biz_params (no reply) and checks images.
    func updateInfo(_ frame: ClientFrame) -> [SessionCommand] {
        let parameters = frame.parameters
        var commands: [SessionCommand] = []
        if let parameters, parameters.objectValue == nil {
            let message = "UpdateInfo parameters must be an object, got \(parameters.typeName)"
            return reject(.invalidParameter(message), obligation: "mmd.C7", message)
        }
        let images: [ImageRules.Image]
        do throws(ParameterProblem) {
            images = try ImageRules.validate(parameters?["images"])
        } catch {
            return reject(.invalidImage(error.message), obligation: error.obligation, error.message)
        }
        var streams: StartConfiguration?
        if var updated = config, parameters?["upstream"] != nil || parameters?["downstream"] != nil {
            do throws(ParameterProblem) {
                let reader = try ParameterReader(parameters, path: "payload.parameters", obligation: "mmd.C5")
                try updated.applyUpstream(reader.nested("upstream"))
                try updated.downlink.apply(reader.nested("downstream"))
            } catch {
                return reject(.invalidParameter(error.message), obligation: error.obligation, error.message)
            }
            if let problem = unknownVoice(updated.downlink) {
                return reject(.invalidParameter(problem.message), obligation: problem.obligation, problem.message)
            }
            streams = updated
        }
        if !images.isEmpty { commands += videoFrame(images) }
        if let streams, streams != config { commands += applyStreamSettings(streams) }
        if case .object(let biz)? = parameters?["biz_params"] {
            for (key, value) in biz { config?.bizParams[key] = value }
            applyPromptVariables(biz)
            commands.append(.journal(.info("biz_params updated: \(biz.keys.joined(separator: ", "))")))
        }
        if let status = parameters?["client_info"]?["status"], !status.isNull {
            clientStatus = status
            commands.append(.journal(.info("client_info.status stored")))
        }
        return commands
    }

    /// UpdateInfo `upstream` / `downstream` mid-call (§5.6): the uplink decoder and detector
    /// restart at the new format and rate now, a new mode's audio-gap watch applies to the
    /// current state, and answers use the new downstream settings from the next round on.
    private func applyStreamSettings(_ updated: StartConfiguration) -> [SessionCommand] {
        guard let before = config else { return [] }
        config = updated
        var changes: [String] = []
        var commands: [SessionCommand] = []
        if before.uplinkFormat != updated.uplinkFormat || before.uplinkSampleRate != updated.uplinkSampleRate {
            changes.append("upstream \(updated.uplinkFormat.rawValue) at \(updated.uplinkSampleRate) Hz")
        }
        if before.mode != updated.mode {
            changes.append("mode \(updated.mode.rawValue)")
            if let state = rounds.announcedState { commands += watchAudioGap(in: state) }
        }
        if before.allowsVideo != updated.allowsVideo {
            changes.append("upstream.type \(updated.allowsVideo ? "AudioAndVideo" : "AudioOnly")")
        }
        if !changes.isEmpty { uplink?.reconfigure(format: updated.uplinkFormat, sampleRate: updated.uplinkSampleRate) }
        if before.downlink != updated.downlink {
            changes.append("downstream settings (from the next answer)")
            if let note = updated.downlink.sampleRateNote, !before.downlink.sampleRateUnset {
                commands.append(.journal(.info(note)))
            }
        }
        commands.insert(.journal(.info("UpdateInfo changed \(changes.joined(separator: ", "))")), at: 0)
        return commands
    }

    /// C15: one base64 image per UpdateInfo in video mode, about every 500 ms, starting only once
    /// the connect round is back in Listening and stopping when the call ends. Images with no
    /// video call at all are pictures for the agent (DOC-AGENT): a note, not a violation.
    private func videoFrame(_ images: [ImageRules.Image]) -> [SessionCommand] {
        guard video.isOn else {
            if rounds.current?.videoModeAfter == true {
                return [
                    .journal(
                        .must("mmd.C15", "UpdateInfo video frame before the video connect round returned to Listening"))
                ]
            }
            if video.hadCall {
                return [
                    .journal(
                        .must(
                            "mmd.C15",
                            "UpdateInfo video frame after the video call ended (exit / quit_videochat / stop_video_stream)"
                        ))
                ]
            }
            return [.journal(.info("UpdateInfo images outside a video call: accepted as pictures for the agent"))]
        }
        var commands: [SessionCommand] = []
        if images.count != 1 || images[0].type != "base64" {
            commands.append(
                .journal(
                    .must(
                        "mmd.C15",
                        "video-mode UpdateInfo must carry exactly one base64 image, got \(images.count) (\(images.map(\.type).joined(separator: ",")))"
                    )))
        }
        if let gapMs = video.frameArrived(at: now) {
            if !options.videoFrameGapMs.contains(gapMs) {
                commands.append(.journal(.should("mmd.C15", "video frame gap \(gapMs) ms (SHOULD be ~500 ms)")))
            }
            commands.append(.journal(.info("video frame, gap \(gapMs) ms")))
        } else {
            commands.append(.journal(.info("first video frame")))
        }
        return commands
    }

    /// S19: abort the round, `Stopped`, `task-finished`, close 1000; later frames are ignored.
    func stop() -> [SessionCommand] {
        timeline.removeAll()
        var commands: [SessionCommand] = [.cancelTimer(.engine(Self.playbackFallbackTimer))]
        commands += send(frames.event(MultiModalDialogEvent.stopped.rawValue, dialogID: dialogID, at: now))
        commands += send(frames.taskFinished(at: now))
        // Frames the client sent right behind Stop are still read (and journaled, C22).
        commands += teardown(
            journal: "stopped by the client", closeDelayMicros: options.closeAfterStopMicros, endReason: "clientStop")
        return commands
    }
}
