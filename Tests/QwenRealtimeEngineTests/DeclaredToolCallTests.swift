import JSONSchema
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// Issue 12 item 1: with `policies.callDeclaredTools` (the default and `tools` scenarios), a
/// session that declares tools gets a call of the best-fitting one on its first answer, with
/// arguments valid against its parameters, and the answer after the output reports it.
@Suite struct DeclaredToolCallTests {
    static func tool(_ name: String, _ description: String, _ parameters: JSONValue) -> JSONValue {
        [
            "type": "function",
            "function": ["name": .string(name), "description": .string(description), "parameters": parameters],
        ]
    }

    static let weather = tool(
        "get_weather", "Weather forecast for a city",
        [
            "type": "object", "required": ["city", "days"],
            "properties": [
                "city": ["type": "string", "minLength": 2],
                "days": ["type": "integer", "minimum": 1, "maximum": 7],
                "unit": ["enum": ["celsius", "fahrenheit"]],
            ],
        ])
    static let timer = tool(
        "set_timer", "Start a countdown timer",
        [
            "type": "object", "required": ["minutes"],
            "properties": [
                "minutes": ["type": "number", "exclusiveMinimum": 0], "label": ["type": "string", "maxLength": 3],
            ],
        ])

    static func session(tools: [JSONValue], transcript: String, policy: Bool = true) -> QwenHarness {
        let turn = TurnContent(transcript: transcript, answer: "Done.")
        let harness = QwenHarness(
            scenario: QwenHarness.scenario(
                [turn, TurnContent(transcript: "again", answer: "Second.")],
                policies: SessionPolicies(callDeclaredTools: policy)))
        harness.send(
            "session.update", ["session": ["tools": .array(tools), "turn_detection": .null, "modalities": ["text"]]])
        harness.send(
            "conversation.item.create",
            [
                "item": [
                    "type": "message", "role": "user",
                    "content": [["type": "input_text", "text": .string(transcript)]],
                ]
            ])
        harness.send("response.create")
        harness.advance(ms: 3000)
        return harness
    }

    @Test func theToolThatFitsTheTranscriptIsCalledWithValidArguments() throws {
        let harness = Self.session(tools: [Self.weather, Self.timer], transcript: "Please set a timer for ten minutes")
        let done = try #require(harness.events("response.function_call_arguments.done").first)
        #expect(done["name"] == "set_timer")
        let arguments = try JSONValue.decode(Array((done["arguments"]?.stringValue ?? "").utf8))
        let schema = try #require(Self.timer["function"]?["parameters"])
        #expect(try JSONSchemaValidator(schema: schema).validate(arguments).isEmpty, "\(arguments)")
        #expect(harness.session.state == "AwaitingToolOutput")

        let weather = Self.session(tools: [Self.timer, Self.weather], transcript: "What's the weather in Hangzhou?")
        let call = try #require(weather.events("response.function_call_arguments.done").first)
        #expect(call["name"] == "get_weather")
        let weatherArguments = try JSONValue.decode(Array((call["arguments"]?.stringValue ?? "").utf8))
        #expect(weatherArguments["city"] == "Hangzhou")  // the name in the transcript
        #expect(weatherArguments["days"] == 1 && weatherArguments["unit"] == "celsius")
    }

    /// Found by the dashscope SDK: "the" in a description tied a tool that did not fit, and the
    /// longest word was not the one the user named.
    @Test func functionWordsDoNotChooseAndTheNamedThingIsTheArgument() throws {
        let time = Self.tool(
            "get_time", "the local time", ["type": "object", "properties": ["zone": ["type": "string"]]])
        let harness = Self.session(tools: [time, Self.weather], transcript: "What is the weather in Paris?")
        let call = try #require(harness.events("response.function_call_arguments.done").first)
        #expect(call["name"] == "get_weather")
        #expect(try JSONValue.decode(Array((call["arguments"]?.stringValue ?? "").utf8))["city"] == "Paris")
        #expect(
            DeclaredToolCall.subject(of: "Set a reminder about groceries", excluding: ["set", "reminder"])
                == "groceries")
        // Not the words opening a sentence.
        #expect(DeclaredToolCall.subject(of: "Paris. Then London?", excluding: []) == "London")
        #expect(DeclaredToolCall.subject(of: "你好", excluding: []) == "你好")
    }

    @Test func withNoWordInCommonTheFirstToolIsCalled() throws {
        let harness = Self.session(tools: [Self.timer, Self.weather], transcript: "你好")
        #expect(harness.events("response.function_call_arguments.done").first?["name"] == "set_timer")
    }

    @Test func theAnswerAfterTheOutputReportsItAndOnlyTheFirstAnswerCalls() throws {
        let harness = Self.session(tools: [Self.weather], transcript: "weather in Paris")
        let callID = try #require(harness.events("response.function_call_arguments.done").first?["call_id"])
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "function_call_output", "call_id": callID, "output": "{\"temperature\":18}"]
            ])
        harness.send("response.create")
        harness.advance(ms: 5000)
        #expect(
            harness.events("response.text.done").last?["text"] == "get_weather returned {\"temperature\":18}. Done.")
        harness.send(
            "conversation.item.create",
            [
                "item": [
                    "type": "message", "role": "user", "content": [["type": "input_text", "text": "weather again"]],
                ]
            ])
        harness.send("response.create")
        harness.advance(ms: 5000)
        #expect(harness.events("response.function_call_arguments.done").count == 1)  // one call per session
        #expect(harness.events("response.text.done").last?["text"] == "Second.")
        #expect(harness.violations.isEmpty)
    }

    @Test func offByDefaultAndNoToolsMeansNoCall() throws {
        let off = Self.session(tools: [Self.weather], transcript: "weather", policy: false)
        #expect(off.events("response.function_call_arguments.done").isEmpty)
        #expect(off.events("response.text.done").first?["text"] == "Done.")
        let none = Self.session(tools: [], transcript: "weather")
        #expect(none.events("response.function_call_arguments.done").isEmpty)
    }

    @Test func schemaKeywordsTheBuilderCannotMeetAreJournaled() throws {
        let strict = Self.tool(
            "lookup", "Look up a code",
            [
                "type": "object", "required": ["code"],
                "properties": ["code": ["type": "string", "pattern": "^[A-Z]{3}$"]],
            ])
        let harness = Self.session(tools: [strict], transcript: "lookup")
        #expect(harness.events("response.function_call_arguments.done").first?["name"] == "lookup")
        let infos = harness.notes.compactMap { note -> String? in
            guard case .info(let text) = note else { return nil }
            return text
        }
        #expect(infos.contains { $0.contains("arguments for lookup may not satisfy its parameters") }, "\(infos)")
    }
}
