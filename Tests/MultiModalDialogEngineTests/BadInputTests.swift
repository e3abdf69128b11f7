import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// Issue 4 "Bad input": every malformed frame or field gets the spec's answer, is journaled
/// with its obligation id, and never crashes.
@Suite("Bad input (S4, S20, C2–C23)")
struct BadInputTests {
    /// A Start with one change applied at a JSON path.
    static func start(_ edit: (inout JSONObject) -> Void) -> JSONValue {
        guard case .object(var root) = ClientMessages.start(taskID: "t-1") else { return nil }
        edit(&root)
        return .object(root)
    }

    static func setting(_ path: [String], _ value: JSONValue?) -> JSONValue {
        start { root in root.set(path, value) }
    }

    /// First frames that must fail the task with InvalidParameter, and the obligation journaled.
    static let badStarts: [(String, JSONValue, String)] = [
        ("not an object", .array([1, 2]), "mmd.C2"),
        ("no header", setting(["header"], nil), "mmd.C2"),
        ("continue-task first", setting(["header", "action"], "continue-task"), "mmd.C2"),
        ("streaming not duplex", setting(["header", "streaming"], "simplex"), "mmd.C2"),
        ("empty task_id", setting(["header", "task_id"], ""), "mmd.C2"),
        ("directive not Start", setting(["payload", "input", "directive"], "HeartBeat"), "mmd.C2"),
        ("wrong task_group", setting(["payload", "task_group"], "audio"), "mmd.C3"),
        ("missing function", setting(["payload", "function"], nil), "mmd.C3"),
        ("missing app_id", setting(["payload", "input", "app_id"], nil), "mmd.C4"),
        ("app_id not a string", setting(["payload", "input", "app_id"], 12), "mmd.C4"),
        ("missing user_id", setting(["payload", "parameters", "client_info", "user_id"], nil), "mmd.C4"),
        (
            "user_id too long",
            setting(["payload", "parameters", "client_info", "user_id"], .string(String(repeating: "u", count: 37))),
            "mmd.C4"
        ),
        ("missing upstream.type", setting(["payload", "parameters", "upstream", "type"], nil), "mmd.C4"),
        ("bad upstream.type", setting(["payload", "parameters", "upstream", "type"], "VideoOnly"), "mmd.C4"),
        ("bad mode", setting(["payload", "parameters", "upstream", "mode"], "walkie"), "mmd.C5"),
        ("bad uplink format", setting(["payload", "parameters", "upstream", "audio_format"], "wav"), "mmd.C5"),
        ("bad uplink rate", setting(["payload", "parameters", "upstream", "sample_rate"], 44100), "mmd.C5"),
        ("rate as string", setting(["payload", "parameters", "upstream", "sample_rate"], "16000"), "mmd.C5"),
        ("bad downlink format", setting(["payload", "parameters", "downstream", "audio_format"], "aac"), "mmd.C5"),
        ("bad downlink rate", setting(["payload", "parameters", "downstream", "sample_rate"], 22050), "mmd.C5"),
        ("volume 101", setting(["payload", "parameters", "downstream", "volume"], 101), "mmd.C5"),
        ("speech_rate 49", setting(["payload", "parameters", "downstream", "speech_rate"], 49), "mmd.C5"),
        ("pitch_rate 201", setting(["payload", "parameters", "downstream", "pitch_rate"], 201), "mmd.C5"),
        (
            "intermediate_text other",
            setting(["payload", "parameters", "downstream", "intermediate_text"], "transcript,audio"), "mmd.C5"
        ),
        (
            "device uuid 41",
            setting(
                ["payload", "parameters", "client_info", "device", "uuid"], .string(String(repeating: "d", count: 41))),
            "mmd.C5"
        ),
        ("parameters not object", setting(["payload", "parameters"], "x"), "mmd.C3"),
    ]

    /// Other run-task services' first frames (their SDKs' shapes): the refusal names what was
    /// asked for and says it is not emulated.
    @Test(arguments: [
        (
            ["task_group": "audio", "task": "tts", "function": "SpeechSynthesizer", "model": "cosyvoice-v2"]
                as JSONObject,
            "speech synthesis"
        ),
        (
            ["task_group": "audio", "task": "asr", "function": "recognition", "model": "paraformer-realtime-v2"]
                as JSONObject,
            "speech recognition"
        ),
        (
            ["task_group": "audio", "task": "asr", "function": "recognition", "model": "gummy-realtime-v1"]
                as JSONObject, "Gummy"
        ),
        (
            ["task_group": "aigc", "task": "livetranslate", "model": "qwen3-livetranslate-flash-realtime"]
                as JSONObject, "LiveTranslate"
        ),
    ])
    func otherRunTaskServicesAreNamedAsNotEmulated(payload: JSONObject, service: String) throws {
        var body = payload
        body["parameters"] = [:]
        body["input"] = [:]
        let harness = SessionHarness()
        harness.send(
            .object([
                "header": ["action": "run-task", "streaming": "duplex", "task_id": "t-1"], "payload": .object(body),
            ]))
        harness.advance(ms: 100)
        #expect(harness.events == ["task-failed"])
        let message = harness.texts.first?["header"]?["error_message"]?.stringValue ?? ""
        #expect(message.contains(service) && message.contains("does not emulate"), "\(message)")
        #expect(message.contains(payload["model"]?.stringValue ?? "?"), "\(message)")
        #expect(harness.violations == ["mmd.C3"], "\(harness.violations)")
    }

    @Test("S4: a bad first frame → task-failed{InvalidParameter} and close", arguments: badStarts.indices)
    func badStart(_ index: Int) throws {
        let (name, frame, obligation) = Self.badStarts[index]
        let harness = SessionHarness()
        harness.send(frame)
        harness.advance(ms: 100)
        #expect(harness.events == ["task-failed"], "\(name)")
        #expect(harness.texts.first?["header"]?["error_code"] == "InvalidParameter", "\(name)")
        #expect(harness.closes.count == 1, "\(name)")
        #expect(harness.violations == [obligation], "\(name): \(harness.journal)")
    }

    /// Issue 40 row 11: a Qwen realtime client on the inference path is told which path it meant.
    @Test func aRealtimeEventFirstNamesTheRealtimePath() throws {
        let harness = SessionHarness()
        harness.send(["type": "session.update", "session": ["modalities": ["text", "audio"]]])
        #expect(harness.events == ["task-failed"])
        let header = try #require(harness.texts.first?["header"])
        #expect(header["error_code"] == "InvalidParameter")
        let message = header["error_message"]?.stringValue ?? ""
        #expect(
            message.contains("\"session.update\"") && message.contains("/api-ws/v1/realtime?model="), "\(message)")
        #expect(harness.closes.count == 1)
        #expect(harness.violations == ["mmd.C2"])
    }

    @Test("S4: non-JSON first frame and binary before Start fail the task")
    func notJSONOrBinaryFirst() {
        let text = SessionHarness()
        text.sendRaw("{not json")
        #expect(text.events == ["task-failed"])
        #expect(text.violations == ["mmd.C2"])
        let binary = SessionHarness()
        binary.sendBinary([1, 2, 3, 4])
        #expect(binary.events == ["task-failed"])
        #expect(binary.violations == ["mmd.C8", "mmd.C2"])
    }

    /// Directive frames after Start that get `Error{400, name}` and a violation.
    static let badDirectives: [(String, JSONValue, String, String)] = [
        ("wrong task_id", ClientMessages.directive("HeartBeat", taskID: "other"), "InvalidDirective", "mmd.C6"),
        ("unknown directive", ClientMessages.directive("Dance", taskID: "t-1"), "InvalidDirective", "mmd.C7"),
        (
            "Start again via continue-task", ClientMessages.directive("Start", taskID: "t-1"), "InvalidDirective",
            "mmd.C7"
        ),
        ("no header", ["payload": ["input": ["directive": "HeartBeat"]]], "InvalidDirective", "mmd.C7"),
        ("not an object", "HeartBeat", "InvalidDirective", "mmd.C7"),
        (
            "RequestToRespond null text",
            ClientMessages.directive("RequestToRespond", taskID: "t-1", input: ["type": "prompt", "text": nil]),
            "InvalidParameter", "mmd.C13"
        ),
        (
            "UpdateInfo bad image",
            ClientMessages.directive("UpdateInfo", taskID: "t-1", parameters: ["images": [["type": "base64"]]]),
            "InvalidImage", "mmd.C14"
        ),
        (
            "UpdateInfo parameters not object", ClientMessages.directive("UpdateInfo", taskID: "t-1", parameters: [1]),
            "InvalidParameter", "mmd.C7"
        ),
        (
            "video action unknown",
            ClientMessages.directive(
                "RequestToRespond", taskID: "t-1", input: ["type": "prompt", "text": ""],
                parameters: ["biz_params": ["videos": [["action": "pause"]]]]), "InvalidParameter", "mmd.C16"
        ),
    ]

    @Test("S20: bad directives → Error{400} (non-fatal) and a violation", arguments: badDirectives.indices)
    func badDirective(_ index: Int) throws {
        let (name, frame, errorName, obligation) = Self.badDirectives[index]
        let harness = SessionHarness()
        harness.taskID = "t-1"
        harness.start()
        harness.send(frame)
        let error = try #require(harness.outputs("Error").last, "\(name)")
        #expect(error["error_code"] == 400, "\(name)")
        #expect(error["error_name"]?.stringValue == errorName, "\(name)")
        #expect(harness.violations.contains(obligation), "\(name): \(harness.journal)")
        #expect(harness.closes.isEmpty, "\(name)")
        harness.directive("HeartBeat")
        #expect(harness.events.last == "HeartBeat", "\(name): session goes on")
    }

    /// Issue 40 row 8, DOC-MMERR "421-InvalidParameter": a RequestToRespond type other than
    /// transcript/prompt gets result-generated with header status 421, then the connection closes.
    @Test(arguments: [JSONValue.string("poem"), .null, .int(3)])
    func aWrongRequestToRespondTypeGetsTheDocumentedStatusErrorAndCloses(_ type: JSONValue) throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive("RequestToRespond", input: ["type": type, "text": "x"])
        let frame = try #require(harness.texts.last)
        #expect(frame["header"]?["event"] == "result-generated")
        #expect(frame["header"]?["status_code"] == 421)
        #expect(frame["header"]?["status_name"] == "InvalidParameter")
        #expect(frame["header"]?["status_message"]?.stringValue?.contains("transcript or prompt") == true)
        #expect(frame["payload"]?["output"]?["event"] == "Error")
        #expect(frame["payload"]?["output"]?["dialog_id"]?.stringValue == harness.dialogID)
        #expect(harness.closes.count == 1)
        #expect(harness.violations == ["mmd.C13"])
    }

    @Test(
        "Violations without an error reply: C7 action, C8 early audio, C9 odd PCM, C23 foreign dialog_id, C19 stray LocalRespondingEnded"
    )
    func journaledViolations() throws {
        let harness = SessionHarness(scenario: try TestScenarios.repositoryDefault())
        harness.send(ClientMessages.start(taskID: harness.taskID))
        harness.sendBinary([0, 0, 0, 0])
        harness.advance(ms: 100)
        harness.sendBinary([0, 0, 0])
        harness.directive("HeartBeat", action: "run-task")
        harness.advance(ms: 6_000)
        harness.directive("HeartBeat", input: ["dialog_id": "someone-else"])
        harness.directive("LocalRespondingEnded")
        #expect(harness.violations == ["mmd.C8", "mmd.C9", "mmd.C7", "mmd.C23", "mmd.C19"])
        #expect(!harness.events.contains("Error"))
    }
}
