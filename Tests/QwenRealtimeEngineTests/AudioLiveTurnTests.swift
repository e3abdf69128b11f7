import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// Issue 42: Qwen-Audio-Live turn-taking (server VAD, duplex, barge-in both ways), tools,
/// delegation, mute and the acknowledgements.
@Suite struct AudioLiveTurnTests {
    typealias Client = QwenAudioLiveClientEvent
    typealias Server = QwenAudioLiveServerEvent

    static let longAnswer = String(repeating: "It is sunny and warm today, with a light breeze. ", count: 5)

    /// The fixture's speech `times` times over, with no pause between: one long segment.
    static func longSpeech(times: Int = 3) throws -> PCMBuffer {
        let speech = try Fixtures.speech()
        var long = PCMBuffer(sampleRate: speech.sampleRate)
        for _ in 0..<times { long.append(speech) }
        return long
    }

    static let duplex: JSONObject = ["turn_detection": ["type": "duplex", "silence_duration_ms": 1200]]

    // MARK: - Turn-taking

    @Test func duplexTheModelAnswersWhileTheUserStillSpeaks() throws {
        let turn = TurnContent(transcript: "Tell me about the weather this week please.", answer: "Sunny all week.")
        let harness = AudioLiveHarness.harness([turn])
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(Self.duplex))
        harness.appendSilence(ms: 1_000)
        harness.appendAudio(try Self.longSpeech())
        let spokenUntil = harness.clock.nowMicros
        harness.appendSilence(ms: 8_000)
        let firstAudio = try #require(harness.received.first { $0.type == Server.outputAudioDelta.rawValue })
        #expect(firstAudio.atMicros < spokenUntil, "the answer started before the user stopped")
        #expect(
            AudioLiveHarness.text(harness, .outputTranscriptDelta) == turn.answer,
            "the continuing speech did not cut it")
        #expect(AudioLiveHarness.text(harness, .inputTranscriptDelta) == turn.transcript)
        #expect(harness.violations.isEmpty)
    }

    @Test func withoutDuplexInterjectMsDuplexWaitsForTheEndOfSpeech() throws {
        let harness = AudioLiveHarness.harness(
            [AudioLiveHarness.turn], policies: SessionPolicies(duplexInterjectMs: nil))
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(Self.duplex))
        harness.appendSilence(ms: 1_000)
        harness.appendAudio(try Self.longSpeech())
        let spokenUntil = harness.clock.nowMicros
        harness.appendSilence(ms: 8_000)
        let firstAudio = try #require(harness.received.first { $0.type == Server.outputAudioDelta.rawValue })
        #expect(firstAudio.atMicros > spokenUntil)
    }

    @Test func serverVADWaitsForTheEndOfSpeech() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.appendSilence(ms: 1_000)
        harness.appendAudio(try Self.longSpeech())
        let spokenUntil = harness.clock.nowMicros
        harness.appendSilence(ms: 8_000)
        let firstAudio = try #require(harness.received.first { $0.type == Server.outputAudioDelta.rawValue })
        #expect(firstAudio.atMicros > spokenUntil)
    }

    /// Barge-in: a new speech segment while the model speaks stops the answer.
    func bargeIn(session: JSONObject, policies: SessionPolicies = SessionPolicies()) throws -> QwenHarness {
        let first = TurnContent(transcript: "What is the weather like today?", answer: Self.longAnswer)
        let second = TurnContent(transcript: "Stop, thanks.", answer: "Okay.")
        let harness = AudioLiveHarness.harness([first, second], policies: policies)
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(session))
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 1_000)
        harness.appendAudio(try Fixtures.speech())
        harness.appendSilence(ms: 8_000)
        return harness
    }

    @Test func duplexTheUserBargesInOnTheModel() throws {
        let harness = try bargeIn(session: Self.duplex)
        let said = AudioLiveHarness.text(harness, .outputTranscriptDelta)
        #expect(said.hasSuffix("Okay."))
        let firstAnswer = String(said.dropLast("Okay.".count))
        #expect(!firstAnswer.isEmpty && firstAnswer.count < Self.longAnswer.count, "\(firstAnswer)")
        #expect(Self.longAnswer.hasPrefix(firstAnswer), "no delta of the first answer after the barge-in")
        #expect(harness.violations.isEmpty)
    }

    @Test func withoutInterruptResponseTheAnswerGoesOn() throws {
        let harness = try bargeIn(session: [
            "turn_detection": ["type": "server_vad", "interrupt_response": false]
        ])
        harness.advance(ms: 20_000)
        let said = AudioLiveHarness.text(harness, .outputTranscriptDelta)
        #expect(said == Self.longAnswer + "Okay.", "the second answer follows the first")
    }

    @Test func withoutCreateResponseThereIsNoAutomaticAnswer() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(
            harness, AudioLiveHarness.session(["turn_detection": ["type": "server_vad", "create_response": false]]))
        try AudioLiveHarness.speak(harness)
        #expect(AudioLiveHarness.text(harness, .inputTranscriptDelta) == AudioLiveHarness.turn.transcript)
        #expect(harness.events(Server.outputAudioDelta.rawValue).isEmpty)
    }

    // MARK: - Tools and delegation

    static let weatherTool: JSONValue = [
        "type": "function", "name": "get_weather", "description": "Weather of a city",
        "parameters": ["type": "object", "properties": ["city": ["type": "string"]]],
    ]

    @Test func aToolRoundTrip() throws {
        let turn = TurnContent(
            transcript: "What's the weather in Hangzhou?", answer: "Enjoy the sun.",
            functionCalls: [TurnContent.FunctionCall(name: "get_weather", arguments: ["city": "Hangzhou"])])
        let harness = AudioLiveHarness.harness([turn])
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(["tools": [Self.weatherTool]]))
        try AudioLiveHarness.speak(harness, silenceMs: 3_000)
        let item = try #require(harness.events(Server.sessionEvent.rawValue).first?["event"]?["item"])
        #expect(item["type"]?.stringValue == "function_call")
        #expect(item["name"]?.stringValue == "get_weather")
        #expect(item["arguments"]?.stringValue == #"{"city":"Hangzhou"}"#)
        #expect(harness.events(Server.outputAudioDelta.rawValue).isEmpty, "the answer waits for the output")
        #expect(harness.states.last == "AwaitingToolOutput")
        let callID = try #require(item["call_id"]?.stringValue)
        harness.send(
            Client.itemCreate.rawValue,
            ["item": ["type": "function_call_output", "call_id": .string(callID), "output": "sunny, 25 degrees"]])
        harness.advance(ms: 8_000)
        let said = AudioLiveHarness.text(harness, .outputTranscriptDelta)
        #expect(said == "get_weather returned sunny, 25 degrees. Enjoy the sun.")
        #expect(!harness.events(Server.outputAudioDelta.rawValue).isEmpty)
        #expect(harness.violations.isEmpty)
    }

    @Test func theToolsScenarioCallsADeclaredToolUnscripted() throws {
        let turn = TurnContent(transcript: "What's the weather in Hangzhou tomorrow?", answer: "That is the forecast.")
        let harness = AudioLiveHarness.harness([turn], policies: SessionPolicies(callDeclaredTools: true))
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(["tools": [Self.weatherTool]]))
        try AudioLiveHarness.speak(harness, silenceMs: 3_000)
        let item = try #require(harness.events(Server.sessionEvent.rawValue).first?["event"]?["item"])
        #expect(item["name"]?.stringValue == "get_weather")
    }

    @Test func aClientDelegationRoundTrip() throws {
        let turn = TurnContent(
            transcript: "Where is my order?", answer: "unused",
            functionCalls: [TurnContent.FunctionCall(name: "lookup_order")])
        let harness = AudioLiveHarness.harness([turn])
        AudioLiveHarness.configure(harness)
        try AudioLiveHarness.speak(harness, silenceMs: 4_000)
        let created = try #require(harness.events(Server.delegationCreated.rawValue).first)
        #expect(created["delegation"]?["target"]?.stringValue == "client")
        #expect(created["offset_ms"]?.intValue != nil)
        let id = try #require(created["delegation"]?["id"]?.stringValue)
        let filler = AudioLiveHarness.text(harness, .outputTranscriptDelta)
        #expect(!filler.isEmpty, "the model keeps talking while the client works")
        harness.send(Client.thinkingAppend.rawValue, ["delegation_id": .string(id), "content": "Looking it up"])
        let commentID = harness.send(
            Client.commentaryAppend.rawValue, ["delegation_id": .string(id), "content": "Order 42 ships tomorrow."])
        harness.advance(ms: 6_000)
        #expect(harness.events(Server.thinkingAppended.rawValue).count == 1)
        let ack = try #require(harness.events(Server.commentaryAppended.rawValue).first)
        #expect(ack["client_event_id"]?.stringValue == commentID)
        #expect(AudioLiveHarness.text(harness, .outputTranscriptDelta) == filler + "Order 42 ships tomorrow.")
        #expect(harness.violations.isEmpty)
    }

    @Test func aResponsesDelegationStreamsTheBackendThenSpeaks() throws {
        let turn = TurnContent(
            transcript: "Plan my trip.", answer: "Here is your plan.",
            functionCalls: [TurnContent.FunctionCall(name: "plan_trip")])
        let harness = AudioLiveHarness.harness([turn])
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(delegation: "responses"))
        try AudioLiveHarness.speak(harness)
        let created = try #require(harness.events(Server.delegationCreated.rawValue).first)
        #expect(created["delegation"]?["target"]?.stringValue == "responses")
        let inner = harness.events(Server.responseEvent.rawValue).compactMap { $0["event"]?["type"]?.stringValue }
        #expect(inner.first == "response.created" && inner.last == "response.completed")
        #expect(inner.contains("response.output_text.delta"))
        let text = harness.events(Server.responseEvent.rawValue).compactMap { $0["event"]?["delta"]?.stringValue }
        #expect(text.joined() == "Here is your plan.")
        #expect(AudioLiveHarness.text(harness, .outputTranscriptDelta) == "Here is your plan.")
    }

    // MARK: - Mute, items and acknowledgements

    @Test func mutedAudioIsAcceptedButNotHeard() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        let muteID = harness.send(Client.inputAudioMute.rawValue)
        try AudioLiveHarness.speak(harness, silenceMs: 1_000)
        #expect(harness.events(Server.inputTranscriptDelta.rawValue).isEmpty)
        #expect(harness.events(Server.inputAudioMuted.rawValue).first?["client_event_id"]?.stringValue == muteID)
        harness.send(Client.inputAudioUnmute.rawValue)
        try AudioLiveHarness.speak(harness)
        #expect(harness.events(Server.inputAudioUnmuted.rawValue).count == 1)
        #expect(AudioLiveHarness.text(harness, .inputTranscriptDelta) == AudioLiveHarness.turn.transcript)
        #expect(harness.violations.isEmpty)
    }

    @Test func aUserTextMessageIsAnsweredLikeATurn() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.send(
            Client.itemCreate.rawValue,
            ["item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "Hello"]]]])
        harness.advance(ms: 6_000)
        #expect(AudioLiveHarness.text(harness, .outputTranscriptDelta) == AudioLiveHarness.turn.answer)
    }

    @Test func instructionsAppendIsAcknowledgedInBothSpellings() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.send(Client.instructionsAppend.rawValue, ["delegation_id": .null, "content": "Be brief."])
        harness.send(Client.instructionAppend.rawValue, ["content": "Ask for the city."])
        #expect(harness.events(Server.instructionsAppended.rawValue).count == 2)
        #expect(harness.violations.isEmpty)
    }

    @Test func closingWithACallUnansweredBreaksC8AndADelegationUnansweredIsAC9Note() throws {
        let call = TurnContent(
            transcript: "Weather?", answer: "Sunny.",
            functionCalls: [TurnContent.FunctionCall(name: "get_weather", callId: "call_1")])
        let tools = AudioLiveHarness.harness([call])
        AudioLiveHarness.configure(tools, AudioLiveHarness.session(["tools": [Self.weatherTool]]))
        try AudioLiveHarness.speak(tools, silenceMs: 3_000)
        tools.send(Client.sessionClose.rawValue)
        #expect(tools.violations == ["qal.C8"])
        let delegated = TurnContent(
            transcript: "Where is my order?", functionCalls: [TurnContent.FunctionCall(name: "lookup_order")])
        let delegation = AudioLiveHarness.harness([delegated])
        AudioLiveHarness.configure(delegation)
        try AudioLiveHarness.speak(delegation, silenceMs: 3_000)
        delegation.send(Client.sessionClose.rawValue)
        #expect(delegation.violations == ["qal.C9"])
        #expect(delegation.events(Server.sessionClosed.rawValue).count == 1)
    }
}
