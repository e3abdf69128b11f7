import ProtocolModel

/// Frames held by one `reorder` fault until its window fills or its hold time passes.
struct ReorderWindow: Sendable {
    /// How many frames make a full window.
    let size: Int
    /// When the held frames must go out even if the window is not full.
    let deadlineMicros: Int64
    /// The held frames in arrival order.
    var frames: [FrameInProgress] = []
}

extension FaultStage {
    /// Sends the frames held by fault `index` in a permuted order (a seeded shuffle that is
    /// never the identity for two or more frames), no earlier than `time`.
    mutating func releaseWindow(of index: Int, at time: Int64, reason: String, into output: inout FaultStageOutput) {
        guard let window = armed[index].window else { return }
        armed[index].window = nil
        let order = Self.permutation(count: window.frames.count, using: &random)
        let spec = armed[index].spec
        output.notes.append(
            FaultNote(
                faultId: spec.id, kind: spec.kindName.rawValue,
                detail:
                    "released \(window.frames.count) held frames (\(reason)) in order \(order.map(String.init).joined(separator: ","))"
            ))
        for position in order {
            var work = window.frames[position]
            work.frame.dueAtMicros = max(work.frame.dueAtMicros, time)
            emit(work, into: &output)
        }
    }

    /// A seeded Fisher–Yates shuffle of `0..<count`; an identity result is rotated by one so
    /// that a reorder fault always reorders.
    static func permutation(count: Int, using random: inout SeededRandom) -> [Int] {
        var order = Array(0..<count)
        guard count > 1 else { return order }
        for i in stride(from: count - 1, to: 0, by: -1) {
            order.swapAt(i, random.nextInt(below: i + 1))
        }
        if order == Array(0..<count) {
            order.append(order.removeFirst())
        }
        return order
    }
}
