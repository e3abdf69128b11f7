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
    private var steps: [Step] = []
    private var head = 0
    /// The time the engine timer is set for (nil: not set).
    private var timerAt: Int64?
    /// The send lane: the time of the latest frame planned on it. Frames planned with
    /// ``lane(_:)`` never go out before an earlier one.
    package private(set) var laneTime: Int64 = 0

    /// A timeline driven by the engine timer `timerName`.
    package init(timer timerName: String) {
        timer = .engine(timerName)
    }

    /// Adds a step due at `dueAt`.
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
    package mutating func lane(_ time: Int64) -> Int64 {
        laneTime = max(laneTime, time)
        return laneTime
    }

    /// Restarts the lane at `time` (session open; an interrupt that drops what was planned).
    package mutating func resetLane(to time: Int64) {
        laneTime = time
    }

    /// The next thing to do at `now`: the earliest due step (removed), a wait for its audio
    /// (the step stays), or nil when nothing is due.
    package mutating func next(now: Int64) -> Next? {
        guard head < steps.count, steps[head].dueAt <= now else { return nil }
        let first = steps[head]
        if let audio = first.action.awaitedAudio, audio.rendered == nil { return .awaitAudio(audio) }
        head += 1
        if head == steps.count {
            steps.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= steps.count {
            steps.removeFirst(head)
            head = 0
        }
        return .run(first)
    }

    /// The commands that wait for `audio` and then fire the timer (no timer meanwhile).
    package mutating func awaitAudio(_ audio: AnswerAudioHandle) -> [SessionCommand] {
        timerAt = nextDue
        return [.cancelTimer(timer), .awaitAudio(audio, then: timer)]
    }

    /// The timer fired: it is no longer set.
    package mutating func timerFired() {
        timerAt = nil
    }

    /// The commands that move the engine timer to the earliest pending step (or cancel it).
    package mutating func retime() -> [SessionCommand] {
        let next = nextDue
        guard next != timerAt else { return [] }
        timerAt = next
        if let next { return [.scheduleTimer(timer, atMicros: next)] }
        return [.cancelTimer(timer)]
    }

    /// Drops every pending step of `group`; returns the dropped steps.
    @discardableResult
    package mutating func drop(group: Int) -> [Step] {
        let pending = steps[head...]
        let dropped = pending.filter { $0.group == group }
        steps = pending.filter { $0.group != group }
        head = 0
        return dropped
    }

    /// Drops everything.
    package mutating func removeAll() {
        steps.removeAll()
        head = 0
    }

    /// When the earliest step is due, or nil when nothing is pending.
    package var nextDue: Int64? { head < steps.count ? steps[head].dueAt : nil }

    /// How many pending steps of `group` satisfy `predicate`.
    package func count(group: Int, where predicate: (Action) -> Bool) -> Int {
        steps[head...].reduce(0) { $0 + ($1.group == group && predicate($1.action) ? 1 : 0) }
    }
}
