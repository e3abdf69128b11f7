import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

@Suite("9.6–9.8 RequestToRespond, VQA, LiveAI (S11–S14)")
struct RequestToRespondTests {
    static let vqa = Scenario(
        name: "vqa", seed: 3,
        turns: TurnScript(list: [
            TurnContent(
                transcript: "What am I holding?", answer: "Let me take a look.",
                commands: [["name": "visual_qa", "params": [["name": "shot", "value": "look", "normValue": "True"]]]]),
            TurnContent(transcript: "", answer: "You are holding a red apple."),
        ]))

    @Test("9.6 transcript: Listening → Responding, text = spoken = the given text, no Thinking")
    func requestToRespondTranscript() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": "Welcome back."])
        harness.advance(until: "RespondingEnded")
        #expect(harness.states == ["Listening", "Responding"])
        let final = try #require(harness.outputs("RespondingContent").last)
        #expect(final["text"] == "Welcome back.")
        #expect(final["spoken"] == "Welcome back.")
        #expect(!harness.events.contains("SpeechContent"))
        #expect(!harness.audioFrames.isEmpty)
    }

    @Test("9.6 prompt: Thinking → scripted answer with ${user_name} from biz_params, partials cumulative")
    func requestToRespondPrompt() throws {
        let harness = SessionHarness()
        harness.start(["biz_params": ["user_prompt_params": ["user_name": "Ada"]]])
        for _ in 0..<2 {
            harness.directive("RequestToRespond", input: ["type": "prompt", "text": "Tell me something"])
            harness.advance(
                until: "RespondingEnded", count: harness.events.filter { $0 == "RespondingEnded" }.count + 1)
            harness.directive("LocalRespondingEnded")
        }
        #expect(
            harness.states == [
                "Listening", "Thinking", "Responding", "Listening", "Thinking", "Responding", "Listening",
            ])
        let finals = harness.outputs("RespondingContent").filter { $0["finished"] == true }
        #expect(finals.map { $0["text"]?.stringValue ?? "" } == ["It is sunny and warm.", "You're welcome, Ada."])
        let partials = harness.outputs("RespondingContent").filter { $0["finished"] == false }.compactMap {
            $0["text"]?.stringValue
        }
        #expect(partials.count > 2)
        #expect(zip(partials, partials.dropFirst()).allSatisfy { $1.hasPrefix($0) || $1.count < $0.count })
        #expect(!harness.events.contains("SpeechContent"))
        // One-shot biz_params apply to this request only.
        harness.directive(
            "RequestToRespond", input: ["type": "prompt", "text": "x"],
            parameters: ["biz_params": ["user_prompt_params": ["user_name": "Bob"]]])
        harness.advance(until: "RespondingEnded", count: 3)
        #expect(harness.outputs("RespondingContent").last?["text"] == "Sure.")
    }

    @Test("S11: RequestToRespond outside Listening → Error{400, InvalidState}, no state change, C13")
    func requestToRespondOutsideListening() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": "First answer with some words."])
        harness.advance(ms: 100)
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": "Second."])
        let error = try #require(harness.outputs("Error").last)
        #expect(error["error_code"] == 400)
        #expect(error["error_name"] == "InvalidState")
        #expect(harness.states == ["Listening", "Responding"])
        #expect(harness.violations == ["mmd.C13"])
    }

    @Test("9.7 VQA: commands travel as a JSON string; the follow-up with a base64 image gets the next answer")
    func visualQuestionAnswering() throws {
        let harness = SessionHarness(scenario: Self.vqa)
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "What am I holding?"])
        harness.advance(until: "RespondingEnded")
        let final = try #require(harness.outputs("RespondingContent").last)
        let commandsText = try #require(final["extra_info"]?["commands"]?.stringValue)
        let commands = try JSONValue.decode(Array(commandsText.utf8))
        #expect(commands[0]?["name"] == "visual_qa")
        // C17: follow-up before Listening.
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "look"])
        #expect(harness.violations == ["mmd.C13", "mmd.C17"])
        harness.directive("LocalRespondingEnded")
        let image: JSONValue = [
            "images": [["type": "base64", "value": .string(ClientMessages.base64(decodedBytes: 30_000))]]
        ]
        harness.directive(
            "RequestToRespond", input: ["type": "prompt", "text": "What am I holding?"], parameters: image)
        harness.advance(until: "RespondingEnded", count: 2)
        #expect(harness.outputs("RespondingContent").last?["text"] == "You are holding a red apple.")
        #expect(harness.outputs("RespondingContent").last?["extra_info"] == nil)
    }

    @Test(
        "9.8 LiveAI: connect round → video mode, UpdateInfo frames every 500 ms accepted, exit round ends it (S13, C15)"
    )
    func liveAIVideoMode() throws {
        let harness = SessionHarness()
        harness.start(["upstream": ["type": "AudioAndVideo"]])
        let videos: (String) -> JSONValue = {
            ["biz_params": ["videos": [["action": .string($0), "type": "voicechat_video_channel"]]]]
        }
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": ""], parameters: videos("connect"))
        harness.advance(until: "RespondingEnded")
        #expect(
            harness.outputs("RespondingContent").last?["text"]?.stringValue?.contains("Video call connected") == true)
        harness.directive("LocalRespondingEnded")
        let frame: JSONValue = [
            "images": [["type": "base64", "value": .string(ClientMessages.base64(decodedBytes: 50_000))]]
        ]
        for _ in 0..<6 {
            harness.directive("UpdateInfo", parameters: frame)
            harness.advance(ms: 500)
        }
        #expect(harness.violations.isEmpty, "\(harness.journal)")
        harness.advance(ms: 1_500)
        harness.directive("UpdateInfo", parameters: frame)
        #expect(harness.violations == ["mmd.C15"])
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": ""], parameters: videos("exit"))
        harness.advance(until: "RespondingEnded", count: 2)
        harness.directive("LocalRespondingEnded")
        harness.directive("UpdateInfo", parameters: frame)
        #expect(harness.violations == ["mmd.C15", "mmd.C15"])
        #expect(!harness.events.contains("Error"))
    }

    @Test(
        "S12: a bad image → Error{400, InvalidImage} and C14, no round",
        arguments: [
            JSONValue.array([["type": "file", "value": "x"]]),
            .array([["type": "url", "value": ""]]),
            .array([["type": "base64", "value": "not base64!"]]),
            .array([["type": "base64", "value": .string(ClientMessages.base64(decodedBytes: 190_000))]]),
            .string("https://example.com/a.jpg"),
        ])
    func badImage(_ images: JSONValue) throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive(
            "RequestToRespond", input: ["type": "prompt", "text": "look"], parameters: ["images": images])
        #expect(harness.outputs("Error").last?["error_name"] == "InvalidImage")
        #expect(harness.violations == ["mmd.C14"])
        #expect(harness.states == ["Listening"])
    }
}
