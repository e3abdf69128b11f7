import DialogClients
import ProtocolModel
import WireJSON

extension QwenDriver {
    /// The nested `get_weather` tool of the default flow (C6).
    static let weatherTool: JSONValue = [
        "type": "function",
        "function": [
            "name": "get_weather", "description": "Weather for a city",
            "parameters": ["type": "object", "properties": ["city": ["type": "string"]]],
        ],
    ]

    private var pushToTalk: Bool { breach == .emptyCommit || breach == .secondResponse }

    /// A full correct session (EOF on stdin at once), with the one fault of `--fault` if any:
    /// configure, speak the fixture, answer any tool call, wait for the answer, finish.
    func runDefaultFlow() async {
        var session = Self.defaultSession
        session["tools"] = [Self.weatherTool]
        if pushToTalk { session["turn_detection"] = .null }
        do {
            try await ensureConnected(session: session)
        } catch {
            return
        }
        let pcm = FixturePaths.readOrWarn("fixtures/audio/hello-16k.pcm", fallback: [])
        if breach == .commitInVad, client.turnDetection != nil {
            // Mid-utterance (0.6 s in), so the committed buffer holds speech however short the
            // fixture's trailing silence is (after it, the server VAD has committed already).
            let split = min(pcm.count, 16_000 * 2 * 6 / 10) & ~1
            await client.appendAudio(pcm: Array(pcm[..<split]), realtime: true)
            client.sendRaw(QwenClientEvent.inputAudioBufferCommit.object())
            await client.appendAudio(pcm: Array(pcm[split...]), realtime: true)
        } else if let captureRate = fault?.unresampledCaptureRate {
            await UnresampledSpeech.stream(pcm, captureRate: captureRate) { frame in
                guard !client.isTerminated else { return false }  // C19: the session is over
                client.appendAudio(frame)
                return true
            }
        } else {
            await client.appendAudio(pcm: pcm, realtime: true)
        }
        await injectAfterAudio()
        if pushToTalk {
            client.commit()
            client.createResponse()
            // The breach right behind the first: that response is in progress from the moment the
            // server took it (waiting for its first event raced a short answer's end, and a
            // response.create after it is qrt.C10's "nothing new", not C11).
            if breach == .secondResponse { client.sendRaw(QwenClientEvent.responseCreate.object()) }
        }
        await answerToolCalls()
        _ = await client.waitUntilIdle(timeoutMillis: 15_000)
        await finishSession()
    }

    /// The session faults (C5, C6) applied to the first `session.update`.
    func applySessionFault(_ session: inout JSONObject) {
        switch breach {
        case .badModalities: session["modalities"] = ["audio"]
        case .flatTools:
            session["tools"] = [
                ["type": "function", "name": "get_weather", "parameters": ["type": "object", "properties": [:]]]
            ]
        default: break
        }
    }

    func injectBeforeAudio() {
        switch breach {
        case .binaryFrame: client.sendRaw(binary: [0, 1, 2, 3])
        case .unknownEvent: client.sendRaw(["type": "input_audio_buffer.flush"])
        case .numericEventId: client.sendRaw(QwenClientEvent.sessionUpdate.object(["session": [:], "event_id": 42]))
        case .imageBeforeAudio:
            let jpeg = FixturePaths.readOrWarn("fixtures/images/frame.jpg", fallback: [0xFF, 0xD8, 0xFF, 0xD9])
            client.sendRaw(QwenClientEvent.inputImageBufferAppend.object(["image": .string(Base64.encode(jpeg))]))
        case .cancelWithoutResponse: client.sendRaw(QwenClientEvent.responseCancel.object())
        case .badItem:
            client.createItem([
                "type": "message", "role": "robot", "content": [["type": "input_text", "text": "Hello"]],
            ])
        case .emptyCommit: client.sendRaw(QwenClientEvent.inputAudioBufferCommit.object())
        case .badBase64: client.sendRaw(QwenClientEvent.inputAudioBufferAppend.object(["audio": "@@not base64@@"]))
        case .oddAudioChunk:
            client.sendRaw(QwenClientEvent.inputAudioBufferAppend.object(["audio": .string(Base64.encode([0, 0, 0]))]))
        default: break
        }
    }

    func injectAfterAudio() async {
        switch breach {
        case .changeTurnDetectionAfterAudio: _ = try? await client.updateSession(["turn_detection": .null])
        case .voiceInLaterUpdate: _ = try? await client.updateSession(["voice": "longanlingxin"])
        default: break
        }
    }

    /// Answers every function call of the turn (C13), or breaks the rule for the tool faults.
    private func answerToolCalls() async {
        for _ in 0..<2 {
            _ = await client.waitUntilIdle(timeoutMillis: 15_000)
            let calls = client.pendingCallIds
            guard !calls.isEmpty else { return }
            for call in calls {
                switch breach {
                case .wrongCallId:
                    client.sendRaw(
                        QwenClientEvent.conversationItemCreate.object([
                            "item": ["type": "function_call_output", "call_id": "call_wrong", "output": "{}"]
                        ]))
                    client.sendRaw(QwenClientEvent.responseCreate.object())
                    return
                case .duplicateToolOutput:
                    client.sendFunctionCallOutput(
                        callId: call, output: "{\"weather\":\"sunny\"}", createResponse: false)
                    client.sendRaw(
                        QwenClientEvent.conversationItemCreate.object([
                            "item": ["type": "function_call_output", "call_id": .string(call), "output": "{}"]
                        ]))
                    client.createResponse()
                default:
                    client.sendFunctionCallOutput(callId: call, output: "{\"weather\":\"sunny\"}")
                }
            }
        }
    }

    /// Ends the session (the two ending faults break C17 / C18 here).
    func finishSession() async {
        switch breach {
        case .finishOnAudioProfile:
            client.sendRaw(QwenClientEvent.sessionFinish.object())
            try? await Task.sleep(for: .milliseconds(300))
            await client.close()
        case .eventsAfterFinish:
            client.sendRaw(QwenClientEvent.sessionFinish.object())
            client.sendRaw(
                QwenClientEvent.inputAudioBufferAppend.object(["audio": .string(Base64.encode([0, 0, 0, 0]))]))
            try? await Task.sleep(for: .milliseconds(500))
            await client.close()
        default:
            await client.finish()
        }
    }
}
