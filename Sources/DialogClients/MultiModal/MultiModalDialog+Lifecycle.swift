import ProtocolModel
import Synchronization
import WireSocket

extension MultiModalDialog {
    /// Ends the dialog: `Stop` with `finish-task` (C22), then waits for `Stopped` and the
    /// server's close (closing itself after `options.stopTimeoutMillis`). Nothing is sent after.
    public func stop() async {
        let connection: ClientConnection? = state.withLock { s in
            guard let connection = s.connection, !s.finishSent, s.phase == .started || s.phase == .awaitingStarted
            else {
                return s.phase == .closed ? nil : s.connection
            }
            sendDirective(&s, .stop)
            s.finishSent = true
            s.pending = []
            return connection
        }
        guard let connection else { return }
        if await !waitUntilClosed(timeoutMillis: options.stopTimeoutMillis) {
            connection.close(code: .normal, reason: "stop")
            _ = await waitUntilClosed(timeoutMillis: 2_000)
        }
    }

    /// Closes the socket without `Stop` (an abandoned session).
    public func close() async {
        let connection = state.withLock { s in
            s.finishSent = true
            return s.connection
        }
        connection?.close(code: .normal, reason: "close")
        _ = await waitUntilClosed(timeoutMillis: 2_000)
    }

    /// Waits until the connection is closed. - Returns: false on timeout.
    public func waitUntilClosed(timeoutMillis: Int) async -> Bool {
        let deadline = Clock.nowMicros() + Int64(timeoutMillis) * 1_000
        while Clock.nowMicros() < deadline {
            if state.withLock({ $0.phase == .closed }) {
                await queue.drain()
                return true
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return state.withLock { $0.phase == .closed }
    }

    /// The 100 ms ticker: HeartBeat when the server is quiet (C21) and silence frames against
    /// the 20 s audio-gap rules (C11, C12).
    func runBackgroundTicker() {
        Task { [weak self] in
            while let self, self.tick() {
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// One tick. - Returns: false once the session is over.
    private func tick() -> Bool {
        state.withLock { s in
            guard s.phase != .closed, !s.finishSent else { return false }
            guard s.phase == .started else { return true }
            let now = Clock.nowMicros()
            let period = options.heartbeatPeriodMicros
            if !s.faults.disableHeartbeat, now - max(s.lastReceivedAt, s.lastHeartbeatAt) >= period,
                now - s.lastHeartbeatAt >= 5_000_000
            {
                sendDirective(&s, .heartBeat)
            }
            if options.keepAudioFlowing, s.upstreamFormat == "pcm", s.wantsContinuousAudio,
                now - s.lastAudioAt >= 200_000
            {
                sendBinary(&s, [UInt8](repeating: 0, count: s.upstreamRate / 5))
                // Keep the 100 ms cadence once silence flows.
                s.lastAudioAt = now - 100_000
            }
            return true
        }
    }
}
