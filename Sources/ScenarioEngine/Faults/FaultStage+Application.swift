import ProtocolModel

extension FaultStage {
    /// Applies armed fault `index` to a matching frame.
    mutating func apply(_ index: Int, to work: inout FrameInProgress, into output: inout FaultStageOutput) {
        let spec = armed[index].spec
        let what = describe(work.frame)
        func note(_ detail: String) {
            output.notes.append(FaultNote(faultId: spec.id, kind: spec.kindName.rawValue, detail: detail))
        }
        if case .reorder(let size, let holdMs) = spec.kind {
            if armed[index].window == nil {
                armed[index].applications += 1
                let deadline = work.frame.dueAtMicros + Int64((holdMs * 1000).rounded())
                armed[index].window = ReorderWindow(size: size, deadlineMicros: deadline)
            }
            armed[index].window?.frames.append(work)
            work.heldBy = index
            note("holding \(what) for reordering (\(armed[index].window?.frames.count ?? 0) of \(size))")
            if let window = armed[index].window, window.frames.count >= window.size {
                releaseWindow(of: index, at: work.frame.dueAtMicros, reason: "window full", into: &output)
            }
            return
        }
        armed[index].applications += 1
        switch spec.kind {
        case .drop:
            work.dropped = true
            note("dropped \(what)")
        case .duplicate(let copies):
            work.copies += copies
            note("sent \(what) \(copies + 1) times")
        case .delay(let ms):
            work.extraDelayMicros += Int64((ms * 1000).rounded())
            note("delayed \(what) by \(ScenarioDecodingContext.format(ms)) ms")
        case .truncateJSON(let keepFraction):
            work.bytes = JSONCorruption.truncate(work.bytes, keepFraction: keepFraction)
            note("truncated \(what) to \(work.bytes.count) bytes")
        case .malformedJSON:
            work.bytes = JSONCorruption.malform(work.bytes)
            note("made \(what) invalid JSON")
        case .fragment(let frameBytes):
            work.fragmentBytes = frameBytes
            note("fragmenting \(what) into frames of \(frameBytes) bytes")
        default:
            work.effectsAfter.append((spec, work.frame.dueAtMicros + work.extraDelayMicros))
        }
    }

    /// Performs a transport fault or request now (at `time`), with a note.
    mutating func applyEffect(of spec: FaultSpec, at time: Int64, detail: String, into output: inout FaultStageOutput) {
        var action: TransportAction?
        var request: FaultRequest?
        switch spec.kind {
        case .close(let code, let reason): action = .close(code: code, reason: reason)
        case .abruptClose: action = .abruptClose
        case .stall(let direction, let ms):
            action = .stall(direction, durationMicros: ms.map { Int64(($0 * 1000).rounded()) })
        case .slowClose(let ms): action = .slowClose(delayMicros: Int64((ms * 1000).rounded()))
        case .bandwidthCap(let rate): action = .bandwidthCap(bytesPerSecond: rate)
        case .fragment(let frameBytes): action = .fragment(frameBytes: frameBytes)
        case .unknownEvent(let eventType, let template):
            request = .unknownEvent(eventType: eventType, template: template)
        case .injectError(let error): request = .injectError(error)
        case .duplicate, .drop, .reorder, .delay, .truncateJSON, .malformedJSON, .sessionExpiry: return
        }
        if let action {
            if action.endsConnection {
                output.append(flush(atMicros: time))
                connectionEnded = true
            }
            output.emissions.append(.transport(action, atMicros: time))
            output.notes.append(
                FaultNote(faultId: spec.id, kind: spec.kindName.rawValue, detail: "\(action) \(detail)"))
        }
        if let request {
            output.emissions.append(.request(request, atMicros: time))
            output.notes.append(
                FaultNote(faultId: spec.id, kind: spec.kindName.rawValue, detail: "requested \(request) \(detail)"))
        }
    }
}
