import MockSessions
import WireSocket

/// `/_mock/ui/live`: the dashboard's live feed. Each event ``SessionEvents`` posts (on the
/// thread that caused it) is queued on this connection's own service thread and sent as a text
/// message; the feed sends nothing of its own but a first `{"type":"hello"}`, and reads nothing.
/// A dashboard that stops reading is closed (1008) once `maxQueuedBytes` pile up; it reconnects.
final class DashboardFeed: ConnectionHandler {
    let events: SessionEvents
    let maxQueuedBytes: Int
    private var subscription: Int?

    init(events: SessionEvents, maxQueuedBytes: Int = 1 << 20) {
        self.events = events
        self.maxQueuedBytes = maxQueuedBytes
    }

    func connectionOpened(_ connection: Connection) {
        let serviceThread = connection.serviceThread
        let target = ServiceThreadBound<() -> Connection?>({ [weak connection] in connection })
        let limit = maxQueuedBytes
        subscription = events.subscribe { text in
            serviceThread.execute {
                guard let connection = target.value() else { return }
                guard connection.queuedBytes < limit else {
                    return connection.closeDroppingQueue(
                        code: .policyViolation, reason: "the dashboard feed is not read; reconnect")
                }
                connection.send(.text(Array(text.utf8)))
            }
        }
        connection.send(.text(Array(#"{"type":"hello"}"#.utf8)))
    }

    func connection(_ connection: Connection, received message: WebSocketMessage) {}

    func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String) {
        if let subscription { events.unsubscribe(subscription) }
        subscription = nil
    }
}
