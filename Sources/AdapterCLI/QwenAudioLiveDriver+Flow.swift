import DialogClients
import ProtocolModel
import WireJSON

extension QwenAudioLiveDriver {
    /// The `get_weather` tool of the default flow (the flat shape of `session.tools`).
    static let weatherTool: JSONValue = [
        "type": "function", "name": "get_weather", "description": "Weather for a city",
        "parameters": ["type": "object", "properties": ["city": ["type": "string"]]],
    ]

    /// A full correct session (EOF on stdin at once), with the one fault of `--fault` if any:
    /// configure, speak the fixture, let the handlers answer any call or delegation, wait for
    /// the answer to play, `session.close` → `session.closed` → close.
    func runDefaultFlow() async {
        var session = Self.defaultSession
        session["tools"] = [Self.weatherTool]
        do {
            try await ensureConnected(session: session)
        } catch {
            return
        }
        // The answer may come while the speech is still going out (a short scripted one).
        let mark = client.audioChunksReceived
        await appendSpeech(FixturePaths.readOrWarn("fixtures/audio/hello-16k.pcm", fallback: []), realtime: true)
        // A client that never answers the call, or whose speech is not heard, gets no answer:
        // it gives up sooner.
        let unanswered = breach == .ignoreFunctionCall || breach == .aoqAudioOnWs
        _ = await client.waitForAnswer(afterAudioChunks: mark, timeoutMillis: unanswered ? 6_000 : 15_000)
        await client.close()
    }

    /// Streams speech the client's way, or — for the `wrong-rate` fault — as unresampled
    /// capture-rate PCM.
    func appendSpeech(_ pcm: [UInt8], realtime: Bool) async {
        if let captureRate = fault?.unresampledCaptureRate {
            await UnresampledSpeech.stream(pcm, captureRate: captureRate) { frame in
                guard !client.isOver else { return false }
                client.appendAudio(frame)
                return true
            }
        } else {
            await client.appendAudio(pcm: pcm, realtime: realtime)
        }
    }

    /// The breaches that follow a correct `session.updated` (audio ones only where audio may go
    /// on the WebSocket: after an AOQ request it would break qal.C7 too).
    func injectAfterUpdated() async {
        switch breach {
        case .binaryFrame?: client.sendRaw(binary: [0, 1, 2, 3])
        case .unknownEvent?: client.sendRaw(["type": "session.input_audio.flush"])
        case .oddPcmFrame? where !client.audioGoesOverAOQ:
            client.sendRaw(
                QwenAudioLiveClientEvent.inputAudioAppend.object(["audio": .string(Base64.encode([0, 0, 0]))]))
        case .aoqAudioOnWs?:
            // Asks for AOQ media (refused by the mock) and keeps its microphone on the WebSocket
            // all the same (the client's fault lets the speech that follows through).
            _ = try? await client.updateSession(["transport": ["type": "aoq", "aoq": ["ws_audio": false]]])
        default: break
        }
    }
}

extension QwenAudioLiveDriver: CaseDriver {
    func endSession() async { await client.close() }
    func flushCallbacks() async { await client.flushCallbacks() }
}
