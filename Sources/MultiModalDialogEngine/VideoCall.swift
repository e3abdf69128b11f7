/// The LiveAI video call (S13, C15): on from the connect round's return to Listening until the
/// call ends, with the time of the last video frame for its pace.
struct VideoCall {
    /// Video frames are expected now.
    private(set) var isOn = false
    /// A call was on at some point: frames after it ended break C15, while images with no call at
    /// all are pictures for the agent.
    private(set) var hadCall = false
    private var lastFrameAt: Int64?

    /// A round that connects (`true`) or ends (`false`) the call returned to Listening.
    mutating func switchTo(_ on: Bool) {
        isOn = on
        if on { hadCall = true }
        lastFrameAt = nil
    }

    /// The client asked to exit the call: no frames from now on.
    mutating func exit() {
        isOn = false
        lastFrameAt = nil
    }

    /// A video frame arrived at `time`: the gap since the previous one in ms (nil for the first).
    mutating func frameArrived(at time: Int64) -> Int64? {
        defer { lastFrameAt = time }
        return lastFrameAt.map { (time - $0) / 1000 }
    }
}
