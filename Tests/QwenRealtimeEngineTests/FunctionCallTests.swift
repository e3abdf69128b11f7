import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireJSON

/// §8.7: scripted function calls of declared tools and the output round trip (S15, C13).
@Suite struct FunctionCallTests {
    static let tool: JSONValue = [
        "type": "function",
        "function": [
            "name": "get_weather", "description": "Weather of a city",
            "parameters": ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]],
        ],
    ]
    static let turn = TurnContent(
        transcript: "杭州天气怎么样？", answer: "杭州今天晴，十八度。",
        functionCalls: [.init(name: "get_weather", arguments: ["city": "杭州"])])

    static func calling(tools: [JSONValue] = [tool]) -> QwenHarness {
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]))
        harness.send("session.update", ["session": ["tools": .array(tools), "turn_detection": .null]])
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "杭州天气？"]]]
            ])
        harness.send("response.create")
        harness.advance(ms: 3000)
        return harness
    }

    @Test func callChainHasArgumentsInSeveralDeltas() throws {
        let harness = Self.calling()
        let start = try #require(harness.types.firstIndex(of: "response.created"))
        let types = harness.types(since: start).filter { $0 != "response.function_call_arguments.delta" }
        #expect(
            types == [
                "response.created", "response.output_item.added", "conversation.item.created",
                "response.function_call_arguments.done", "response.output_item.done", "response.done",
            ])
        let deltas = harness.events("response.function_call_arguments.delta")
        #expect(deltas.count >= 2)
        let done = try #require(harness.events("response.function_call_arguments.done").first)
        #expect(deltas.compactMap { $0["delta"]?.stringValue }.joined() == done["arguments"]?.stringValue)
        #expect(done["arguments"] == "{\"city\":\"杭州\"}")
        #expect(done["name"] == "get_weather")
        let callID = try #require(done["call_id"]?.stringValue)
        #expect(callID.hasPrefix("call_"))
        #expect(deltas.allSatisfy { $0["call_id"]?.stringValue == callID })
        let response = try #require(harness.events("response.done").first?["response"])
        #expect(response["output"]?[0]?["type"] == "function_call")
        #expect(response["output"]?[0]?["arguments"] == done["arguments"])
        #expect(!harness.types.contains { $0.hasPrefix("response.audio") })
        #expect(harness.session.state == "AwaitingToolOutput")
    }

    @Test func outputThenResponseCreateGivesTheSpokenAnswer() throws {
        let harness = Self.calling()
        let callID = try #require(harness.events("response.function_call_arguments.done").first?["call_id"])
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "function_call_output", "call_id": callID, "output": "{\"temperature\":18}"]
            ])
        harness.advance(ms: 100)
        #expect(harness.events("conversation.item.created").last?["item"]?["call_id"] == callID)
        #expect(harness.events("response.created").count == 1)  // never auto-answers
        harness.send("response.create")
        harness.advance(ms: 10_000)
        let dones = harness.events("response.done")
        #expect(dones.count == 2)
        #expect(harness.events("response.audio_transcript.done").first?["transcript"]?.stringValue == Self.turn.answer)
        #expect(harness.violations.isEmpty)
    }

    @Test func unknownCallIDIsRefused() throws {
        let harness = Self.calling()
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "function_call_output", "call_id": "call_nope", "output": "{}"]
            ])
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["param"] == "item.call_id")
        #expect(harness.violations == ["qrt.C13"])
    }

    @Test func responseCreateBeforeTheOutputIsJournaled() throws {
        let harness = Self.calling()
        harness.send("response.create")
        harness.advance(ms: 10_000)
        #expect(harness.violations == ["qrt.C13"])
        #expect(harness.events("response.done").count == 2)
    }

    @Test func undeclaredToolsAreNotCalled() throws {
        let other: JSONValue = ["type": "function", "function": ["name": "play_music"]]
        let harness = Self.calling(tools: [other])
        harness.advance(ms: 10_000)
        #expect(harness.events("response.function_call_arguments.done").isEmpty)
        #expect(harness.events("response.audio_transcript.done").count == 1)
    }

    @Test func flatOpenAIToolsAreRejected() throws {
        let harness = QwenHarness()
        harness.send("session.update", ["session": ["tools": [["type": "function", "name": "get_weather"]]]])
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["param"] == "session.tools[0].function")
        #expect(harness.violations == ["qrt.C6"])
    }
}
