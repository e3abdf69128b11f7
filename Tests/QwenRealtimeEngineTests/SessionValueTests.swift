import ScenarioEngine
import Testing

@testable import QwenRealtimeEngine

/// The Qwen engine's session values on their own: the lifecycle that admits client frames, the
/// user turns, the tool-call ledger and the idle silence. The engine tests drive them through
/// the session; these pin each transition.
@Suite struct SessionValueTests {
    @Test func lifecycleAdmitsFramesUntilTheSessionEndsAndJudgesLateOnes() {
        var open = SessionLifecycle()
        #expect(open.admission(atMicros: 0) == .handle)
        open.eventArrived()
        #expect(open.isFirstEvent)
        let closedNow = open.close()
        #expect(closedNow)
        let closedAgain = open.close()
        #expect(!closedAgain)
        #expect(open.admission(atMicros: 10) == .drop)

        var finishing = SessionLifecycle()
        finishing.finish()
        _ = finishing.close()
        #expect(finishing.admission(atMicros: 10) == .afterFinish)

        var failed = SessionLifecycle()
        failed.terminate(atMicros: 1_000_000)
        failed.terminate(atMicros: 5_000_000)  // the first server_error counts
        _ = failed.close()
        let grace = SessionLifecycle.serverErrorInFlightMicros
        #expect(failed.admission(atMicros: 1_000_000 + grace) == .inFlightAfterServerError(graceMs: grace / 1000))
        #expect(failed.admission(atMicros: 1_000_001 + grace) == .afterServerError)
    }

    @Test func lifecycleRemembersEventIDsReportsAndTheFirstUpdate() {
        var lifecycle = SessionLifecycle()
        lifecycle.eventArrived()
        let newID = lifecycle.record(eventID: "e1")
        #expect(newID)
        #expect(lifecycle.currentEventID == "e1")
        lifecycle.eventArrived()
        #expect(lifecycle.currentEventID == nil)
        #expect(!lifecycle.isFirstEvent)
        let reusedIDIsNew = lifecycle.record(eventID: "e1")
        #expect(!reusedIDIsNew)

        let firstReport = lifecycle.firstReport("C9-clear")
        #expect(firstReport)
        let repeatedReport = lifecycle.firstReport("C9-clear")
        #expect(!repeatedReport)

        #expect(!lifecycle.awaitsFirstUpdated(atMicros: 0))
        let firstUpdate = lifecycle.sessionUpdateArrived()
        #expect(firstUpdate)
        lifecycle.firstUpdatedSent(atMicros: 500)
        let secondIsFirst = lifecycle.sessionUpdateArrived()
        #expect(!secondIsFirst)
        #expect(lifecycle.awaitsFirstUpdated(atMicros: 499))
        #expect(!lifecycle.awaitsFirstUpdated(atMicros: 500))
    }

    @Test func userTurnsFollowSpeechCommitsAndNewInput() {
        var turns = UserTurns()
        let turn = UserTurn(
            intent: .valid, itemID: "item_1", content: TurnContent(transcript: "hello there"), startMs: 0)
        turns.speechStarted(turn, smartTurn: true)
        #expect(turns.inSmartTurn)
        #expect(turns.speaking?.tokens.isEmpty == false)
        #expect(turns.speechEnded()?.itemID == "item_1")
        #expect(turns.speechEnded() == nil)

        turns.audioItemAdded("item_1", audioMicros: 640_000)
        #expect(turns.hasNewInput)
        #expect(turns.audioMicros(ofItem: "item_1") == 640_000)
        turns.waitForResponse(turn.content)
        #expect(turns.takeCommitted()?.transcript == "hello there")
        #expect(turns.takeCommitted() == nil)

        turns.responseStarted()
        #expect(!turns.hasNewInput)
        #expect(turns.inSmartTurn)
        turns.responseFinished()
        #expect(!turns.inSmartTurn)
        turns.itemAdded()
        #expect(turns.hasNewInput)
        turns.itemDeleted("item_1")
        #expect(turns.audioMicros(ofItem: "item_1") == nil)

        turns.speechStarted(turn, smartTurn: true)
        turns.detectionChanged()
        #expect(turns.speaking == nil)
        #expect(!turns.inSmartTurn)
    }

    @Test func toolCallLedgerHoldsTheAnswerUntilTheOutputsAreIn() {
        var tools = ToolCallLedger()
        let call = ToolCallLedger.Call(callID: "call_1", name: "get_weather")
        tools.declaredCallChosen()
        #expect(tools.madeDeclaredCall)
        tools.planned(answer: TurnContent(answer: "It is sunny."), declared: call)
        tools.callSent(call)
        #expect(tools.isAwaitingOutput)
        #expect(tools.awaits("call_1"))
        tools.responseEnded()  // a call still waits: the answer stays
        let awaited = tools.outputArrived("call_1")
        #expect(awaited)
        let awaitedTwice = tools.outputArrived("call_1")
        #expect(!awaitedTwice)
        let after = tools.takeAnswer()
        #expect(after?.answer.answer == "It is sunny.")
        #expect(after?.reporting == call)
        #expect(tools.takeAnswer() == nil)

        tools.planned(answer: TurnContent(answer: "Done."), declared: nil)
        tools.callSent(ToolCallLedger.Call(callID: "call_3", name: "b"))
        tools.callSent(ToolCallLedger.Call(callID: "call_2", name: "a"))
        #expect(tools.abandonAwaited() == ["call_2", "call_3"])
        #expect(!tools.isAwaitingOutput)
        tools.responseEnded()  // nothing waits: the answer is dropped
        #expect(tools.takeAnswer() == nil)
    }

    @Test func idleSilenceSpeaksOncePerSilence() {
        var silence = IdleSilence()
        #expect(!silence.isDue(atMicros: 0))
        silence.arm(atMicros: 2_000)
        #expect(!silence.isDue(atMicros: 1_999))
        #expect(silence.isDue(atMicros: 2_000))
        silence.spoke()
        #expect(!silence.mayArm)
        #expect(!silence.isDue(atMicros: 3_000))
        let hadTimer = silence.userActed()  // no timer left to cancel
        #expect(!hadTimer)
        #expect(silence.mayArm)
        silence.arm(atMicros: 9_000)
        let cancelsTimer = silence.userActed()
        #expect(cancelsTimer)
        #expect(!silence.isDue(atMicros: 9_000))
    }
}
