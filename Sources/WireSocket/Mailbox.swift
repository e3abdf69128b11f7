import Synchronization

/// A single-consumer queue whose `take` waits asynchronously, with a timeout.
final class Mailbox<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var head = 0
        var waiter: (token: UInt64, continuation: CheckedContinuation<Item?, Never>)?
        var nextToken: UInt64 = 1
    }

    private let state = Mutex(State())

    func put(_ item: Item) {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.items.append(item)
            return nil
        }
        waiter?.resume(returning: item)
    }

    /// The next item, or nil when none arrives within `timeoutMillis`.
    func take(timeoutMillis: Int) async -> Item? {
        if let item = state.withLock({ Self.pop(&$0) }) { return item }
        return await withCheckedContinuation { continuation in
            let outcome = state.withLock { state -> (Item?, UInt64?) in
                if let item = Self.pop(&state) { return (item, nil) }
                let token = state.nextToken
                state.nextToken += 1
                state.waiter = (token, continuation)
                return (nil, token)
            }
            if let item = outcome.0 {
                continuation.resume(returning: item)
                return
            }
            guard let token = outcome.1 else { return }
            Task { [self] in
                try? await Task.sleep(for: .milliseconds(timeoutMillis))
                let expired = state.withLock { state -> CheckedContinuation<Item?, Never>? in
                    guard let waiter = state.waiter, waiter.token == token else { return nil }
                    state.waiter = nil
                    return waiter.continuation
                }
                expired?.resume(returning: nil)
            }
        }
    }

    /// Items already queued, without waiting.
    func drain() -> [Item] {
        state.withLock { state in
            defer {
                state.items.removeAll()
                state.head = 0
            }
            return Array(state.items[state.head...])
        }
    }

    private static func pop(_ state: inout State) -> Item? {
        guard state.head < state.items.count else { return nil }
        let item = state.items[state.head]
        state.head += 1
        if state.head > 256 && state.head * 2 > state.items.count {
            state.items.removeFirst(state.head)
            state.head = 0
        }
        return item
    }
}
