import DialogClients
import ProtocolModel
import WireAudio
import WireJSON

extension MultiModalDriver {
    /// Faults the library itself carries out (handshake, Start frame, playback reports).
    func applyLibraryFaults() {
        var faults = dialog.faults
        switch breach {
        case .noAuthorization: faults.authorization = .none
        case .missingBearer: faults.authorization = .bare
        case .binaryBeforeListening: faults.binaryAfterStart = true
        case .noLocalRespondingEnded: faults.skipLocalRespondingEnded = true
        case .doubleLocalRespondingEnded: faults.doubleLocalRespondingEnded = true
        case .noHeartbeat: faults.disableHeartbeat = true
        case .oddPcmFrame: faults.oddAudioFrame = true
        case .firstFrameNotStart:
            faults.rewriteStart = { frame in frame.set(["header", "action"], "continue-task") }
        case .badTaskGroup:
            faults.rewriteStart = { frame in frame.set(["payload", "task_group"], "audio") }
        case .missingUserId:
            faults.rewriteStart = { frame in frame.set(["payload", "parameters", "client_info", "user_id"], nil) }
        default: break
        }
        dialog.faults = faults
    }

    /// The mode of the default flow: push2talk where the fault needs it, else tap2talk.
    private var flowMode: DialogMode {
        switch breach {
        case .audioOutsideSendspeech, .noHeartbeat: .push2talk
        case .noSilenceDuplex: .duplex
        default: .tap2talk
        }
    }

    /// A full correct session (EOF on stdin at once), with the one fault of `--fault` if any:
    /// start, one spoken turn with the fixture, playback, back to Listening, stop.
    func runDefaultFlow() async {
        let upstreamType = breach == .framesOutsideVideo ? "AudioAndVideo" : "AudioOnly"
        var parameters: JSONObject = ["upstream": ["type": .string(upstreamType), "mode": .string(flowMode.rawValue)]]
        if breach == .badEnum { parameters["downstream"] = ["sample_rate": 44100] }
        let dialogID: String? = breach == .badDialogId ? "not-a-dialog" : nil
        do {
            try await dialog.start(
                apiKey: environment.apiKey, params: MultiModalRequestParam(parameters: parameters), dialogId: dialogID)
        } catch {
            _ = await dialog.waitUntilClosed(timeoutMillis: 3_000)
            return
        }
        guard await waitForState(.listening, timeoutMillis: 5_000) else { return await dialog.stop() }
        if await injectIdleFault() { return }
        await injectListeningFault()
        let pcm = FixturePaths.readOrWarn("fixtures/audio/hello-16k.pcm", fallback: [])
        if breach == .oggAsPcm {
            // No samples reach the server: no answer to wait for.
            await sendAsOggOpus(pcm)
            return await finish()
        }
        if flowMode == .push2talk { dialog.startSpeech() }
        if let captureRate = fault?.unresampledCaptureRate {
            // Frames the library drops (tap2talk after SpeechEnded) go on being offered, as `sendAudio` does.
            await UnresampledSpeech.stream(pcm, captureRate: captureRate) { frame in
                dialog.sendAudioData(frame)
                return true
            }
        } else {
            await dialog.sendAudio(pcm: pcm, realtime: true)
        }
        if flowMode == .push2talk { dialog.stopSpeech() }
        // The answer; a non-fatal Error instead of it (the round returns to Listening) or the
        // end of the task (task-failed, a server close: terminal, C24) cuts the waits short.
        let playing = await waitUnlessEnded(timeoutMillis: 10_000) {
            self.events.hasSeen("playback_started") || self.erredBackToListening
        }
        if playing, events.hasSeen("playback_started"), breach == .respondOutsideListening {
            dialog.sendRaw(text: dialog.rawDirective(.requestToRespond, input: ["type": "prompt", "text": "Hello?"]))
        }
        _ = await waitUnlessEnded(timeoutMillis: 20_000) {
            self.events.hasSeen("responding_ended") || self.erredBackToListening
        }
        guard !events.hasSeen("closed") else { return }
        if erredBackToListening {
            // A non-fatal Error does not end the dialog: stay in Listening (audio keeps flowing) a moment.
            try? await Task.sleep(for: .seconds(1))
        }
        let grace = breach == .noLocalRespondingEnded ? 20_000 : 10_000
        _ = await waitUnlessEnded(timeoutMillis: grace) { self.dialog.dialogState == .listening }
        await finish()
    }

    /// The `ogg-as-pcm` fault: the speech encoded as Ogg Opus, one page per 20 ms packet, sent
    /// in real time on a stream whose Start declared pcm.
    private func sendAsOggOpus(_ pcm: [UInt8]) async {
        guard let encoder = try? OpusEncoder(sampleRate: 16_000),
            let packets = try? encoder.encode(PCMBuffer(littleEndianBytes: pcm[...], sampleRate: 16_000))
        else {
            return log("ogg-as-pcm: cannot encode the fixture")
        }
        let writer = OggOpusWriter(head: OpusHead(inputSampleRate: 16_000), flushEveryPacket: true)
        var pages = [writer.takePending()]
        for packet in packets { pages.append(writer.write(packet: packet, samples48k: 960)) }
        pages.append(writer.finish())
        let clock = ContinuousClock()
        let start = clock.now
        for (index, page) in pages.enumerated() where !page.isEmpty {
            dialog.sendAudioData(page)
            try? await clock.sleep(until: start + .milliseconds(20 * (index + 1)))
        }
    }

    /// A non-fatal `Error` came and the dialog is back in Listening.
    private var erredBackToListening: Bool {
        events.hasSeen("error") && dialog.dialogState == .listening
    }

    /// Polls `done` until it holds, the timeout passes or the session is over (the socket
    /// closed after task-failed or a server close). - Returns: whether `done` held.
    private func waitUnlessEnded(timeoutMillis: Int, _ done: @Sendable () -> Bool) async -> Bool {
        for _ in 0..<(timeoutMillis / 20) {
            if done() { return true }
            if events.hasSeen("closed") { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return done()
    }

    /// Faults that need an idle Listening session (the mock's timers end it). - Returns: true
    /// when the flow is over.
    private func injectIdleFault() async -> Bool {
        switch breach {
        case .noSilence, .noSilenceDuplex, .noHeartbeat:
            _ = await dialog.waitUntilClosed(timeoutMillis: 70_000)
            return true
        case .framesOutsideVideo:
            // The default flow's video call: connect, and a frame before the round is back.
            dialog.requestToRespond(type: "prompt", text: "", params: Self.videoConnect)
            sendVideoFrame()
            _ = await waitUnlessEnded(timeoutMillis: 10_000) { self.events.hasSeen("responding_ended") }
            _ = await waitUnlessEnded(timeoutMillis: 10_000) { self.dialog.dialogState == .listening }
            await finish()
            return true
        default:
            return false
        }
    }

    /// Faults sent once in the first Listening.
    func injectListeningFault() async {
        let other = "00000000-0000-4000-8000-000000000000"
        switch breach {
        case .wrongTaskId: dialog.sendRaw(text: dialog.rawDirective(.heartBeat, taskID: other))
        case .wrongDialogId:
            dialog.sendRaw(text: dialog.rawDirective(.heartBeat, input: ["dialog_id": .string(other)]))
        case .audioOutsideSendspeech: dialog.sendRaw(binary: [UInt8](repeating: 0, count: 3200))
        case .respondWithoutText:
            dialog.sendRaw(text: dialog.rawDirective(.requestToRespond, input: ["type": "prompt"]))
        case .interruptInListening:
            dialog.sendRaw(text: dialog.rawDirective(.requestToSpeak))
            // The mock accepts it: let the RequestAccepted arrive before the flow goes on, so the
            // acceptance does not cut the next push2talk bracket (one broken rule, not two). A
            // poll, not `wait`: the drive's own waits must still see every event.
            for _ in 0..<50 where !events.hasSeen("request_accepted") { try? await Task.sleep(for: .milliseconds(20)) }
        case .badImage:
            dialog.sendRaw(
                text: dialog.rawDirective(
                    .requestToRespond, input: ["type": "prompt", "text": "What is this?"],
                    parameters: ["images": [["type": "file", "value": "frame.jpg"]]]))
        case .oversizedImage:
            let big = Base64.encode([UInt8](repeating: 0x5A, count: 200 * 1024))
            dialog.sendRaw(
                text: dialog.rawDirective(
                    .requestToRespond, input: ["type": "prompt", "text": "What is this?"],
                    parameters: ["images": [["type": "base64", "value": .string(big)]]]))
        case .videoConnectAsTranscript:
            dialog.sendRaw(
                text: dialog.rawDirective(
                    .requestToRespond, input: ["type": "transcript", "text": "Video on."],
                    parameters: ["biz_params": ["videos": [["action": "connect", "type": "voicechat_video_channel"]]]]))
        case .heartbeatFlood:
            dialog.sendRaw(text: dialog.rawDirective(.heartBeat))
            Task { [dialog] in
                try? await Task.sleep(for: .seconds(1))
                // Not after Stop: that would break C22 as well.
                if dialog.isRunning { dialog.sendRaw(text: dialog.rawDirective(.heartBeat)) }
            }
        default: break
        }
    }

    /// `biz_params` of the request that opens a video call (C16).
    static let videoConnect: JSONObject = [
        "biz_params": ["videos": [["action": "connect", "type": "voicechat_video_channel"]]]
    ]

    /// One video frame: the fixture JPEG as the single base64 image of an UpdateInfo.
    func sendVideoFrame() {
        let jpeg = Base64.encode(
            FixturePaths.readOrWarn("fixtures/images/frame.jpg", fallback: [0xFF, 0xD8, 0xFF, 0xD9]))
        dialog.updateInfo(params: ["images": [["type": "base64", "value": .string(jpeg)]]])
    }

    /// Ends the flow: `stop()`, or the ending fault.
    private func finish() async {
        switch breach {
        case .continueForStop:
            dialog.sendRaw(text: dialog.rawDirective(.stop, action: .continueTask))
            if await !dialog.waitUntilClosed(timeoutMillis: 3_000) { await dialog.close() }
        case .framesAfterFinish:
            dialog.sendRaw(text: dialog.rawDirective(.stop))
            dialog.sendRaw(text: dialog.rawDirective(.heartBeat))
            if await !dialog.waitUntilClosed(timeoutMillis: 3_000) { await dialog.close() }
        default:
            await dialog.stop()
        }
    }
}
