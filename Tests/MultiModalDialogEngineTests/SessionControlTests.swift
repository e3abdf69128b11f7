import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

@Suite("9.9–9.13 UpdateInfo, dialog_id, HeartBeat, Stop, fatal errors (S15–S21)")
struct SessionControlTests {
    @Test("9.9: UpdateInfo has no reply; biz_params replace Start's for later rounds; status stored")
    func updateInfo() throws {
        let harness = SessionHarness()
        harness.start(["biz_params": ["user_prompt_params": ["user_name": "Ada"]]])
        let before = harness.sent.count
        harness.directive(
            "UpdateInfo",
            parameters: [
                "client_info": ["status": ["phone_ringing": ["status": "stopped"]]],
                "biz_params": ["user_prompt_params": ["user_name": "Grace"]],
            ])
        harness.advance(ms: 1_000)
        #expect(harness.sent.count == before)
        for count in 1...2 {
            harness.directive("RequestToRespond", input: ["type": "prompt", "text": "hi"])
            harness.advance(until: "RespondingEnded", count: count)
            harness.directive("LocalRespondingEnded")
        }
        #expect(harness.outputs("RespondingContent").last?["text"] == "You're welcome, Grace.")
        #expect(harness.journal.contains(.info("client_info.status stored")))
    }

    @Test("9.10: a resumed dialog_id is echoed and its scripted conversation continues (S21)")
    func dialogIDReuse() throws {
        let memory = DialogMemory()
        let first = SessionHarness(memory: memory)
        first.start()
        let dialogID = try #require(first.dialogID)
        first.directive("RequestToRespond", input: ["type": "prompt", "text": "hello"])
        first.advance(until: "RespondingEnded")
        first.directive("Stop")
        #expect(first.outputs("RespondingContent").last?["text"] == "It is sunny and warm.")
        let second = SessionHarness(memory: memory)
        second.start(dialogID: dialogID)
        #expect(second.dialogID == dialogID)
        second.directive("RequestToRespond", input: ["type": "prompt", "text": "thanks"])
        second.advance(until: "RespondingEnded")
        #expect(second.outputs("RespondingContent").last?["text"] == "You're welcome, friend.")
        #expect(memory.record(for: dialogID)?.history.map(\.user) == ["hello", "thanks"])
        // An unknown id opens a new context under that id; or fails when configured so.
        let fresh = SessionHarness(memory: memory)
        fresh.start(dialogID: "12345678-1234-1234-1234-1234567890ab")
        #expect(fresh.dialogID == "12345678-1234-1234-1234-1234567890ab")
        var strict = MultiModalDialogSessionOptions()
        strict.rejectsUnknownDialogID = true
        let refused = SessionHarness(memory: memory, options: strict)
        refused.start(dialogID: "aaaaaaaa-1234-1234-1234-1234567890ab")
        #expect(refused.events == ["task-failed"])
        #expect(refused.closes.count == 1)
    }

    @Test("9.11: HeartBeat is echoed at once with the dialog_id; more often than every 5 s is C21")
    func heartBeat() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive("HeartBeat")
        let echo = try #require(harness.sent.last)
        #expect(echo.eventType == "HeartBeat")
        #expect(echo.sendAtMicros == harness.now)
        #expect(harness.outputs("HeartBeat").first?["dialog_id"]?.stringValue == harness.dialogID)
        harness.advance(ms: 1_000)
        harness.directive("HeartBeat")
        #expect(harness.violations == ["mmd.C21"])
    }

    @Test("S17: HeartBeats keep the server-silence rule away; without them task-failed{ResponseTimeout} and close")
    func serverSilenceRule() throws {
        let scenario = Scenario(
            name: "silence", seed: 1, timeScale: 0.01, policies: SessionPolicies(audioGapTimeoutMs: nil))
        let harness = SessionHarness(scenario: scenario)
        harness.start()
        for _ in 0..<4 {
            harness.advance(ms: 350)
            harness.directive("HeartBeat")
        }
        #expect(harness.closes.isEmpty)
        harness.advance(ms: 700)
        #expect(harness.events.last == "task-failed")
        #expect(harness.texts.last?["header"]?["error_code"] == "ResponseTimeout")
        #expect(harness.texts.last?["header"]?["error_message"] == "Response timeout!")  // DOC-MMERR
        #expect(harness.closes.first?.code == 1000)
        #expect(harness.violations.contains("mmd.C21"))
    }

    @Test(
        "S18: tap2talk Listening without audio → Error{40000, AudioTimeout}, task-failed, close; push2talk is not watched"
    )
    func audioGapRule() throws {
        let scenario = Scenario(name: "gap", seed: 1, timeScale: 0.01)
        let harness = SessionHarness(scenario: scenario)
        harness.start()
        harness.advance(ms: 300)
        #expect(Array(harness.events.suffix(2)) == ["Error", "task-failed"])
        #expect(harness.outputs("Error").last?["error_code"] == 40000)
        #expect(harness.outputs("Error").last?["error_name"] == "AudioTimeout")
        #expect(harness.violations == ["mmd.C11"])
        #expect(harness.closes.count == 1)
        let pushToTalk = SessionHarness(
            scenario: Scenario(
                name: "gap", seed: 1, timeScale: 0.01, policies: SessionPolicies(serverSilenceTimeoutMs: nil)))
        pushToTalk.start(["upstream": ["mode": "push2talk"]])
        pushToTalk.advance(ms: 1_000)
        #expect(pushToTalk.closes.isEmpty)
    }

    @Test("S18: duplex watches the gap in Listening; Thinking and Responding only with duplexAudioGapInEveryState")
    func duplexAudioGapStates() throws {
        let text = "A fairly long answer that keeps streaming for a while, longer than the gap."
        // The iOS demo's duplex client: silent from SpeechEnded to the next Listening.
        // A 500 ms gap (50 s scaled by 0.01): longer than Start, shorter than the answer.
        let policies = SessionPolicies(serverSilenceTimeoutMs: nil, audioGapTimeoutMs: 50_000)
        let lenient = SessionHarness(scenario: Scenario(name: "gap", seed: 1, timeScale: 0.01, policies: policies))
        lenient.start(["upstream": ["mode": "duplex"]])
        lenient.directive("RequestToRespond", input: ["type": "transcript", "text": .string(text)])
        lenient.advance(until: "RespondingEnded")
        #expect(lenient.closes.isEmpty)
        #expect(!lenient.violations.contains("mmd.C12"))
        #expect(lenient.states == ["Listening", "Responding"])
        // Back in Listening the gap counts again, from the moment Listening is entered.
        lenient.directive("LocalRespondingEnded")
        lenient.advance(ms: 700)
        #expect(lenient.states.last == "Listening")
        #expect(lenient.violations == ["mmd.C12"])
        #expect(lenient.closes.count == 1)

        var everyState = policies
        everyState.duplexAudioGapInEveryState = true
        let strict = SessionHarness(scenario: Scenario(name: "gap", seed: 1, timeScale: 0.01, policies: everyState))
        strict.start(["upstream": ["mode": "duplex"]])
        strict.directive("RequestToRespond", input: ["type": "transcript", "text": .string(text)])
        strict.advance(until: "task-failed")
        #expect(strict.violations == ["mmd.C12"])
        #expect(strict.outputs("Error").last?["error_name"] == "AudioTimeout")
        #expect(strict.states.last != "Listening")
    }

    @Test("9.12: Stop aborts the round: Stopped, task-finished, close 1000; later frames are ignored (C22)")
    func stop() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive(
            "RequestToRespond",
            input: ["type": "transcript", "text": "A fairly long answer that keeps streaming for a while."])
        harness.advance(ms: 300)
        let audio = harness.audioFrames.count
        harness.directive("Stop")
        #expect(Array(harness.events.suffix(2)) == ["Stopped", "task-finished"])
        #expect(harness.outputs("Stopped").first?["dialog_id"]?.stringValue == harness.dialogID)
        #expect(harness.closes.map(\.code) == [1000])
        harness.advance(ms: 10_000)
        #expect(harness.audioFrames.count == audio)
        harness.directive("HeartBeat")
        harness.sendBinary([0, 0])
        #expect(harness.events.last == "task-finished")
        #expect(harness.violations == ["mmd.C22"])
    }

    @Test("9.13: scripted errors: non-fatal Error before the answer, fatal task-failed instead of it")
    func scriptedErrors() throws {
        let scenario = try Scenario.load(
            bytes: try FileBytes.read(path: TestScenarios.repositoryRoot + "/mock-server/scenarios/inject-error.json"),
            file: "inject-error.json")
        let harness = SessionHarness(scenario: scenario)
        harness.start()
        harness.directive("HeartBeat")
        #expect(harness.outputs("Error").last?["error_name"] == "InvalidDirective")
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "weather?"])
        harness.advance(ms: 2_000)
        let error = try #require(harness.outputs("Error").last)
        #expect(error["error_code"] == 500)
        #expect(error["error_name"] == "InternalLLMError")
        #expect(harness.states == ["Listening", "Thinking", "Listening"])
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "again"])
        harness.advance(ms: 2_000)
        #expect(harness.events.last == "task-failed")
        #expect(harness.texts.last?["header"]?["error_code"] == "InternalError")
        #expect(harness.closes.count == 1)
    }
}
