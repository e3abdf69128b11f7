import ProtocolModel

extension ScenarioRuntime {
    /// Fires trigger `index` if its limit and (seeded) probability allow, runs its actions,
    /// and starts the timers of triggers that count from it. A failed probability draw does
    /// not use up the limit.
    mutating func fire(_ index: Int) -> [ScenarioAction] {
        let trigger = scenario.triggers[index]
        guard !trigger.limit.isExhausted(after: triggerFirings[index]) else { return [] }
        if trigger.probability < 1, !triggerRandom.chance(trigger.probability) { return [] }
        triggerFirings[index] += 1
        let now = clock.nowMicros
        let name = trigger.id ?? "triggers[\(index)]"
        var actions: [ScenarioAction] = [
            .note(FaultNote(faultId: trigger.id, kind: "trigger", detail: "\(name) fired (\(triggerFirings[index]))"))
        ]
        for action in trigger.actions {
            switch action {
            case .arm(let id):
                for fault in scenario.faults where fault.id == id {
                    actions += armFault(fault)
                }
            case .disarm(let id):
                actions += emissions(faultStage.disarm(id: id, atMicros: now))
                disarmedExpiries.formUnion(expiryByFaultID.removeValue(forKey: id) ?? [])
                actions.append(.note(FaultNote(faultId: id, kind: "disarm", detail: "disarmed by \(name)")))
            case .fault(let fault):
                actions += armFault(fault)
            case .send(let frame, let delayMs):
                actions.append(.send(.json(frame), atMicros: now + Int64((delayMs * 1000).rounded())))
            case .endSession(let reason):
                actions += end(.trigger(reason: reason))
            }
        }
        if let id = trigger.id {
            for (other, candidate) in scenario.triggers.enumerated() {
                if case .afterTime(let ms, id?) = candidate.condition {
                    actions.append(.scheduleTimer(.trigger(other), atMicros: now + scenario.scaledMicros(ms)))
                }
            }
        }
        if case .afterTime(let ms, _) = trigger.condition, !trigger.limit.isExhausted(after: triggerFirings[index]) {
            actions.append(.scheduleTimer(.trigger(index), atMicros: now + max(1, scenario.scaledMicros(ms))))
        }
        return actions
    }

    /// Arms a fault now: `sessionExpiry` starts its timer; other faults go to the stage,
    /// which may act at once (unmatched transport faults and requests).
    /// Arms a fault now: at session start for scenario faults, or on a live session from the
    /// control API (`POST /_mock/faults`).
    package mutating func armFault(_ fault: FaultSpec) -> [ScenarioAction] {
        let now = clock.nowMicros
        let name = fault.id ?? fault.kindName.rawValue
        if case .sessionExpiry(let afterMs) = fault.kind {
            expiryCount += 1
            if let id = fault.id { expiryByFaultID[id, default: []].append(expiryCount) }
            return [
                .note(
                    FaultNote(
                        faultId: fault.id, kind: "sessionExpiry",
                        detail: "\(name) armed: session ends in \(scenario.scaledMicros(afterMs)) µs")),
                .scheduleTimer(.sessionExpiry(expiryCount), atMicros: now + scenario.scaledMicros(afterMs)),
            ]
        }
        var actions: [ScenarioAction] = []
        if fault.actsOnFrames {
            actions.append(.note(FaultNote(faultId: fault.id, kind: fault.kindName.rawValue, detail: "\(name) armed")))
        }
        actions += emissions(faultStage.arm(fault, atMicros: now))
        return actions
    }

    /// Disarms a fault the control API armed (`DELETE /_mock/faults`), releasing frames it holds.
    /// What it already did (a close, a dropped frame) stays done.
    package mutating func disarmFault(id: String) -> [ScenarioAction] {
        var actions = emissions(faultStage.disarm(id: id, atMicros: clock.nowMicros))
        // A pending session expiry of this fault no longer ends the session.
        disarmedExpiries.formUnion(expiryByFaultID.removeValue(forKey: id) ?? [])
        actions.append(.note(FaultNote(faultId: id, kind: "disarm", detail: "\(id) disarmed from the control API")))
        return actions
    }

    /// Fault-stage output as actions (emissions, then notes).
    mutating func emissions(_ output: FaultStageOutput) -> [ScenarioAction] {
        noteServerOutput(output)
        var actions = output.emissions.map(ScenarioAction.emit)
        actions += output.notes.map(ScenarioAction.note)
        if output.emissions.contains(where: {
            if case .transport(let action, _) = $0 { action.endsConnection } else { false }
        }) {
            hasEnded = true
        }
        return actions
    }

    /// Recorded frames due after the given client frame (0: session start), at their delays.
    func replayActions(afterClientFrame index: Int, at time: Int64) -> [ScenarioAction] {
        (replaySteps[index] ?? []).map { .send($0.frame, atMicros: time + $0.delayMicros) }
    }
}
