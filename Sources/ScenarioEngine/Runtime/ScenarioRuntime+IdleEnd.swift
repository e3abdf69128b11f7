package import WireJSON

/// The idle end (AIBuds `autoEndSessionAfterNoInputDuration`, SEED-004 "Configuration": "Idle
/// duration before the session ends automatically"): the clock counts time without user
/// *input* — speech the engine's VAD detected, or a text turn — not client frames, so streamed
/// silence does not hold a session open. It is held while the user speaks and while the answer
/// is produced and played, and restarts when it is released.
extension ScenarioRuntime {
    /// The user spoke or typed: the idle-end clock restarts from now.
    package mutating func userInput() -> [ScenarioAction] {
        guard !hasEnded else { return [] }
        idle.anchorMicros = max(idle.anchorMicros, clock.nowMicros)
        return idle.held ? [] : idleTimer()
    }

    /// Holds the idle-end clock (a user turn or an answer is under way) or releases it; a
    /// release restarts the clock at `restartAt` (the end of the client's playback when the
    /// protocol tells it), now by default.
    package mutating func holdIdleEnd(_ held: Bool, restartAt: Int64? = nil) -> [ScenarioAction] {
        guard held != idle.held, !hasEnded else { return [] }
        idle.held = held
        if held { return [] }
        idle.anchorMicros = max(idle.anchorMicros, restartAt ?? clock.nowMicros, clock.nowMicros)
        return idleTimer()
    }

    /// Whether the idle-end clock is held.
    package var isIdleEndHeld: Bool { idle.held }

    /// The idle-end timer at its current deadline, when the policy is on and watched.
    func idleTimer() -> [ScenarioAction] {
        guard let deadline = idleDeadline else { return [] }
        return [.scheduleTimer(.idleEnd, atMicros: deadline)]
    }

    /// When the session ends for want of input, unless input comes or the clock is held.
    var idleDeadline: Int64? {
        guard policyWatches.contains(.idleEnd), let ms = scenario.policies.idleEndMs else { return nil }
        return idle.anchorMicros + scenario.scaledMicros(ms)
    }
}

/// The idle-end clock of one session.
struct IdleClock: Sendable {
    /// When it last restarted (session start, user input, release).
    var anchorMicros: Int64 = 0
    /// Whether a user turn or an answer holds it.
    var held = false
}

/// What a session of a profile with `sessionReport` did, for its final report (AIBuds
/// `onFinish` "Called with the final session report", SEED-004 "Declaration"). The seed names
/// the report without its fields; these are what the wire can know.
package struct SessionReport: Sendable, Hashable {
    /// User turns: speech turns the VAD closed (or push-to-talk brackets) and text turns.
    package var turns = 0
    /// Answers that went out, and how many of them were interrupted.
    package var answers = 0
    package var interruptedAnswers = 0
    /// Speech the user's turns held, and answer audio sent, in microseconds.
    package var userSpeechMicros: Int64 = 0
    package var answerAudioMicros: Int64 = 0
    /// Why the session ended (`idle`, `clientStop`, `clientClosed`, `serverError`, …); the
    /// first reason given wins.
    package var endReason: String?

    /// Records the end reason unless one is set.
    package mutating func ended(_ reason: String) {
        if endReason == nil { endReason = reason }
    }

    /// The report as JSON (`durationMs` from the session start to now).
    func json(profile: String, durationMicros: Int64) -> JSONValue {
        [
            "profile": .string(profile), "durationMs": .int(durationMicros / 1000), "turns": .int(Int64(turns)),
            "answers": .int(Int64(answers)), "interruptedAnswers": .int(Int64(interruptedAnswers)),
            "userSpeechMs": .int(userSpeechMicros / 1000), "answerAudioMs": .int(answerAudioMicros / 1000),
            "endReason": .string(endReason ?? "unknown"),
        ]
    }
}

extension ScenarioRuntime {
    /// The session's final report, once, when the scenario asks for one (`sessionReport`);
    /// `endReason` is used when none was recorded.
    package mutating func finalReport(endReason: String) -> JSONValue? {
        guard scenario.policies.sessionReport, !reportIssued, started else { return nil }
        reportIssued = true
        report.ended(endReason)
        return report.json(profile: scenario.name, durationMicros: clock.nowMicros - startMicros)
    }
}
