import ProtocolModel

/// The outbound fault pipeline of one session: a pure value that takes the frames the
/// protocol engine wants to send, in order, and returns what to actually send and when,
/// plus socket actions and journal notes.
///
/// Guarantees: output frames are in send order with non-decreasing times (a delayed frame
/// holds back the frames after it, as on a real TCP stream); a frame is lost only by a
/// `drop` fault; frames held by `reorder` are released when the window fills, when its hold
/// time passes (``tick(nowMicros:)``), before a close, or on ``flush(atMicros:)``.
package struct FaultStage: Sendable {
    /// A fault that is armed, with its counters.
    struct ArmedFault: Sendable {
        var spec: FaultSpec
        var matchesSeen = 0
        var applications = 0
        var window: ReorderWindow?
    }

    var armed: [ArmedFault] = []
    var random: SeededRandom
    /// No frame goes out earlier than this (the previous frame's send time).
    var floorMicros: Int64 = .min
    /// Set once a fault closed the connection; later frames are discarded with a note.
    var connectionEnded = false

    /// Creates a stage with the scenario's initially armed faults.
    package init(faults: [FaultSpec] = [], seed: UInt64) {
        random = SeededRandom.stream(StreamNumber.faults, seed: seed)
        for fault in faults where fault.armed && fault.actsOnFrames {
            armed.append(ArmedFault(spec: fault))
        }
    }

    /// The ids or kinds of the faults currently armed, for diagnostics.
    package var armedFaults: [FaultSpec] { armed.map(\.spec) }

    /// Arms `fault`. Frame faults and matched faults wait for frames; an unmatched transport
    /// fault or request happens now and is returned.
    package mutating func arm(_ fault: FaultSpec, atMicros now: Int64) -> FaultStageOutput {
        if fault.actsOnFrames {
            armed.append(ArmedFault(spec: fault))
            return FaultStageOutput()
        }
        var output = FaultStageOutput()
        guard fault.probability >= 1 || random.chance(fault.probability) else { return output }
        applyEffect(of: fault, at: max(now, floorMicros), detail: "armed", into: &output)
        return output
    }

    /// Disarms every fault with this id, releasing frames it holds.
    package mutating func disarm(id: String, atMicros now: Int64) -> FaultStageOutput {
        var output = FaultStageOutput()
        for index in armed.indices where armed[index].spec.id == id {
            releaseWindow(of: index, at: now, reason: "disarmed", into: &output)
        }
        armed.removeAll { $0.spec.id == id }
        return output
    }

    /// Passes one outbound frame through the armed faults.
    package mutating func process(_ frame: OutboundFrame) -> FaultStageOutput {
        var output = FaultStageOutput()
        if connectionEnded {
            output.notes.append(
                FaultNote(
                    faultId: nil, kind: "closed",
                    detail: "discarded \(describe(frame)) after the connection was closed by a fault"))
            return output
        }
        var work = FrameInProgress(frame: frame)
        for index in armed.indices where isCandidate(index, frame) {
            apply(index, to: &work, into: &output)
            if work.dropped || work.heldBy != nil { break }
        }
        if !work.dropped, work.heldBy == nil {
            emit(work, into: &output)
        }
        for (fault, time) in work.effectsAfter {
            applyEffect(of: fault, at: max(time, floorMicros), detail: "after \(describe(frame))", into: &output)
        }
        armed.removeAll { $0.window == nil && $0.spec.limit.isExhausted(after: $0.applications) }
        return output
    }

    /// The earliest time a held reorder window must be released, if any is held.
    package var nextDeadlineMicros: Int64? {
        armed.compactMap { $0.window?.deadlineMicros }.min()
    }

    /// Releases reorder windows whose hold time has passed by `nowMicros`.
    package mutating func tick(nowMicros: Int64) -> FaultStageOutput {
        var output = FaultStageOutput()
        for index in armed.indices {
            if let deadline = armed[index].window?.deadlineMicros, deadline <= nowMicros {
                releaseWindow(of: index, at: nowMicros, reason: "hold time elapsed", into: &output)
            }
        }
        armed.removeAll { $0.window == nil && $0.spec.limit.isExhausted(after: $0.applications) }
        return output
    }

    /// Releases every held frame now (call before the session closes for any reason).
    package mutating func flush(atMicros now: Int64) -> FaultStageOutput {
        var output = FaultStageOutput()
        for index in armed.indices {
            releaseWindow(of: index, at: now, reason: "flushed", into: &output)
        }
        return output
    }

    /// Whether armed fault `index` applies to `frame`; counts matches and honours `skip`.
    private mutating func isCandidate(_ index: Int, _ frame: OutboundFrame) -> Bool {
        let spec = armed[index].spec
        let matcher = spec.match ?? .any
        guard matcher.matches(eventType: frame.eventType, isText: frame.isText, json: frame.json) else { return false }
        switch spec.kind {
        case .truncateJSON, .malformedJSON: guard frame.isText else { return false }
        default: break
        }
        if armed[index].window != nil { return true }  // an open reorder window takes every match
        armed[index].matchesSeen += 1
        guard armed[index].matchesSeen > spec.skip else { return false }
        guard !spec.limit.isExhausted(after: armed[index].applications) else { return false }
        return spec.probability >= 1 || random.chance(spec.probability)
    }

    /// Appends the frame (and its duplicates) to the output at its send time.
    mutating func emit(_ work: FrameInProgress, into output: inout FaultStageOutput) {
        let sendAt = max(work.frame.dueAtMicros + work.extraDelayMicros, floorMicros)
        floorMicros = sendAt
        let unchanged = work.bytes == work.frame.bytes
        let scheduled = ScheduledFrame(
            eventType: work.frame.eventType, isText: work.frame.isText, bytes: work.bytes,
            sendAtMicros: sendAt, fragmentBytes: work.fragmentBytes,
            json: work.frame.isText && unchanged ? work.frame.json : nil,
            audioLevel: unchanged ? work.frame.audioLevel : nil)
        for _ in 0...work.copies {
            output.emissions.append(.frame(scheduled))
        }
    }

    func describe(_ frame: OutboundFrame) -> String {
        "\(frame.eventType ?? (frame.isText ? "text frame" : "binary frame")) (\(frame.bytes.count) bytes)"
    }
}

/// A frame while faults are applied to it.
struct FrameInProgress: Sendable {
    var frame: OutboundFrame
    var bytes: [UInt8]
    var extraDelayMicros: Int64 = 0
    var copies = 0
    var fragmentBytes: Int?
    var dropped = false
    var heldBy: Int?
    var effectsAfter: [(FaultSpec, Int64)] = []

    init(frame: OutboundFrame) {
        self.frame = frame
        bytes = frame.bytes
    }
}
