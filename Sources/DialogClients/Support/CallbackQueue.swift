/// Runs callbacks one at a time, in the order they were enqueued, on one task: the serial
/// context on which both clients deliver their callbacks.
final class CallbackQueue: Sendable {
    private let continuation: AsyncStream<@Sendable () -> Void>.Continuation
    private let worker: Task<Void, Never>

    init() {
        let (stream, continuation) = AsyncStream<@Sendable () -> Void>.makeStream()
        self.continuation = continuation
        worker = Task {
            for await work in stream { work() }
        }
    }

    deinit { continuation.finish() }

    /// Queues `work` behind every callback queued before it.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        continuation.yield(work)
    }

    /// Queues `body` with `callbacks` as they are now (a client's callbacks may be replaced later).
    func enqueue<Callbacks: Sendable>(
        _ callbacks: Callbacks, _ body: @escaping @Sendable (Callbacks) -> Void
    ) {
        continuation.yield { body(callbacks) }
    }

    /// Returns once every callback queued so far has run.
    func drain() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            continuation.yield { done.resume() }
        }
    }
}
