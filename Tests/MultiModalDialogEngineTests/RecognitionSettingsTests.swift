import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// Issue 12 item 4 (multimodal): settings that used to do nothing. `replace_words` changes what
/// the user sees recognised, `downstream.voice` is checked only against an opt-in voice list, and
/// `vocabulary_id` / `dialog_attributes` are accepted and journaled.
@Suite("Recognition post-processing, voices, vocabulary")
struct RecognitionSettingsTests {
    private static let replaceWeather: JSONObject = [
        "upstream": [
            "type": "AudioOnly", "mode": "tap2talk",
            "asr_post_processing": [
                "replace_words": [
                    ["source": "weather", "target": "forecast", "match_mode": "exact"],
                    ["source": "today", "target": "tonight", "match_mode": .null],
                ]
            ],
            "vocabulary_id": "vocab-travel-01",
        ]
    ]

    @Test func replaceWordsChangePartialAndFinalTranscripts() throws {
        let harness = SessionHarness()
        harness.start(Self.replaceWeather)
        harness.streamUntilSpeechEnded(try TestScenarios.speech())
        let contents = harness.outputs("SpeechContent").compactMap { $0["text"]?.stringValue }
        #expect(contents.last == "What is the forecast like tonight")
        #expect(contents.allSatisfy { !$0.contains("weather") }, "\(contents)")
        #expect(contents.count >= 2)
        #expect(
            harness.journal.contains(
                .info("vocabulary_id vocab-travel-01 accepted (the scenario scripts what is heard)")))
        #expect(harness.violations.isEmpty, "\(harness.journal)")
    }

    @Test func replaceWordsChangeMidCallThroughUpdateInfo() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive(
            "UpdateInfo",
            parameters: ["upstream": ["asr_post_processing": ["replace_words": [["source": "What", "target": "How"]]]]])
        harness.streamUntilSpeechEnded(try TestScenarios.speech())
        #expect(harness.outputs("SpeechContent").last?["text"] == "How is the weather like today")
    }

    @Test(arguments: [
        (["replace_words": "weather"] as JSONValue, "replace_words must be an array"),
        (["replace_words": [["target": "x"]]] as JSONValue, "replace_words[0].source is required"),
        (["replace_words": [["source": "a", "target": 3]]] as JSONValue, "replace_words[0].target must be a string"),
        ("off" as JSONValue, "asr_post_processing must be an object"),
    ])
    func badReplaceWordsFailTheStartNamingTheField(processing: JSONValue, expected: String) throws {
        let harness = SessionHarness()
        harness.start(["upstream": ["type": "AudioOnly", "asr_post_processing": processing]])
        let failed = try #require(harness.texts.last)
        #expect(failed["header"]?["event"] == "task-failed")
        #expect(failed["header"]?["error_code"] == "InvalidParameter")
        let message = failed["header"]?["error_message"]?.stringValue ?? ""
        #expect(message.contains(expected), "\(message)")
        #expect(harness.violations == ["mmd.C5"])
    }

    /// Issue 40 row 2: the seeds give no voice list, so by default any voice starts the dialog.
    @Test func anyVoiceStartsByDefault() throws {
        for voice in ["longanyang", "Cherry", "longanqian", "longxiaochun_v2", "", "cosyvoice-v2-myvoice-0a1b2c"] {
            let harness = SessionHarness()
            harness.start(["downstream": ["voice": .string(voice)]])
            #expect(harness.outputs("Started").count == 1, "\(voice)")
            #expect(harness.texts.allSatisfy { $0["header"]?["event"] != "task-failed" }, "\(voice)")
        }
    }

    /// A listed voice set is an opt-in policy: another voice then fails the Start, naming it.
    @Test func anOptInVoiceListRefusesOtherVoices() throws {
        let listed = SessionHarness(
            scenario: Scenario(name: "v", seed: 1, policies: SessionPolicies(voices: ["longxiaochun_v2"])))
        listed.start(["downstream": ["voice": "no_such_voice"]])
        let failed = try #require(listed.texts.last)
        #expect(failed["header"]?["event"] == "task-failed")
        #expect(failed["header"]?["error_code"] == "InvalidParameter")
        let message = failed["header"]?["error_message"]?.stringValue ?? ""
        #expect(message.contains("downstream.voice \"no_such_voice\""), "\(message)")
        #expect(listed.closes.count == 1)
    }

    @Test func theScenarioNamesTheVoicesOrTurnsTheCheckOff() throws {
        let custom = Scenario(name: "v", seed: 1, policies: SessionPolicies(voices: ["my_brand_voice"]))
        let harness = SessionHarness(scenario: custom)
        harness.start(["downstream": ["voice": "my_brand_voice"]])
        #expect(harness.outputs("Started").count == 1)
        harness.directive("UpdateInfo", parameters: ["downstream": ["voice": "longxiaochun_v2"]])
        let error = try #require(harness.outputs("Error").last)
        #expect(error["error_name"] == "InvalidParameter")
        #expect(error["error_message"]?.stringValue?.contains("longxiaochun_v2") == true)
        let open = SessionHarness(scenario: Scenario(name: "any", seed: 1, policies: SessionPolicies(voices: nil)))
        open.start(["downstream": ["voice": "anything_goes"]])
        #expect(open.outputs("Started").count == 1)
    }

    @Test func dialogAttributesAreJournaled() throws {
        let harness = SessionHarness()
        harness.start(["dialog_attributes": ["agent_id": "agent-7", "prompt": "be brief"]])
        #expect(harness.outputs("Started").count == 1)
        #expect(
            harness.journal.contains(
                .info("dialog_attributes agent_id, prompt accepted (the scenario decides the agent and its answers)")))
    }
}
