import ProtocolModel
import ScenarioEngine
import SessionCore
import SessionTesting
import Testing
import WireJSON

@Suite("SessionCore: scenario actions become session commands")
struct SessionCoreTests {
    static func session(_ text: String) throws -> ScriptOnlySession {
        ScriptOnlySession(try Scenario.load(text: text, file: "test.json"), clock: ManualClock())
    }

    static func receive(_ session: ScriptOnlySession, _ json: JSONValue) -> [SessionCommand] {
        let bytes = json.encoded()
        return session.receive(text: bytes, classification: session.classify(text: bytes))
    }

    @Test func policyAndTriggerTimersAreScenarioTimers() throws {
        let session = try Self.session(
            #"{"policies": {"idleEndMs": 500}, "triggers": [{"when": {"afterMs": 100}, "actions": [{"endSession": "late"}]}]}"#
        )
        session.scenario.runtime.policyWatches = [.idleEnd]
        let commands = session.open()
        #expect(commands.contains(.scheduleTimer(.scenario(.idleEnd), atMicros: 500_000)))
        #expect(commands.contains(.scheduleTimer(.scenario(.trigger(0)), atMicros: 100_000)))
        // The trigger fires through the session: its end reason reaches the engine.
        let fired = session.timerFired(.scenario(.trigger(0)))
        #expect(session.ends == [.trigger(reason: "late")])
        #expect(fired.contains { if case .transport(.close(1000, _), _) = $0 { true } else { false } })
        // Engine timers go to the engine.
        #expect(session.timerFired(.engine("tick")).isEmpty)
        #expect(session.engineTimers == ["tick"])
    }

    @Test func scriptedFramesPassTheFaultStage() throws {
        let session = try Self.session(
            #"""
            {"triggers": [{"when": {"message": "ping"}, "actions": [{"send": {"type": "pong"}}]}],
             "faults": [{"kind": "duplicate", "copies": 1, "match": {"type": "pong"}}]}
            """#)
        _ = session.open()
        let commands = Self.receive(session, ["type": "ping"])
        let sent = commands.compactMap { command -> String? in
            if case .send(let frame) = command { return frame.eventType }
            return nil
        }
        #expect(sent == ["pong", "pong"], "the duplicate fault applied to the scripted frame")
        let notes = commands.compactMap { command -> String? in
            if case .journal(.fault(let note)) = command { return note.kind }
            return nil
        }
        #expect(notes.sorted() == ["duplicate", "trigger"], "the trigger and the fault application are journaled")
    }

    @Test func faultRequestsAreRenderedByTheEngine() throws {
        let session = try Self.session(
            #"{"triggers": [{"when": {"message": "ping"}, "actions": [{"fault": {"kind": "injectError", "error": {"code": "X", "message": "m"}}}]}]}"#
        )
        _ = session.open()
        let commands = Self.receive(session, ["type": "ping"])
        #expect(commands.contains { if case .send(let frame) = $0 { frame.eventType == "error" } else { false } })
    }

    @Test func upgradeVerdicts() {
        let accepted = UpgradeVerdict<String>.accept("profile")
        #expect(accepted.isAccepted && accepted.status == 101)
        let refused = UpgradeVerdict<String>.reject(status: 401, body: ["code": "InvalidApiKey"], obligation: "qrt.C1")
        #expect(!refused.isAccepted && refused.status == 401)
    }

    @Test func violationNotesCarryTheirLevel() {
        #expect(
            JournalNote.must("mmd.C8", "audio early") == .violation(obligation: "mmd.C8", message: "MUST: audio early"))
        #expect(JournalNote.should("mmd.C11", "pause") == .violation(obligation: "mmd.C11", message: "SHOULD: pause"))
    }

    @Test func pcmSummaries() {
        let summary = PCMPayload.summary(bytes: 3_200, sampleRate: 16_000)
        #expect(summary.codec == "pcm" && summary.durationMs == 100 && summary.sampleRate == 16_000)
        #expect(PCMPayload.summary(bytes: 3_200, sampleRate: 16_000, channels: 2).durationMs == 50)
        #expect(PCMPayload.summary(bytes: 100, sampleRate: 0).durationMs.isFinite)
    }

    @Test func trimmingSpaces() {
        #expect("  Bearer sk \t".trimmingSpaces == "Bearer sk")
        #expect("".trimmingSpaces.isEmpty)
    }
}
