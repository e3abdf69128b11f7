import DialogClients
import Testing
import WireJSON

/// Full flows of `QwenRealtimeClient` against the in-process mock.
@Suite struct QwenRealtimeClientTests {
    static let toolScenario = """
        {"name": "qwen-tool", "seed": 7, "turns": [
          {"transcript": "weather in Paris?", "answer": "It is 21 degrees in Paris.",
           "functionCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}]}
        """

    static func makeClient(_ url: String, model: String = "qwen3-omni-flash-realtime") -> (QwenRealtimeClient, Recorder)
    {
        let client = QwenRealtimeClient(url: url, apiKey: "sk-test", model: model)
        let recorder = Recorder()
        var callbacks = QwenRealtimeCallbacks()
        callbacks.onSpeechStarted = { _ in recorder.add("speechStarted") }
        callbacks.onInputTranscript = { _, text, isFinal in if isFinal { recorder.add("transcript:\(text)") } }
        callbacks.onResponseCreated = { _ in recorder.add("responseCreated") }
        callbacks.onResponseText = { _, text in recorder.add("text:\(text)") }
        callbacks.onAudio = { _, _ in recorder.add("audio") }
        callbacks.onResponseDone = { _, status in recorder.add("done:\(status)") }
        callbacks.onFunctionCall = { id, name, arguments in
            recorder.add("call:\(name):\(arguments)")
            _ = id
        }
        callbacks.onError = { recorder.add("error:\($0.code)") }
        callbacks.onPlaybackStarted = { _ in recorder.add("playbackStarted") }
        callbacks.onPlaybackEnded = { _ in recorder.add("playbackEnded") }
        callbacks.onClosed = { code, _ in recorder.add("closed:\(code)") }
        client.callbacks = callbacks
        return (client, recorder)
    }

    @Test func serverVADTurnWithRealSpeech() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.qwenURL())
        let session = try await client.connect(session: ["modalities": ["text", "audio"]])
        #expect(session["turn_detection"]?["type"]?.stringValue == "server_vad")
        await client.appendAudio(pcm: Fixtures.hello)
        #expect(await recorder.wait(for: "done:completed"))
        await client.finish()
        #expect(recorder.contains("transcript:"))
        #expect(recorder.contains("text:Hi there!"))
        #expect(recorder.count("playbackStarted") == 1)
        // The close callback may land just after finish() returns (a loaded machine).
        #expect(await recorder.wait(for: "closed:1000"), "\(recorder.all.suffix(8))")
        await mock.expectNoViolations()
    }

    @Test func pushToTalkCommitsThenCreatesAResponse() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.qwenURL())
        try await client.connect(session: ["turn_detection": .null])
        #expect(client.commit() == false)  // nothing buffered: not sent (C10)
        await client.appendAudio(pcm: Fixtures.hello)
        #expect(client.commit())
        client.createResponse()
        client.createResponse()  // absorbed: one response at a time (C11)
        #expect(await recorder.wait(for: "done:completed"))
        await client.finish()
        #expect(recorder.count("responseCreated") == 1)
        await mock.expectNoViolations()
    }

    @Test func cancelStopsPlaybackAndTextItemsWork() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.qwenURL())
        try await client.connect(session: ["turn_detection": .null])
        client.cancelResponse()  // nothing in progress: not sent (C12)
        client.createItem(["type": "message", "role": "user", "content": [["type": "input_text", "text": "Hello"]]])
        client.createResponse()
        #expect(await recorder.wait(for: "playbackStarted"))
        client.cancelResponse()
        #expect(await recorder.wait(for: "done:cancelled"))
        #expect(await recorder.wait(for: "playbackEnded"))
        await client.finish()
        await mock.expectNoViolations()
    }

    @Test func toolRoundTripAnswersTheCallAndResponds() async throws {
        let mock = try MockSession(scenario: Self.toolScenario)
        let (client, recorder) = Self.makeClient(mock.qwenURL())
        let tool: JSONValue = [
            "type": "function",
            "function": [
                "name": "get_weather", "parameters": ["type": "object", "properties": ["city": ["type": "string"]]],
            ],
        ]
        try await client.connect(session: ["tools": [tool]])
        await client.appendAudio(pcm: Fixtures.hello)
        #expect(await recorder.wait(for: "done:completed"))
        let calls = client.pendingCallIds
        #expect(calls.count == 1)
        for call in calls { #expect(client.sendFunctionCallOutput(callId: call, output: "{\"temperature\":21}")) }
        #expect(client.sendFunctionCallOutput(callId: calls.first ?? "", output: "{}") == false)  // exactly one (C13)
        #expect(await recorder.wait(for: "done:completed", times: 2))
        await client.finish()
        #expect(recorder.contains("call:get_weather:{\"city\":\"Paris\"}"))
        #expect(recorder.contains("text:It is 21 degrees in Paris."))
        await mock.expectNoViolations()
    }

    @Test func bargeInFlushesPlaybackAndImagesFollowAudio() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.qwenURL())
        try await client.connect(session: [:])
        #expect(client.appendImage(jpeg: Fixtures.frame) == false)  // before audio: not sent (C16)
        await client.appendAudio(pcm: Array(Fixtures.bargeIn.prefix(3200)))
        #expect(client.appendImage(jpeg: Fixtures.frame))
        await client.appendAudio(pcm: Array(Fixtures.bargeIn.dropFirst(3200)))
        #expect(await recorder.wait(for: "speechStarted", times: 2))
        #expect(await recorder.wait(for: "playbackEnded"))
        #expect(await client.waitUntilIdle(timeoutMillis: 20_000))
        await client.finish()
        await mock.expectNoViolations()
    }

    @Test func audioProfileClosesWithoutSessionFinish() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(
            mock.qwenURL(model: "qwen-audio-3.0-realtime-flash"), model: "qwen-audio-3.0-realtime-flash")
        // Server VAD named: on the audio profile an omitted turn_detection is push-to-talk (SEED-003).
        try await client.connect(session: ["modalities": ["text", "audio"], "turn_detection": ["type": "server_vad"]])
        await client.appendAudio(pcm: Fixtures.hello)
        #expect(await recorder.wait(for: "done:completed"))
        await client.finish()
        await mock.expectNoViolations()
    }
}
