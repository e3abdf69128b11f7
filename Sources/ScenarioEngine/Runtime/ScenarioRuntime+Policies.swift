extension ScenarioRuntime {
    /// A timer the engine scheduled came due. Timers whose deadline moved (input arrived in
    /// the meantime) are rescheduled instead of firing.
    package mutating func timerFired(_ timer: ScenarioTimer) -> [ScenarioAction] {
        guard !hasEnded else { return [] }
        let now = clock.nowMicros
        let policies = scenario.policies
        switch timer {
        case .idleEnd:
            guard !idle.held, let deadline = idleDeadline else { return [] }
            return deadlineCheck(timer, deadline: deadline, now: now, end: .idle)
        case .serverSilence:
            guard policyWatches.contains(.serverSilence), let ms = policies.serverSilenceTimeoutMs else { return [] }
            return deadlineCheck(
                timer, deadline: lastServerOutputMicros + scenario.scaledMicros(ms), now: now, end: .serverSilence)
        case .audioGap:
            guard audioGapWatched, policyWatches.contains(.audioGap), let ms = policies.audioGapTimeoutMs else {
                return []
            }
            return deadlineCheck(timer, deadline: lastAudioMicros + scenario.scaledMicros(ms), now: now, end: .audioGap)
        case .sessionExpiry(let number) where disarmedExpiries.contains(number):
            return []
        case .sessionCap, .sessionExpiry:
            return end(.sessionExpiry)
        case .trigger(let index):
            guard scenario.triggers.indices.contains(index) else { return [] }
            return fire(index)
        case .faultStage:
            var actions = emissions(faultStage.tick(nowMicros: now))
            if let next = faultStage.nextDeadlineMicros {
                actions.append(.scheduleTimer(.faultStage, atMicros: next))
            }
            return actions
        }
    }

    /// Turns the multimodal 20 s audio-gap watch on or off (tap2talk: on while Listening;
    /// duplex: always on; push2talk: off). Turning it on restarts the gap from now.
    package mutating func watchAudioGap(_ watched: Bool) -> [ScenarioAction] {
        guard watched != audioGapWatched else { return [] }
        audioGapWatched = watched
        guard watched, !hasEnded, policyWatches.contains(.audioGap), let ms = scenario.policies.audioGapTimeoutMs else {
            return []
        }
        let now = clock.nowMicros
        lastAudioMicros = max(lastAudioMicros, now)
        return [.scheduleTimer(.audioGap, atMicros: lastAudioMicros + scenario.scaledMicros(ms))]
    }

    /// The fault stage's reorder deadline as a timer action, if a window is held; call after
    /// ``outbound(_:)``.
    package var faultStageTimer: ScenarioAction? {
        faultStage.nextDeadlineMicros.map { .scheduleTimer(.faultStage, atMicros: $0) }
    }

    /// Releases frames held by faults now and ends the session; use when the engine closes.
    package mutating func close() -> FaultStageOutput {
        hasEnded = true
        let output = faultStage.flush(atMicros: clock.nowMicros)
        noteServerOutput(output)
        return output
    }

    /// Timers for the policies that are on and that the protocol watches.
    func policyTimersAtStart() -> [ScenarioAction] {
        let policies = scenario.policies
        var actions: [ScenarioAction] = []
        actions += idleTimer()
        if policyWatches.contains(.serverSilence), let ms = policies.serverSilenceTimeoutMs {
            actions.append(.scheduleTimer(.serverSilence, atMicros: startMicros + scenario.scaledMicros(ms)))
        }
        if policyWatches.contains(.sessionCap), let ms = policies.sessionCapMs {
            actions.append(.scheduleTimer(.sessionCap, atMicros: startMicros + scenario.scaledMicros(ms)))
        }
        return actions
    }

    /// Ends the session if `deadline` has passed, else reschedules the timer at it.
    private mutating func deadlineCheck(
        _ timer: ScenarioTimer, deadline: Int64, now: Int64, end reason: SessionEnd
    ) -> [ScenarioAction] {
        if now >= deadline { return end(reason) }
        return [.scheduleTimer(timer, atMicros: deadline)]
    }

    /// Ends the session once: flushes held frames, then asks the engine to end.
    mutating func end(_ reason: SessionEnd) -> [ScenarioAction] {
        guard !hasEnded else { return [] }
        var actions = emissions(faultStage.flush(atMicros: clock.nowMicros))
        hasEnded = true
        report.ended(reason.reportName)
        actions.append(.endSession(reason))
        return actions
    }
}
