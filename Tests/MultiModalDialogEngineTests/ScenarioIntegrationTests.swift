import MultiModalDialogEngine
import ScenarioEngine
import SessionCore
import SessionTesting
import Testing
import WireAudio
import WireJSON

@Suite("Scenario faults and commands (S14, FaultRequest rendering)")
struct ScenarioIntegrationTests {
    static func scenario(_ name: String) throws -> Scenario {
        try Scenario.load(
            bytes: try FileBytes.read(path: TestScenarios.repositoryRoot + "/mock-server/scenarios/\(name).json"),
            file: name)
    }

    /// Issue 40 row 8, DOC-MMERR: the official error shapes as presets, each then closing.
    @Test func modelAccessDeniedPresetRefusesTheStart() throws {
        let harness = SessionHarness(scenario: try Self.scenario("model-access-denied"))
        harness.start()
        harness.advance(ms: 100)
        #expect(harness.events == ["task-failed"])
        let header = try #require(harness.texts.last?["header"])
        #expect(header["error_code"] == "Model.AccessDenied")
        #expect(header["error_message"] == "Model access denied.")
        #expect(header["task_id"]?.stringValue == harness.taskID)
        #expect(harness.closes.count == 1)
    }

    @Test func invalidParameterPresetSendsThe421StatusErrorAndCloses() throws {
        let harness = SessionHarness(scenario: try Self.scenario("invalid-parameter"))
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "Hi."])
        harness.advance(ms: 100)
        let frame = try #require(harness.texts.last)
        #expect(frame["header"]?["event"] == "result-generated")
        #expect(frame["header"]?["status_code"] == 421)
        #expect(frame["header"]?["status_name"] == "InvalidParameter")
        #expect(frame["payload"]?["output"]?["event"] == "Error")
        #expect(frame["payload"]?["output"]?["dialog_id"]?.stringValue == harness.dialogID)
        #expect(!harness.events.contains("RespondingStarted"))
        #expect(harness.closes.count == 1)
    }

    @Test func responseTimeoutPresetFailsTheSilentCall() throws {
        let harness = SessionHarness(scenario: try Self.scenario("response-timeout"))
        harness.start(["upstream": ["mode": "tap2talk"]])
        harness.advance(ms: 700)
        let header = try #require(harness.texts.last?["header"])
        #expect(header["event"] == "task-failed")
        #expect(header["error_code"] == "ResponseTimeout")
        #expect(header["error_message"] == "Response timeout!")
        #expect(harness.closes.count == 1)
    }

    @Test("unknownEvent faults become result-generated frames with that output.event")
    func unknownEvent() throws {
        let harness = SessionHarness(scenario: try Self.scenario("unknown-event"))
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": "Hi."])
        harness.advance(until: "RespondingEnded")
        let surprise = try #require(harness.outputs("mock.surprise").first)
        #expect(surprise["dialog_id"]?.stringValue == harness.dialogID)
        let frame = try #require(harness.texts.first { $0["payload"]?["output"]?["event"] == "mock.surprise" })
        #expect(frame["header"]?["event"] == "result-generated")
    }

    @Test("a fatal injected error renders task-failed and closes the session")
    func fatalInjectedError() throws {
        let scenario = try Scenario.load(
            text: """
                {"name": "fatal", "seed": 1, "triggers": [{"when": {"message": "HeartBeat"}, "actions": [
                  {"fault": {"kind": "injectError", "error": {"code": "Throttling", "message": "mock: too many", "fatal": true}}}]}]}
                """, file: "fatal.json")
        let harness = SessionHarness(scenario: scenario)
        harness.start()
        harness.directive("HeartBeat")
        #expect(harness.texts.contains { $0["header"]?["error_code"] == "Throttling" })
        #expect(harness.closes.count == 1)
    }

    /// The runner records every transport action with its time, as the driver carries it out
    /// (before, stalls and abrupt closes vanished in the test runner).
    @Test("socket faults reach the runner as transport actions, in order")
    func transportFaultsAreRecorded() throws {
        let scenario = try Scenario.load(
            text: """
                {"name": "socket", "seed": 1, "triggers": [{"when": {"message": "HeartBeat"}, "actions": [
                  {"fault": {"kind": "stall", "direction": "write", "ms": 300}},
                  {"fault": {"kind": "abruptClose"}}]}]}
                """, file: "socket.json")
        let harness = SessionHarness(scenario: scenario)
        harness.start()
        #expect(harness.runner.transports.isEmpty)
        harness.directive("HeartBeat")
        let actions = harness.runner.transports.map(\.action)
        #expect(actions == [.stall(.write, durationMicros: 300_000), .abruptClose])
        #expect(harness.closes.isEmpty)
    }

    @Test("S14: send_video_stream / stop_video_stream commands switch video mode after the round")
    func videoStreamCommands() throws {
        let scenario = Scenario(
            name: "omni", seed: 2,
            turns: TurnScript(list: [
                TurnContent(
                    transcript: "look at this", answer: "Starting the camera.",
                    commands: [["name": "send_video_stream", "params": []]]),
                TurnContent(
                    transcript: "stop", answer: "Camera off.", commands: [["name": "stop_video_stream", "params": []]]),
            ]))
        let harness = SessionHarness(scenario: scenario)
        harness.start(["upstream": ["type": "AudioAndVideo", "mode": "duplex"]])
        let frame: JSONValue = [
            "images": [["type": "base64", "value": .string(ClientMessages.base64(decodedBytes: 1_000))]]
        ]
        for count in 1...2 {
            harness.directive("RequestToRespond", input: ["type": "prompt", "text": "go"])
            harness.advance(until: "RespondingEnded", count: count)
            let commands = try #require(
                harness.outputs("RespondingContent").last?["extra_info"]?["commands"]?.stringValue)
            #expect(commands.contains(count == 1 ? "send_video_stream" : "stop_video_stream"))
            harness.directive("LocalRespondingEnded")
            harness.directive("UpdateInfo", parameters: frame)
            harness.sendBinary([UInt8](repeating: 0, count: 3200))
        }
        #expect(harness.violations == ["mmd.C15"])
    }
}
