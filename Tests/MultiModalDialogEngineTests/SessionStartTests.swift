import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

@Suite("9.1 session start, S2–S5")
struct SessionStartTests {
    @Test("9.1: task-started, Started{dialog_id}, DialogStateChanged{Listening}")
    func startSequence() throws {
        let harness = SessionHarness()
        harness.start()
        #expect(harness.events == ["task-started", "Started", "DialogStateChanged"])
        #expect(harness.states == ["Listening"])
        let started = try #require(harness.outputs("Started").first)
        let dialogID = try #require(started["dialog_id"]?.stringValue)
        #expect(dialogID.count == 36)
        #expect(harness.journal.contains(.state("Listening")))
        #expect(harness.violations.isEmpty)
    }

    @Test("S2: every server text frame has header.event, the client's task_id and a payload object")
    func envelopeShape() throws {
        let harness = SessionHarness()
        harness.start()
        for frame in harness.texts {
            let header = try #require(frame["header"]?.objectValue)
            #expect(header["task_id"]?.stringValue == harness.taskID)
            #expect(
                ["task-started", "result-generated", "task-finished", "task-failed"].contains(
                    header["event"]?.stringValue ?? ""))
            #expect(frame["payload"]?.objectValue != nil)
        }
        #expect(harness.texts[0]["payload"] == [:])
    }

    @Test("S3: task-started can be turned off")
    func taskStartedOptional() {
        var options = MultiModalDialogSessionOptions()
        options.sendsTaskStarted = false
        let harness = SessionHarness(options: options)
        harness.start()
        #expect(harness.events == ["Started", "DialogStateChanged"])
    }

    @Test("S3/S5: Started and Listening keep the scenario's delays and Listening never precedes Started")
    func startDelaysFollowScenario() throws {
        let harness = SessionHarness(scenario: try TestScenarios.repositoryDefault())
        harness.send(ClientMessages.start(taskID: harness.taskID))
        #expect(harness.sent.isEmpty)
        harness.advance(ms: 100)
        #expect(harness.events == ["task-started", "Started", "DialogStateChanged"])
        #expect(harness.sent[1].sendAtMicros >= 15_000)
        #expect(harness.sent[2].sendAtMicros == harness.sent[1].sendAtMicros)
    }

    @Test("§11: downstream.sample_rate 0 (the Java SDK's unset value) is the default rate with a note, not task-failed")
    func javaUnsetSampleRateIsTheDefault() {
        let harness = SessionHarness()
        harness.start(["downstream": ["sample_rate": 0]])
        #expect(harness.outputs("Started").count == 1)
        #expect(harness.violations.isEmpty)
        #expect(
            harness.journal.contains {
                if case .info(let text) = $0 {
                    text.contains("sample_rate 0") && text.contains("24000 Hz")
                } else {
                    false
                }
            })
        let other = SessionHarness()
        other.start(["downstream": ["sample_rate": 12345]])
        #expect(other.violations == ["mmd.C5"])
    }

    @Test("S22/§11: a Python-SDK Start (model null, null fields, 32-hex task_id, extra keys) is accepted with warnings")
    func pythonStartTolerated() throws {
        let harness = SessionHarness()
        harness.taskID = "0b6c2a4e7d1f4c559a553f0e9d2b1c77"
        var start = ClientMessages.start(
            taskID: harness.taskID,
            parameters: [
                "upstream": ["vocabulary_id": nil, "extra_key": 1],
                "downstream": ["debug": false, "volume": 50, "pitch_rate": 100, "speech_rate": 100],
                "client_info": ["user_id": "u", "sdk": "python"],
                "biz_params": nil,
            ])
        guard case .object(var root) = start, case .object(var payload)? = root["payload"],
            case .object(var header)? = root["header"], case .object(var input)? = payload["input"]
        else { return }
        payload["model"] = nil
        payload["model"] = .null
        input["workspace_id"] = .null
        input["dialog_id"] = .null
        header["request_id"] = .string(harness.taskID)
        payload["input"] = .object(input)
        root["payload"] = .object(payload)
        root["header"] = .object(header)
        start = .object(root)
        harness.send(start)
        harness.advance(ms: 100)
        #expect(harness.states == ["Listening"])
        #expect(harness.violations.contains("mmd.C3"))
        #expect(harness.violations.contains("mmd.C4"))
        // Directives with null dialog_id / app_id and repeated task fields are accepted too.
        harness.directive("HeartBeat", input: ["dialog_id": nil, "app_id": nil, "workspace_id": nil])
        #expect(harness.outputs("HeartBeat").count == 1)
        #expect(!harness.events.contains("Error"))
    }
}
