import MultiModalDialogEngine
import ScenarioEngine
import Testing
import WireJSON

/// Issue 12 item 1: `extra_info.agent_info`, `tool_calls`, `dialog_debug` and `timestamps` are
/// scriptable per turn; `policies.roundTimestamps` (on in the default scenario) fills `timestamps`.
@Suite struct ExtraInfoTests {
    static func final(_ scenarioText: String) throws -> JSONValue {
        let harness = SessionHarness(scenario: try Scenario.load(bytes: Array(scenarioText.utf8), file: "extra.json"))
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "Hi."])
        harness.advance(until: "RespondingEnded")
        return try #require(harness.outputs("RespondingContent").last)
    }

    @Test func scriptedFieldsAreSentAsWrittenBesideTheCommands() throws {
        let final = try Self.final(
            #"""
            {"turns": {"default": {"answer": "Opening the weather agent.", "commands": [{"name": "VOLUME_SET", "params": []}],
              "extraInfo": {"agent_info": {"intent_infos": [{"domain": "d1", "intent": "open_agent_d1"}], "round": 1},
                            "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "weather", "arguments": "{}", "outputs": "sunny"}}],
                            "dialog_debug": {"trace": "abc"}, "timestamps": {"asr": 12}}}}}
            """#)
        let extra = try #require(final["extra_info"])
        #expect(extra["agent_info"]?["intent_infos"]?[0]?["intent"] == "open_agent_d1")
        #expect(extra["tool_calls"]?[0]?["function"]?["outputs"] == "sunny")
        #expect(extra["dialog_debug"] == ["trace": "abc"])
        #expect(extra["timestamps"] == ["asr": 12])
        #expect(extra["commands"]?.stringValue?.contains("VOLUME_SET") == true)
    }

    @Test func theDefaultScenarioFillsTheRoundTimestampsInOrder() throws {
        let harness = SessionHarness(scenario: try ScenarioIntegrationTests.scenario("default"))
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": "Hi."])
        harness.advance(until: "RespondingEnded")
        let stamps = try #require(harness.outputs("RespondingContent").last?["extra_info"]?["timestamps"])
        let order = ["round_start_ms", "first_text_ms", "responding_started_ms", "first_audio_ms", "final_text_ms"]
        let values = order.compactMap { stamps[$0]?.intValue }
        #expect(values.count == 5, "\(stamps)")
        #expect(values == values.sorted() && values[0] == 0, "\(stamps)")
        #expect(values[4] > values[2], "the final text comes after the answer audio: \(stamps)")
        // Partial RespondingContent frames carry no extra_info.
        #expect(harness.outputs("RespondingContent").dropLast().allSatisfy { $0["extra_info"] == nil })
    }

    @Test func aScriptedTimestampsObjectWinsAndThePolicyIsOffByDefault() throws {
        let scripted = try Self.final(
            #"""
            {"policies": {"roundTimestamps": true}, "turns": {"default": {"answer": "a", "extraInfo": {"timestamps": {"own": 1}}}}}
            """#)
        #expect(scripted["extra_info"]?["timestamps"] == ["own": 1])
        let off = try Self.final(#"{"turns": {"default": {"answer": "a"}}}"#)
        #expect(off["extra_info"] == nil)
    }

    @Test(arguments: [
        (#"{"extraInfo": {"agent_info": "x"}}"#, "agent_info"),
        (#"{"extraInfo": {"tool_calls": [1]}}"#, "tool_calls"),
        (#"{"extraInfo": {"word_timestamps": {}}}"#, "word_timestamps"),
        (#"{"extraInfo": []}"#, "extraInfo"),
    ])
    func badExtraInfoNamesTheFileAndField(turn: String, field: String) {
        let text = #"{"turns": {"default": "# + turn + "}}"
        #expect {
            _ = try Scenario.load(bytes: Array(text.utf8), file: "bad.json")
        } throws: { error in
            "\(error)".contains("bad.json") && "\(error)".contains(field)
        }
    }
}
