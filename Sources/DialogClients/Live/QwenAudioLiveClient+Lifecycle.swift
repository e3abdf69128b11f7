import ProtocolModel
import Synchronization
import WireJSON
import WireSocket

extension QwenAudioLiveClient {
    /// Ends the session the documented way (qal.C10): `session.close`, then waits (≤
    /// `closeTimeoutMillis`) for `session.closed`, lets the server close the socket, and closes
    /// it if the server did not.
    public func close() async {
        let open = state.withLock { $0.phase == .ready && !$0.closeSent && !$0.sessionClosed }
        if open {
            _ = await awaitReply(.sessionClosed, eventID: nil, timeoutMillis: options.closeTimeoutMillis) { [self] s in
                sendNow(&s, QwenAudioLiveClientEvent.sessionClose.object())
                if s.faults.eventRightAfterSessionClose {
                    let mute = QwenAudioLiveClientEvent.inputAudioMute.object()
                    s.connection?.send(text: JSONValue.object(Self.identified(mute)).encodedString())
                }
            }
            // The server closes right after session.closed: let it, rather than race its close
            // frame with ours (a crossing close can end as 1006 instead of 1000).
            let closeBy = Clock.nowMicros() + Int64(Self.serverCloseGraceMillis) * 1_000
            while Clock.nowMicros() < closeBy, !isClosed { try? await Task.sleep(for: .milliseconds(10)) }
        }
        await closeSocket()
    }

    /// How long `close()` lets the server close after `session.closed` before closing itself.
    static let serverCloseGraceMillis = 1_000

    /// Closes the socket (1000) without `session.close` and waits for the close to complete.
    public func closeSocket() async {
        let connection = state.withLock { s in
            s.closeSent = true
            return s.phase == .closed ? nil : s.connection
        }
        connection?.close(code: .normal, reason: "bye")
        let deadline = Clock.nowMicros() + 2_000_000
        while Clock.nowMicros() < deadline, !isClosed { try? await Task.sleep(for: .milliseconds(20)) }
        await queue.drain()
    }

    /// Whether the socket is closed.
    public var isClosed: Bool { state.withLock { $0.phase == .closed } }

    /// Whether the session is over for sending: `session.close` sent, `session.closed` received,
    /// or the socket closed.
    public var isOver: Bool { state.withLock { $0.closeSent || $0.sessionClosed || $0.phase == .closed } }

    /// How many `session.output_audio.delta` chunks arrived so far: a mark for `waitForAnswer`.
    public var audioChunksReceived: Int { state.withLock { $0.audioDeltas } }

    /// Waits for the model's answer: until audio arrived after the mark `afterAudioChunks` (an
    /// earlier `audioChunksReceived`; nil: now), then until it has played, no call or client
    /// delegation waits for an answer, and the server sent nothing for `quietMillis`.
    /// - Returns: false on timeout (or when the session ended).
    public func waitForAnswer(
        afterAudioChunks mark: Int? = nil, timeoutMillis: Int, quietMillis: Int = 1_000
    ) async
        -> Bool
    {
        let deadline = Clock.nowMicros() + Int64(timeoutMillis) * 1_000
        let before = mark ?? audioChunksReceived
        while Clock.nowMicros() < deadline {
            let now = Clock.nowMicros()
            let done = state.withLock { s -> Bool? in
                if s.sessionClosed || s.phase == .closed { return false }
                guard s.audioDeltas > before, !s.player.isPlaying, !s.hasPendingAnswers else { return nil }
                return now - s.lastOutputMicros >= Int64(quietMillis) * 1_000 ? true : nil
            }
            if let done { return done }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
