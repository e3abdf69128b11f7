import ProtocolModel
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
        if profile.finishesWithSessionFinish, state.withLock({ $0.phase == .ready && !$0.finishSent }) {
            let timeout = options.finishTimeoutMillis
            let finished = await withTaskGroup(of: Bool.self) { group in
                group.addTask { [self] in
                    _ = await awaitReply(.sessionFinished) { [self] s in
                        sendNow(&s, QwenClientEvent.sessionFinish.object())
                    }
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
            if finished {
                // The service closes right after session.finished: let it, rather than race its
                // close frame with ours (a crossing close can end as 1006 instead of 1000).
                let closeBy = Clock.nowMicros() + Int64(Self.serverCloseGraceMillis) * 1_000
                while Clock.nowMicros() < closeBy, state.withLock({ $0.phase != .closed }) {
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
        }
        await close()
    }

    /// How long `finish()` lets the server close after `session.finished` before closing itself.
    static let serverCloseGraceMillis = 1_000

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
