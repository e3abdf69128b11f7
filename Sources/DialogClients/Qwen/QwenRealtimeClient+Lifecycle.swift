import Synchronization
import WireJSON
import WireSocket

extension QwenRealtimeClient {
    /// Ends the session gracefully: waits (≤ `finishTimeoutMillis`) until no response is
    /// requested, running or due for a user turn, then — omni — `session.finish` and waits for
    /// `session.finished` (C18), and closes. The audio profile has no finish event (C17).
    public func finish() async {
        let deadline = Clock.nowMicros() + Int64(options.finishTimeoutMillis) * 1_000
        while Clock.nowMicros() < deadline, state.withLock({ $0.isBusy && $0.phase == .ready && !$0.finishSent }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if profile == .omni, state.withLock({ $0.phase == .ready && !$0.finishSent }) {
            let timeout = options.finishTimeoutMillis
            let finished = await withTaskGroup(of: Bool.self) { group in
                group.addTask { [self] in
                    _ = await awaitReply("session.finished") { [self] s in sendNow(&s, ["type": "session.finish"]) }
                    return true
                }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(timeout))
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            _ = finished
        }
        await close()
    }

    /// Closes the socket (no further events) and waits for the close to complete.
    public func close() async {
        let connection = state.withLock { s in
            s.finishSent = true
            return s.connection
        }
        connection?.close(code: .normal, reason: "bye")
        let deadline = Clock.nowMicros() + 2_000_000
        while Clock.nowMicros() < deadline, state.withLock({ $0.phase != .closed }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        await queue.drain()
    }

    /// Whether the connection is closed.
    public var isClosed: Bool { state.withLock { $0.phase == .closed } }

    /// Whether the session is over: closed, or ended by a fatal `server_error` (C19).
    public var isTerminated: Bool { state.withLock { $0.terminated || $0.phase == .closed } }

    /// Waits until no response is requested or running (e.g. before judging a flow).
    public func waitUntilIdle(timeoutMillis: Int) async -> Bool {
        let deadline = Clock.nowMicros() + Int64(timeoutMillis) * 1_000
        while Clock.nowMicros() < deadline {
            if state.withLock({ !$0.isBusy }) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
