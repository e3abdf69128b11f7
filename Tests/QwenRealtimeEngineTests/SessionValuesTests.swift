import ScenarioEngine
import Testing

@testable import QwenRealtimeEngine

/// The Qwen session's bookkeeping values, driven directly: what `QwenRealtimeSession` asks of
/// them and tells them (the engine tests drive the same transitions through the session driver).
@Suite("Qwen session values: SessionLifecycle and ToolCallLedger transitions (C3, C4, C13, C18, C19)")
struct SessionValuesTests {
    @Test("C18/C19: admission before and after finish, a server_error's in-flight grace, and the close")
    func lifecycleAdmission() {
        var lifecycle = SessionLifecycle()
        #expect(lifecycle.admission(atMicros: 0) == .handle)
        let closes = [lifecycle.close(), lifecycle.close()]
        #expect(closes == [true, false], "a second close is not a close")
        #expect(lifecycle.admission(atMicros: 1) == .drop)

        var finishing = SessionLifecycle()
        finishing.finish()
        #expect(finishing.admission(atMicros: 0) == .afterFinish)
        _ = finishing.close()
        #expect(finishing.admission(atMicros: 0) == .afterFinish, "judged even after the close")

        var ended = SessionLifecycle()
        ended.terminate(atMicros: 1_000_000)
        ended.terminate(atMicros: 5_000_000)
        #expect(ended.terminatedAt == 1_000_000, "the first server_error counts")
        #expect(ended.admission(atMicros: 1_300_000) == .inFlightAfterServerError(graceMs: 300))
        #expect(ended.admission(atMicros: 1_300_001) == .afterServerError)
    }

    @Test("C3: event ids are remembered per session; C4: the first update's session.updated is awaited until due")
    func lifecycleEventIDsAndFirstUpdate() {
        var lifecycle = SessionLifecycle()
        lifecycle.eventArrived()
        #expect(lifecycle.isFirstEvent)
        let firstUse = lifecycle.record(eventID: "e1")
        #expect(firstUse)
        #expect(lifecycle.currentEventID == "e1")
        lifecycle.eventArrived()
        #expect(!lifecycle.isFirstEvent)
        #expect(lifecycle.currentEventID == nil, "no id until the event shows one")
        let reused = !lifecycle.record(eventID: "e1")
        #expect(reused, "a reused id")
        let reports = [lifecycle.firstReport("C8-pace"), lifecycle.firstReport("C8-pace")]
        #expect(reports == [true, false])

        #expect(!lifecycle.awaitsFirstUpdated(atMicros: 0))
        let first = lifecycle.sessionUpdateArrived()
        lifecycle.firstUpdatedSent(atMicros: 50_000)
        let second = lifecycle.sessionUpdateArrived()
        #expect(first && !second)
        #expect(lifecycle.awaitsFirstUpdated(atMicros: 49_999))
        #expect(!lifecycle.awaitsFirstUpdated(atMicros: 50_000))
    }

    @Test("C13: outputs answer awaited calls once; the answer after the calls is taken once")
    func ledgerOutputsAndAnswer() throws {
        var ledger = ToolCallLedger()
        let weather = ToolCallLedger.Call(callID: "call_1", name: "get_weather")
        ledger.planned(answer: TurnContent(transcript: "", answer: "Sunny."), declared: weather)
        ledger.callSent(weather)
        ledger.callSent(.init(callID: "call_2", name: "get_time"))
        #expect(ledger.isAwaitingOutput)
        #expect(ledger.awaits("call_1"))
        let outputs = [ledger.outputArrived("call_1"), ledger.outputArrived("call_1"), ledger.outputArrived("call_9")]
        #expect(outputs == [true, false, false], "a second output for one call, an unknown call_id")
        ledger.responseEnded()
        let taken = ledger.takeAnswer()
        let waiting = try #require(taken, "call_2 still waits: the answer stays")
        #expect(waiting.answer.answer == "Sunny.")
        #expect(waiting.reporting == weather)
        let again = ledger.takeAnswer()
        #expect(again == nil, "taken once")
        let abandoned = ledger.abandonAwaited()
        #expect(abandoned == ["call_2"])
        #expect(!ledger.isAwaitingOutput)
    }

    @Test("A response that ends with no call waiting drops the answer; the declared call is made once")
    func ledgerResponseEndAndDeclaredCall() {
        var ledger = ToolCallLedger()
        ledger.planned(answer: TurnContent(transcript: "", answer: "Done."), declared: nil)
        ledger.responseEnded()
        let dropped = ledger.takeAnswer()
        #expect(dropped == nil)
        #expect(!ledger.madeDeclaredCall)
        ledger.declaredCallChosen()
        #expect(ledger.madeDeclaredCall)
    }
}
