import AnswerAudio
import Dispatch
import ScenarioEngine
import SessionCore
import Testing

/// The outbound schedule both engines share: due order, groups, the send lane, the timer and the
/// wait for answer audio.
@Suite struct OutboundTimelineTests {
    enum Action: TimelineAction, Equatable {
        case frame(String)
        case answer(AnswerAudioHandle)
        var awaitedAudio: AnswerAudioHandle? {
            if case .answer(let handle) = self { return handle }
            return nil
        }
    }

    static func run(_ timeline: inout OutboundTimeline<Action>, now: Int64) -> [String] {
        var names: [String] = []
        while case .run(let step)? = timeline.next(now: now) {
            if case .frame(let name) = step.action { names.append(name) }
        }
        return names
    }

    @Test func stepsComeDueInTimeThenInsertionOrder() {
        var timeline = OutboundTimeline<Action>(timer: "t")
        timeline.add(.frame("late"), at: 300)
        timeline.add(.frame("first"), at: 100)
        timeline.add(.frame("second"), at: 100)
        #expect(Self.run(&timeline, now: 99).isEmpty)
        #expect(Self.run(&timeline, now: 100) == ["first", "second"])
        #expect(timeline.nextDue == 300)
        #expect(Self.run(&timeline, now: 1000) == ["late"])
        #expect(timeline.nextDue == nil)
    }

    @Test func aLongPlanKeepsItsOrderWhileItRunsAndLateStepsAreSlottedIn() {
        var timeline = OutboundTimeline<Action>(timer: "t")
        for index in 0..<200 { timeline.add(.frame("\(index)"), at: Int64(index) * 10, group: 1) }
        #expect(Self.run(&timeline, now: 1490) == (0..<150).map { "\($0)" })
        // Planned later but due earlier than what is left: it goes before, ties after.
        timeline.add(.frame("early"), at: 1700)
        timeline.add(.frame("last"), at: 5000)
        #expect(timeline.count(group: 1) { _ in true } == 50)
        let rest = Self.run(&timeline, now: 10_000)
        #expect(rest == (150...170).map { "\($0)" } + ["early"] + (171..<200).map { "\($0)" } + ["last"])
        #expect(timeline.nextDue == nil)
    }

    @Test func droppingAGroupLeavesTheOthers() {
        var timeline = OutboundTimeline<Action>(timer: "t")
        timeline.add(.frame("round 1 audio"), at: 100, group: 1)
        timeline.add(.frame("round 1 text"), at: 150, group: 1)
        timeline.add(.frame("session"), at: 120)
        timeline.add(.frame("round 2"), at: 130, group: 2)
        #expect(timeline.count(group: 1) { $0 == .frame("round 1 audio") } == 1)
        #expect(timeline.drop(group: 1).count == 2)
        #expect(Self.run(&timeline, now: 200) == ["session", "round 2"])
    }

    @Test func theLaneNeverGoesBackUntilReset() {
        var timeline = OutboundTimeline<Action>(timer: "t")
        timeline.resetLane(to: 50)
        #expect(timeline.lane(10) == 50)
        #expect(timeline.lane(200) == 200)
        #expect(timeline.lane(100) == 200)
        timeline.resetLane(to: 100)
        #expect(timeline.lane(100) == 100)
    }

    @Test func theTimerFollowsTheEarliestStepAndIsSetOnce() {
        var timeline = OutboundTimeline<Action>(timer: "t")
        #expect(timeline.retime().isEmpty)
        timeline.add(.frame("a"), at: 500)
        #expect(timeline.retime() == [.scheduleTimer(.engine("t"), atMicros: 500)])
        #expect(timeline.retime().isEmpty)
        timeline.add(.frame("b"), at: 200)
        #expect(timeline.retime() == [.scheduleTimer(.engine("t"), atMicros: 200)])
        timeline.removeAll()
        #expect(timeline.retime() == [.cancelTimer(.engine("t"))])
        // After it fired, the same time is scheduled again.
        timeline.add(.frame("c"), at: 200)
        #expect(timeline.retime() == [.scheduleTimer(.engine("t"), atMicros: 200)])
        timeline.timerFired()
        #expect(timeline.retime() == [.scheduleTimer(.engine("t"), atMicros: 200)])
    }

    @Test func aStepWaitsForItsAudioAndStaysFirst() throws {
        let gate = DispatchSemaphore(value: 0)
        let cache = AnswerAudioCache(workers: 1) { key in
            gate.wait()
            return AnswerRenderer.render(key)
        }
        let handle = cache.answer(
            AnswerAudioKey(
                source: .synthesized(text: "Hi", rate: 1), sampleRate: 16000, seed: 1, encoding: .pcm,
                cadence: AudioCadence(chunkMs: 100, realTimeFactor: 1)))
        var timeline = OutboundTimeline<Action>(timer: "t")
        timeline.add(.answer(handle), at: 100)
        timeline.add(.frame("after"), at: 100)
        guard case .awaitAudio(let awaited)? = timeline.next(now: 100) else {
            Issue.record("expected a wait for the answer audio")
            return
        }
        #expect(awaited === handle)
        #expect(timeline.awaitAudio(handle) == [.cancelTimer(.engine("t")), .awaitAudio(handle, then: .engine("t"))])
        #expect(timeline.nextDue == 100)
        gate.signal()
        let ready = DispatchSemaphore(value: 0)
        handle.whenReady { ready.signal() }
        ready.wait()
        guard case .run(let step)? = timeline.next(now: 100) else {
            Issue.record("expected the rendered step to run")
            return
        }
        #expect(step.action == .answer(handle))
        #expect(Self.run(&timeline, now: 100) == ["after"])
    }
}
