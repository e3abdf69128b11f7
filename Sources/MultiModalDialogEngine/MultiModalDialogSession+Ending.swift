package import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireAudio
import WireJSON

extension MultiModalDialogSession {
    /// S17/S18 and the other scenario ends, rendered the multimodal way:
    /// idle → Stopped + task-finished; serverSilence → task-failed{ResponseTimeout};
    /// audioGap → Error{40000, AudioTimeout} + task-failed{AudioTimeout}; sessionExpiry →
    /// task-failed{SessionExpired}; trigger → task-failed{SessionEnded}. Then close.
    package func endSession(_ reason: SessionEnd) -> [SessionCommand] {
        guard lifecycle != .finished else { return [] }
        timeline.removeAll()
        var commands: [SessionCommand] = [.cancelTimer(.engine(Self.playbackFallbackTimer))]
        let time = now
        switch reason {
        case .idle:
            // The only end the service documents for a session without interaction (DOC-MMWS
            // error list: `ResponseTimeout`, "Response timeout!"); the AIBuds auto-end itself is
            // the app's (SEED-004 "Coordinate Stop"), which the wire cannot see.
            commands += send(frames.taskFailed(code: "ResponseTimeout", message: "Response timeout!", at: time))
        case .serverSilence:
            commands.append(.journal(.must("mmd.C21", "the server was silent for the 60 s limit (no HeartBeat)")))
            commands += send(
                frames.taskFailed(code: Self.responseTimeout.code, message: Self.responseTimeout.message, at: time))
        case .audioGap:
            let duplex = config?.mode == .duplex
            commands.append(
                .journal(.must(duplex ? "mmd.C12" : "mmd.C11", "no upstream audio for the audio-gap timeout")))
            commands += send(
                frames.error(.audioTimeout("no upstream audio for the audio-gap timeout"), dialogID: dialogID, at: time)
            )
            commands += send(
                frames.taskFailed(
                    code: "AudioTimeout", message: "no upstream audio for the audio-gap timeout", at: time))
        case .sessionExpiry:
            commands += send(frames.taskFailed(code: "SessionExpired", message: "the session expired", at: time))
        case .trigger(let reason):
            commands += send(frames.taskFailed(code: "SessionEnded", message: reason, at: time))
        }
        commands += teardown(journal: "session ended: \(reason)", endReason: reason.reportName)
        return commands
    }

    /// DOC-MMERR "RequestTimeOut": the gateway's `task-failed` after more than a minute without
    /// interaction (S17).
    static var responseTimeout: (code: String, message: String) { ("ResponseTimeout", "Response timeout!") }

    /// Ends the session: releases held frames (runtime flush), then closes the socket.
    /// `endReason` goes into the final report (``ScenarioRuntime/finalReport(endReason:)``)
    /// unless the scenario already ended the session for a reason of its own.
    func teardown(
        journal text: String, closeDelayMicros: Int64 = 0, endReason: String = "serverError"
    ) -> [SessionCommand] {
        guard lifecycle != .finished else { return [] }
        lifecycle = .finished
        fatalRendered = false
        timeline.removeAll()
        var commands: [SessionCommand] = [.journal(.info(text)), .cancelTimer(.engine(Self.playbackFallbackTimer))]
        if let report = scenario.runtime.finalReport(endReason: endReason) {
            commands.append(.journal(.report(report)))
        }
        commands += handle(scenario.runtime.close())
        let reason = text.count > 100 ? String(text.prefix(100)) : text
        commands.append(.transport(.close(code: options.closeCode, reason: reason), atMicros: now + closeDelayMicros))
        return commands
    }

    /// Fault requests: an unknown `result-generated` event, or the protocol's error
    /// (`Error`, or `task-failed` for a fatal ErrorSpec, after which the session closes).
    package func render(_ request: FaultRequest, atMicros time: Int64) -> [OutboundFrame] {
        switch request {
        case .unknownEvent(let eventType, let template):
            if let template { return [frames.scripted(template, at: time)] }
            return [frames.event(eventType, dialogID: dialogID, at: time)]
        case .injectError(let spec):
            guard spec.fatal else { return [frames.error(Self.dialogError(spec), dialogID: dialogID, at: time)] }
            fatalRendered = true
            // DOC-MMERR shows two fatal shapes: an integer status (`result-generated` with header
            // status_code, e.g. 421) and a string code (`task-failed`, e.g. Model.AccessDenied).
            if let status = Int(spec.code) {
                let error = DialogErrorEvent(code: status, name: spec.name ?? spec.code, message: spec.message)
                return [frames.statusError(error, dialogID: dialogID, at: time)]
            }
            return [frames.taskFailed(code: spec.name ?? spec.code, message: spec.message, at: time)]
        }
    }

    /// Scenario-given frames: JSON (task_id filled when missing), raw text, or voice-like
    /// audio of an exact byte length in the session's downstream sample rate.
    package func scripted(_ frame: ScriptedFrame, atMicros time: Int64) -> OutboundFrame? {
        switch frame {
        case .json(let json):
            return frames.scripted(json, at: time)
        case .text(let text):
            return OutboundFrame(eventType: nil, isText: true, bytes: Array(text.utf8), dueAtMicros: time)
        case .synthesizedAudio(let byteLength, _):
            let rate = config?.downlink.sampleRate ?? 24000
            let seconds = Double(byteLength) / Double(rate * 2)
            var bytes = VoiceSynthesizer(sampleRate: rate, seed: scenario.runtime.scenario.seed)
                .synthesize(String(repeating: "la ", count: max(1, Int(seconds * 4) + 1))).littleEndianBytes
            if bytes.count < byteLength { bytes += [UInt8](repeating: 0, count: byteLength - bytes.count) }
            return frames.audio(Array(bytes.prefix(byteLength)), at: time)
        case .close:
            return nil
        }
    }
}

extension MultiModalDialogSession {
    /// Binary frames are audio: uplink PCM at `upstream.sample_rate` or bare Opus packets (their
    /// duration from the packet's TOC), downlink PCM at `downstream.sample_rate`. An Ogg page or
    /// WAV header on a PCM uplink is summarised as `ogg` / `wav` (so `audioFormat` fails it);
    /// Ogg pages of a declared Opus stream, MP3 and an unparsable packet are not summarised:
    /// their length needs decoding.
    package func audioSummary(ofBinary bytes: [UInt8], inbound: Bool) -> ProtocolModel.AudioSummary? {
        guard let config else { return nil }
        if inbound {
            switch config.uplinkFormat {
            case .pcm:
                // A container's bytes are not samples: the summary says what arrived instead.
                if let container = AudioContainer.detect(bytes) {
                    return ProtocolModel.AudioSummary(codec: container.rawValue, durationMs: 0)
                }
                return PCMPayload.summary(bytes: bytes.count, sampleRate: config.uplinkSampleRate)
            case .opus, .rawOpus:
                // The framing the stream showed (this frame decides it when it is the first).
                guard (uplink?.decoder.framing ?? OpusFraming.detect(prefix: bytes)) == .raw,
                    let samples = OpusDecoder.sampleCount(ofPacket: bytes, sampleRate: 48_000)
                else { return nil }
                return ProtocolModel.AudioSummary(codec: "opus", durationMs: Double(samples) / 48)
            }
        }
        guard config.downlink.format == .pcm else { return nil }
        return PCMPayload.summary(bytes: bytes.count, sampleRate: config.downlink.sampleRate)
    }
}
