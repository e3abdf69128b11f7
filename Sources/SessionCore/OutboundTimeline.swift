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
/// the earliest step and runs steps as they come due (``nextDue(now:)``), so an interrupt, a
/// cancel or a Stop drops the rest of a round or response exactly — no frame planned for it
/// can leak out afterwards.
package struct OutboundTimeline<Action: TimelineAction>: Sendable {
    /// One scheduled step.
    package struct Step: Sendable {
        /// When it is due, in microseconds on the session clock.
        package var dueAt: Int64
        /// Insertion order (ties at the same time keep it).
        package var order: Int
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
    package private(set) var steps: [Step] = []
    private var nextOrder = 0
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
        let step = Step(dueAt: dueAt, order: nextOrder, group: group, action: action)
        nextOrder += 1
        let index = steps.firstIndex { ($0.dueAt, $0.order) > (dueAt, step.order) } ?? steps.count
        steps.insert(step, at: index)
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
        guard let first = steps.first, first.dueAt <= now else { return nil }
        if let audio = first.action.awaitedAudio, audio.rendered == nil { return .awaitAudio(audio) }
        return .run(steps.removeFirst())
    }

    /// The commands that wait for `audio` and then fire the timer (no timer meanwhile).
    package mutating func awaitAudio(_ audio: AnswerAudioHandle) -> [SessionCommand] {
        timerAt = steps.first?.dueAt
        return [.cancelTimer(timer), .awaitAudio(audio, then: timer)]
    }

    /// The timer fired: it is no longer set.
    package mutating func timerFired() {
        timerAt = nil
    }

    /// The commands that move the engine timer to the earliest pending step (or cancel it).
    package mutating func retime() -> [SessionCommand] {
        let next = steps.first?.dueAt
        guard next != timerAt else { return [] }
        timerAt = next
        if let next { return [.scheduleTimer(timer, atMicros: next)] }
        return [.cancelTimer(timer)]
    }

    /// Drops every pending step of `group`; returns the dropped steps.
    @discardableResult
    package mutating func drop(group: Int) -> [Step] {
        let dropped = steps.filter { $0.group == group }
        steps.removeAll { $0.group == group }
        return dropped
    }

    /// Drops everything.
    package mutating func removeAll() {
        steps.removeAll()
    }

    /// When the earliest step is due, or nil when nothing is pending.
    package var nextDue: Int64? { steps.first?.dueAt }

    /// How many pending steps of `group` satisfy `predicate`.
    package func count(group: Int, where predicate: (Action) -> Bool) -> Int {
        steps.reduce(0) { $0 + ($1.group == group && predicate($1.action) ? 1 : 0) }
    }
}
