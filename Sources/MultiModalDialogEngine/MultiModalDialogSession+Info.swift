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
        if !images.isEmpty { commands += videoFrame(images) }
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

    /// C15: one base64 image per UpdateInfo in video mode, about every 500 ms; images outside
    /// video mode are accepted but flagged (S13).
    private func videoFrame(_ images: [ImageRules.Image]) -> [SessionCommand] {
        guard videoMode else {
            return [.journal(.must("mmd.C15", "UpdateInfo images outside video mode (no connect round / send_video_stream)"))]
        }
        var commands: [SessionCommand] = []
        if images.count != 1 || images[0].type != "base64" {
            commands.append(.journal(.must("mmd.C15", "video-mode UpdateInfo must carry exactly one base64 image, got \(images.count) (\(images.map(\.type).joined(separator: ",")))")))
        }
        if let last = lastVideoFrameAt {
            let gapMs = (now - last) / 1000
            if !options.videoFrameGapMs.contains(gapMs) {
                commands.append(.journal(.should("mmd.C15", "video frame gap \(gapMs) ms (SHOULD be ~500 ms)")))
            }
            commands.append(.journal(.info("video frame, gap \(gapMs) ms")))
        } else {
            commands.append(.journal(.info("first video frame")))
        }
        lastVideoFrameAt = now
        return commands
    }

    /// S19: abort the round, `Stopped`, `task-finished`, close 1000; later frames are ignored.
    func stop() -> [SessionCommand] {
        timeline.removeAll()
        var commands: [SessionCommand] = [.cancelTimer(.engine(Self.playbackFallbackTimer))]
        commands += send(frames.event("Stopped", dialogID: dialogID, at: now))
        commands += send(frames.taskFinished(at: now))
        // Frames the client sent right behind Stop are still read (and journaled, C22).
        commands += teardown(journal: "stopped by the client", closeDelayMicros: options.closeAfterStopMicros)
        return commands
    }
}
