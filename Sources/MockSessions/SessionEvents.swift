import Synchronization
package import WireJSON

/// What the dashboard's live feed (`/_mock/ui/live`) is told as it happens: a session opened or
/// closed, a violation or a fault journaled, the armed faults or refusals changed. Each event is
/// one small JSON object, built only while someone watches: with no subscriber, posting is one
/// atomic load. Subscribers are called on the posting thread (a service thread) and must only
/// hand the text on (the feed queues it on its own connection's service thread).
package final class SessionEvents: Sendable {
    package typealias Subscriber = @Sendable (String) -> Void

    private let watchers = Atomic<Int>(0)
    private let subscribers = Mutex<(next: Int, all: [Int: Subscriber])>((1, [:]))

    package init() {}

    /// Whether anyone is subscribed (a relaxed load: an event posted while the first subscriber
    /// arrives may be missed, which the dashboard's initial fetch covers).
    package var isWatched: Bool { watchers.load(ordering: .relaxed) > 0 }

    /// Subscribes; returns the id ``unsubscribe(_:)`` takes.
    package func subscribe(_ subscriber: @escaping Subscriber) -> Int {
        let id = subscribers.withLock { state in
            defer { state.next += 1 }
            state.all[state.next] = subscriber
            return state.next
        }
        watchers.add(1, ordering: .relaxed)
        return id
    }

    package func unsubscribe(_ id: Int) {
        let removed = subscribers.withLock { $0.all.removeValue(forKey: id) != nil }
        if removed { watchers.subtract(1, ordering: .relaxed) }
    }

    /// Posts an event of `type` with `fields`, built only when someone watches.
    package func post(_ type: String, _ fields: @autoclosure () -> JSONObject = [:]) {
        guard isWatched else { return }
        var object = fields()
        object["type"] = .string(type)
        let text = String(decoding: JSONValue.object(object).encoded(), as: UTF8.self)
        let all = subscribers.withLock { Array($0.all.values) }
        for subscriber in all { subscriber(text) }
    }
}
