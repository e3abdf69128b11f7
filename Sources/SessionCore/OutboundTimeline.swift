package import AnswerAudio

/// What a timeline step may wait for before it can run: answer audio still being rendered.
package protocol TimelineAction: Sendable {
    /// The answer audio this step needs, when it needs any (the timeline waits at this step
    /// until the audio is rendered).
    var awaitedAudio: AnswerAudioHandle? { get }
}

/// The outbound schedule both engines share: every frame an engine plans for later, in due
/// order, grouped by the round or response it belongs to, and the send lane that keeps frames
/// in order.
///
/// Nothing is handed to the driver before it is due: the engine runs one timer (``timer``) at
/// the earliest step and runs steps as they come due (``next(now:)``), so an interrupt, a
/// cancel or a Stop drops the rest of a round or response exactly — no frame planned for it
/// can leak out afterwards.
package struct OutboundTimeline<Action: TimelineAction>: Sendable {
    /// One scheduled step.
    package struct Step: Sendable {
        /// When it is due, in microseconds on the session clock (steps due at the same time run
        /// in the order they were added).
        package var dueAt: Int64
        /// The round or response it belongs to, for dropping; nil for session-level steps.
        package var group: Int?
        /// What to do.
        package var action: Action

        @usableFromInline init(dueAt: Int64, group: Int?, action: Action) {
            self.dueAt = dueAt
            self.group = group
            self.action = action
        }
    }

    /// What the engine does next: run a due step, or wait for a step's audio.
    package enum Next: Sendable {
        case run(Step)
        /// The earliest due step needs this audio: ask the driver to fire the timer when it is
        /// rendered (``awaitAudio(_:)``); the step stays first.
        case awaitAudio(AnswerAudioHandle)
    }

    /// The engine timer that fires when the earliest step comes due.
    package let timer: SessionTimer
    /// The steps in due order from `head` on; those before `head` ran and are cut off in bulk, so
    /// running a step and planning a response's steps (already in order) cost O(1) each.
    @usableFromInline var steps: [Step] = []
    @usableFromInline var head = 0
    /// The time the engine timer is set for (nil: not set).
    @usableFromInline var timerAt: Int64?
    /// The send lane: the time of the latest frame planned on it. Frames planned with
    /// ``lane(_:)`` never go out before an earlier one.
    package var laneTime: Int64 { lanePlanned }
    @usableFromInline var lanePlanned: Int64 = 0

    /// A timeline driven by the engine timer `timerName`.
    @inlinable
    package init(timer timerName: String) {
        timer = .engine(timerName)
    }

    /// Adds a step due at `dueAt`.
    @inlinable
    package mutating func add(_ action: Action, at dueAt: Int64, group: Int? = nil) {
        let step = Step(dueAt: dueAt, group: group, action: action)
        guard let last = steps.last, last.dueAt > dueAt else {
            steps.append(step)
            return
        }
        // After every step due at or before `dueAt` (insertion order breaks ties).
        var low = head
        var high = steps.count
        while low < high {
            let middle = (low + high) / 2
            if steps[middle].dueAt <= dueAt { low = middle + 1 } else { high = middle }
        }
        steps.insert(step, at: low)
    }

    /// A time on the send lane: `time`, or the latest time planned so far if that is later.
    @inlinable
    package mutating func lane(_ time: Int64) -> Int64 {
        lanePlanned = max(lanePlanned, time)
        return lanePlanned
    }

    /// Restarts the lane at `time` (session open; an interrupt that drops what was planned).
    @inlinable
    package mutating func resetLane(to time: Int64) {
        lanePlanned = time
    }

    /// The next thing to do at `now`: the earliest due step (removed), a wait for its audio
    /// (the step stays), or nil when nothing is due.
    @inlinable
    package mutating func next(now: Int64) -> Next? {
        guard head < steps.count, steps[head].dueAt <= now else { return nil }
        let first = steps[head]
        if let audio = first.action.awaitedAudio, audio.rendered == nil { return .awaitAudio(audio) }
        head += 1
        if head == steps.count {
            // Its buffer goes too: a planned answer's steps take kilobytes, and a session spends
            // most of its time between answers (one allocation per answer is cheap).
            steps = []
            head = 0
        } else if head >= 64, head * 2 >= steps.count {
            steps.removeFirst(head)
            head = 0
        }
        return .run(first)
    }

    /// The commands that wait for `audio` and then fire the timer (no timer meanwhile).
    @inlinable
    package mutating func awaitAudio(_ audio: AnswerAudioHandle) -> [SessionCommand] {
        timerAt = nextDue
        return [.cancelTimer(timer), .awaitAudio(audio, then: timer)]
    }

    /// The timer fired: it is no longer set.
    @inlinable
    package mutating func timerFired() {
        timerAt = nil
    }

    /// The commands that move the engine timer to the earliest pending step (or cancel it).
    @inlinable
    package mutating func retime() -> [SessionCommand] {
        let next = nextDue
        guard next != timerAt else { return [] }
        timerAt = next
        if let next { return [.scheduleTimer(timer, atMicros: next)] }
        return [.cancelTimer(timer)]
    }

    /// Drops every pending step of `group`; returns the dropped steps.
    @discardableResult
    @inlinable
    package mutating func drop(group: Int) -> [Step] {
        // One pass in place: the kept steps move down over the ran and dropped ones.
        var dropped: [Step] = []
        var kept = 0
        for index in head..<steps.count {
            if steps[index].group == group {
                dropped.append(steps[index])
            } else {
                if kept != index { steps.swapAt(kept, index) }
                kept += 1
            }
        }
        if kept == 0 {
            steps = []  // nothing pending: the buffer goes (see `next(now:)`)
        } else {
            steps.removeSubrange(kept...)
        }
        head = 0
        return dropped
    }

    /// Drops everything.
    @inlinable
    package mutating func removeAll() {
        steps.removeAll()
        head = 0
    }

    /// When the earliest step is due, or nil when nothing is pending.
    @inlinable
    package var nextDue: Int64? { head < steps.count ? steps[head].dueAt : nil }

    /// How many pending steps of `group` satisfy `predicate`.
    @inlinable
    package func count(group: Int, where predicate: (Action) -> Bool) -> Int {
        steps[head...].reduce(0) { $0 + ($1.group == group && predicate($1.action) ? 1 : 0) }
    }
}
