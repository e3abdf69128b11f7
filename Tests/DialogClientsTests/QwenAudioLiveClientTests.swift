import DialogClients
import ProtocolModel
import Testing
import WireJSON

/// Full flows of `QwenAudioLiveClient` against the in-process mock.
@Suite struct QwenAudioLiveClientTests {
    /// One turn that calls `get_weather`: a function call when the session declares the tool,
    /// else (no such tool) a delegation to the client.
    static let toolScenario = """
        {"name": "live-tool", "seed": 7, "turns": [
          {"transcript": "weather in Paris?", "answer": "It is 21 degrees in Paris.",
           "functionCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}]}
        """

    static let weatherTool: JSONValue = [
        "type": "function", "name": "get_weather",
        "parameters": ["type": "object", "properties": ["city": ["type": "string"]]],
    ]

    static func makeClient(_ url: String) -> (QwenAudioLiveClient, Recorder) {
        let client = QwenAudioLiveClient(url: url, apiKey: "sk-test", serviceModel: QwenAudioLive.serviceModel)
        let recorder = Recorder()
        var callbacks = QwenAudioLiveCallbacks()
        callbacks.onSessionCreated = { _ in recorder.add("created") }
        callbacks.onSessionUpdated = { _ in recorder.add("updated") }
        callbacks.onInputTranscript = { recorder.add("in:\($0)") }
        callbacks.onOutputTranscript = { recorder.add("out:\($0)") }
        callbacks.onAudio = { _ in recorder.add("audio") }
        callbacks.onPlaybackStarted = { recorder.add("playbackStarted") }
        callbacks.onPlaybackEnded = { recorder.add("playbackEnded:\($0.rawValue)") }
        callbacks.onFunctionCall = { recorder.add("call:\($0.name):\($0.arguments)") }
        callbacks.onDelegation = { recorder.add("delegation:\($0.target)") }
        callbacks.onMuted = { recorder.add($0 ? "muted" : "unmuted") }
        callbacks.onError = { recorder.add("error:\($0.code)") }
        callbacks.onSessionClosed = { recorder.add("sessionClosed:\($0)") }
        callbacks.onClosed = { code, _ in recorder.add("closed:\(code)") }
        client.callbacks = callbacks
        return (client, recorder)
    }

    /// The model's subtitles as one text.
    static func subtitles(_ recorder: Recorder) -> String {
        recorder.all.filter { $0.hasPrefix("out:") }.map { String($0.dropFirst(4)) }.joined()
    }

    @Test func serverVADTurnWithAudioBothWaysAndACleanClose() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.liveURL)
        let session = try await client.connect()
        #expect(session["model"]?.stringValue == QwenAudioLive.duplexModel)
        #expect(session["delegation"]?["type"]?.stringValue == "client")
        await client.appendAudio(pcm: Fixtures.hello)
        #expect(await client.waitForAnswer(timeoutMillis: 15_000), "\(recorder.all.suffix(12))")
        #expect(recorder.contains("in:"))
        #expect(Self.subtitles(recorder).contains("Hi there!"), "\(Self.subtitles(recorder))")
        #expect(recorder.count("playbackStarted") == 1)
        #expect(recorder.contains("playbackEnded:played"))
        await client.close()
        #expect(recorder.contains("sessionClosed:\(QwenAudioLiveCloseReason.closeRequested.rawValue)"))
        #expect(await recorder.wait(for: "closed:1000"), "\(recorder.all.suffix(8))")
        #expect(client.isOver)
        await mock.expectNoViolations()
    }

    @Test func realtimePathWithTheLiveModelServesTheDialect() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.qwenURL(model: QwenAudioLive.serviceModel))
        #expect(client.url.hasSuffix("/api-ws/v1/realtime?model=\(QwenAudioLive.serviceModel)"))
        try await client.connect(session: ["voice": "xiaoman"])
        #expect(client.session["voice"]?.stringValue == "xiaoman")
        client.mute()
        client.unmute()
        #expect(await recorder.wait(for: "unmuted"))
        #expect(recorder.all.firstIndex(of: "muted") ?? 99 < recorder.all.firstIndex(of: "unmuted") ?? 0)
        await client.close()
        await mock.expectNoViolations()
    }

    @Test func functionCallIsAnsweredOnceThroughTheHandler() async throws {
        let mock = try MockSession(scenario: Self.toolScenario)
        let (client, recorder) = Self.makeClient(mock.liveURL)
        var callbacks = client.callbacks
        callbacks.answerFunctionCall = { call in call.name == "get_weather" ? #"{"temperature":21}"# : nil }
        client.callbacks = callbacks
        try await client.connect(session: ["tools": [Self.weatherTool]])
        await client.appendAudio(pcm: Fixtures.hello)
        #expect(await recorder.wait(for: "call:get_weather:{\"city\":\"Paris\"}"), "\(recorder.all.suffix(8))")
        #expect(await client.waitForAnswer(timeoutMillis: 15_000))
        #expect(client.pendingCallIds.isEmpty)
        #expect(Self.subtitles(recorder).contains("It is 21 degrees in Paris."), "\(Self.subtitles(recorder))")
        await client.close()
        await mock.expectNoViolations()
    }

    @Test func clientDelegationIsAnsweredWithCommentary() async throws {
        let mock = try MockSession(scenario: Self.toolScenario)
        let (client, recorder) = Self.makeClient(mock.liveURL)
        var callbacks = client.callbacks
        callbacks.answerDelegation = { _ in "Paris has 21 degrees and sun." }
        client.callbacks = callbacks
        try await client.connect()  // no tools: the scripted call is delegated to the client
        await client.appendAudio(pcm: Fixtures.hello)
        #expect(await recorder.wait(for: "delegation:client"), "\(recorder.all.suffix(8))")
        for _ in 0..<200 where !Self.subtitles(recorder).contains("Paris has 21 degrees and sun.") {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(Self.subtitles(recorder).contains("Paris has 21 degrees and sun."), "\(Self.subtitles(recorder))")
        #expect(client.pendingDelegationIds.isEmpty)
        await client.close()
        await mock.expectNoViolations()
    }

    /// Asking for AOQ media is refused (the mock serves media on the WebSocket only) and keeps
    /// the session open; the client then keeps its audio off the WebSocket (qal.C7).
    @Test func refusedAOQTransportKeepsAudioOffTheWebSocket() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.liveURL)
        try await client.connect()
        await #expect(throws: QwenAudioLiveError.self) {
            try await client.updateSession(["transport": ["type": "aoq", "aoq": ["ws_audio": false]]])
        }
        #expect(recorder.contains("error:"))
        await client.appendAudio(pcm: Array(Fixtures.hello.prefix(6_400)), realtime: false)
        await client.close()
        #expect(recorder.contains("sessionClosed:"))
        await mock.expectNoViolations()
        let appended = await mock.entries().filter {
            $0["json"]?["type"]?.stringValue == QwenAudioLiveClientEvent.inputAudioAppend.rawValue
        }
        #expect(appended.isEmpty)
    }

    @Test func bargeInDropsTheRestOfTheAnswer() async throws {
        let mock = try MockSession()
        let (client, recorder) = Self.makeClient(mock.liveURL)
        try await client.connect()
        await client.appendAudio(pcm: Fixtures.bargeIn)
        #expect(await recorder.wait(for: "playbackEnded:barge_in"), "\(recorder.all.suffix(12))")
        _ = await client.waitForAnswer(timeoutMillis: 10_000)
        await client.close()
        await mock.expectNoViolations()
    }

    @Test func eventIDsAreFreshAndWithinTheLimit() async throws {
        let mock = try MockSession()
        let (client, _) = Self.makeClient(mock.liveURL)
        try await client.connect()
        client.sendText("Hello")
        _ = await client.waitForAnswer(timeoutMillis: 15_000)
        await client.close()
        let ids = await mock.entries().filter { $0["dir"]?.stringValue == "in" }.compactMap {
            $0["json"]?["event_id"]?.stringValue
        }
        #expect(ids.count >= 3)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { !$0.isEmpty && $0.count <= QwenAudioLive.maxEventIDLength })
        await mock.expectNoViolations()
    }
}

/// The paced upload's chunks (qal.C6: 40 ms as the C# SDK, none under 20 ms).
@Suite struct LiveAudioChunkTests {
    @Test func aTailUnderTheMinimumGoesWithTheChunkBefore() {
        // 1.5 s of hello-16k.pcm: 37 chunks of 1280 bytes and a 558-byte (17 ms) tail.
        let ranges = AudioChunker.ranges(count: 47_918, chunkBytes: 1_280, minimumBytes: 640)
        #expect(ranges.count == 37)
        #expect(ranges.dropLast().allSatisfy { $0.count == 1_280 })
        #expect(ranges.last?.count == 1_280 + 558)
        // Without the minimum only a tail under a fifth of a chunk is merged.
        #expect(AudioChunker.ranges(count: 47_918, chunkBytes: 1_280).last?.count == 558)
    }
}
