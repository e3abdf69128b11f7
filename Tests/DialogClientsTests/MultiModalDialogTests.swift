import DialogClients
import MockServer
import Testing
import WireJSON

/// Full flows of `MultiModalDialog` against the in-process mock: the mock journals no
/// violation and the callbacks see the expected events.
@Suite struct MultiModalDialogTests {
    /// A dialog wired to a recorder.
    static func makeDialog(
        _ mock: MockSession, mode: DialogMode, options: MultiModalDialogOptions = .init()
    )
        -> (MultiModalDialog, Recorder)
    {
        let dialog = MultiModalDialog(
            url: mock.mmdURL, workSpaceId: "llm-test", appId: "app-test", mode: mode, options: options)
        let recorder = Recorder()
        var callbacks = MultiModalDialog.Callbacks()
        callbacks.onConnected = { recorder.add("connected") }
        callbacks.onConversationStarted = { recorder.add("started:\($0)") }
        callbacks.onConversationStateChanged = { recorder.add("state:\($0.rawValue)") }
        callbacks.onConversationEvent = { event, _ in recorder.add(event.rawValue) }
        callbacks.onMessageReceived = { output in
            if output["event"]?.stringValue == "RespondingContent", output["finished"]?.boolValue == true {
                recorder.add("answer:\(output["text"]?.stringValue ?? "")")
            }
        }
        callbacks.onErrorReceived = { recorder.add("error:\($0.code)") }
        callbacks.onSynthesizedData = { _ in recorder.add("audio") }
        callbacks.onPlaybackStarted = { recorder.add("playbackStarted") }
        callbacks.onPlaybackEnded = { recorder.add("playbackEnded") }
        callbacks.onWebsocketClosed = { code, _ in recorder.add("closed:\(code)") }
        dialog.callbacks = callbacks
        return (dialog, recorder)
    }

    @Test func tapToTalkTurnEndsCleanly() async throws {
        let mock = try MockSession()
        let (dialog, recorder) = Self.makeDialog(mock, mode: .tap2talk)
        let dialogID = try await dialog.start(apiKey: "sk-test", params: MultiModalRequestParam())
        #expect(dialogID.count == 36)
        #expect(await recorder.wait(for: "state:Listening"))
        await dialog.sendAudio(pcm: Fixtures.hello)
        #expect(await recorder.wait(for: "playbackEnded"))
        #expect(await recorder.wait(for: "state:Listening", times: 2))
        await dialog.stop()
        #expect(recorder.all.first == "connected")
        #expect(recorder.contains("started:\(dialogID)"))
        for event in ["SpeechStarted", "SpeechEnded", "RespondingStarted", "RespondingEnded", "audio", "closed:1000"] {
            #expect(recorder.count(event) >= 1, "missing \(event) in \(recorder.all.filter { $0 != "audio" })")
        }
        #expect(recorder.contains("answer:Hi there!"))
        await mock.expectNoViolations()
    }

    @Test func pushToTalkAndRequestToRespondQueueUntilListening() async throws {
        let mock = try MockSession()
        let (dialog, recorder) = Self.makeDialog(mock, mode: .push2talk)
        try await dialog.start(apiKey: "sk-test", params: MultiModalRequestParam())
        // Called before Listening: the client waits for it (C8, C10, C13).
        dialog.startSpeech()
        #expect(await recorder.wait(for: "state:Listening"))
        await dialog.sendAudio(pcm: Fixtures.hello)
        dialog.stopSpeech()
        dialog.requestToRespond(type: "transcript", text: "Welcome back.")
        #expect(
            await recorder.wait(for: "playbackEnded", times: 2, timeoutMillis: 30_000),
            "\(recorder.all.filter { $0 != "audio" })")
        #expect(recorder.contains("answer:Welcome back."))
        #expect(await recorder.wait(for: "state:Listening", times: 3))
        await dialog.stop()
        await mock.expectNoViolations()
    }

    @Test func interruptStopsPlaybackAndCancelledSpeechSendsNothing() async throws {
        let mock = try MockSession()
        let (dialog, recorder) = Self.makeDialog(mock, mode: .push2talk)
        try await dialog.start(apiKey: "sk-test", params: MultiModalRequestParam())
        #expect(await recorder.wait(for: "state:Listening"))
        dialog.startSpeech()
        await dialog.sendAudio(pcm: Fixtures.hello)
        dialog.stopSpeech()
        #expect(await recorder.wait(for: "playbackStarted"))
        dialog.interrupt()
        #expect(await recorder.wait(for: "RequestAccepted"))
        #expect(await recorder.wait(for: "playbackEnded"))
        dialog.startSpeech()
        dialog.cancelSpeech()
        #expect(await recorder.wait(for: "state:Listening", times: 2))
        await dialog.stop()
        await mock.expectNoViolations()
    }

    @Test func duplexVoiceBargeInFlushesPlayback() async throws {
        let mock = try MockSession()
        let (dialog, recorder) = Self.makeDialog(mock, mode: .duplex)
        try await dialog.start(apiKey: "sk-test", params: MultiModalRequestParam())
        #expect(await recorder.wait(for: "state:Listening"))
        await dialog.sendAudio(pcm: Fixtures.bargeIn)
        #expect(await recorder.wait(for: "SpeechStarted", times: 2))
        #expect(await recorder.wait(for: "playbackEnded", times: 2, timeoutMillis: 30_000))
        await dialog.stop()
        // The client sends LocalRespondingEnded for the flushed round (C19, §9.4): still welcome
        // after the barge-in utterance began, since the mock forgets the interrupted round only
        // at the next RespondingStarted (`DialogRounds.respondingStarted`). On a machine loaded
        // far beyond CI's (load average 10) that RespondingStarted has gone out first and C19 was
        // journaled once; CI runs never showed it.
        await withKnownIssue(
            "mock: the next RespondingStarted can overtake a late LocalRespondingEnded", isIntermittent: true
        ) {
            await mock.expectNoViolations()
        }
    }

    @Test func visualQuestionAndVideoCallUseTheFixtureImage() async throws {
        let mock = try MockSession()
        let (dialog, recorder) = Self.makeDialog(mock, mode: .tap2talk)
        let params = MultiModalRequestParam { $0.upStream = .init { $0.type = "AudioAndVideo" } }
        try await dialog.start(apiKey: "sk-test", params: params)
        #expect(await recorder.wait(for: "state:Listening"))
        let image: JSONValue = ["type": "base64", "value": .string(Base64.encode(Fixtures.frame))]
        dialog.requestToRespond(type: "prompt", text: "What is this?", params: ["images": [image]])
        #expect(await recorder.wait(for: "playbackEnded"))
        let connect = MultiModalRequestParam {
            $0.bizParams = .init { $0.videos = [["action": "connect", "type": "voicechat_video_channel"]] }
        }
        dialog.requestToRespond(type: "prompt", text: "", params: connect.parameters)
        #expect(await recorder.wait(for: "playbackEnded", times: 2))
        #expect(await recorder.wait(for: "state:Listening", times: 3))
        for _ in 0..<3 {
            dialog.updateInfo(params: ["images": [image]])
            try await Task.sleep(for: .milliseconds(500))
        }
        await dialog.stop()
        await mock.expectNoViolations()
    }

    @Test func heartbeatKeepsAQuietSessionAlive() async throws {
        // timeScale 0.1: the 60 s silence rule becomes 6 s; the client beats every 5 s.
        let mock = try MockSession(timeScale: 0.1)
        var options = MultiModalDialogOptions()
        options.heartbeatPeriodSeconds = 5
        let (dialog, recorder) = Self.makeDialog(mock, mode: .push2talk, options: options)
        try await dialog.start(apiKey: "sk-test", params: MultiModalRequestParam())
        #expect(await recorder.wait(for: "state:Listening"))
        try await Task.sleep(for: .seconds(11))
        #expect(!recorder.contains("closed"))
        await dialog.stop()
        let heartbeats = await mock.entries().filter {
            $0["json"]?["payload"]?["input"]?["directive"]?.stringValue == "HeartBeat"
        }
        #expect(heartbeats.count >= 2)
        await mock.expectNoViolations()
    }

    @Test func resumeCarriesTheDialogID() async throws {
        let mock = try MockSession()
        let (first, firstRecorder) = Self.makeDialog(mock, mode: .tap2talk)
        let dialogID = try await first.start(apiKey: "sk-test", params: MultiModalRequestParam())
        #expect(await firstRecorder.wait(for: "state:Listening"))
        await first.stop()
        let (second, _) = Self.makeDialog(mock, mode: .tap2talk)
        let resumed = try await second.start(apiKey: "sk-test", params: MultiModalRequestParam(), dialogId: dialogID)
        #expect(resumed == dialogID)
        await second.stop()
        await mock.expectNoViolations("s1")
        await mock.expectNoViolations("s2")
    }

    @Test func refusedKeyFailsStart() async throws {
        var configuration = MockServer.Configuration()
        configuration.apiKeys = ["sk-right"]
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let dialog = MultiModalDialog(
            url: server.baseURL + "/api-ws/v1/inference", workSpaceId: "w", appId: "a", mode: .tap2talk)
        await #expect(throws: DialogError.self) {
            try await dialog.start(apiKey: "sk-wrong", params: MultiModalRequestParam())
        }
    }
}
