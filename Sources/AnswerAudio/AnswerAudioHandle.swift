import Synchronization

/// One answer's audio as a session holds it: ready at once (a cache hit), or ready later when a
/// worker has rendered it. Shared by every session that sends the same answer.
package final class AnswerAudioHandle: Sendable, Hashable {
    private enum State {
        case pending([@Sendable () -> Void])
        case ready(RenderedAnswer)
    }

    package let key: AnswerAudioKey
    private let state: Mutex<State>

    init(key: AnswerAudioKey) {
        self.key = key
        state = Mutex(.pending([]))
    }

    /// The audio, or nil while it is still being rendered.
    package var rendered: RenderedAnswer? {
        state.withLock { if case .ready(let answer) = $0 { answer } else { nil } }
    }

    /// Calls `action` once the audio is ready: at once (on this thread) if it is, else on the
    /// worker thread that finishes it.
    package func whenReady(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard case .pending(var waiters) = state else { return true }
            waiters.append(action)
            state = .pending(waiters)
            return false
        }
        if runNow { action() }
    }

    func fulfil(_ answer: RenderedAnswer) {
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            guard case .pending(let waiters) = state else { return [] }
            state = .ready(answer)
            return waiters
        }
        for waiter in waiters { waiter() }
    }

    package static func == (lhs: AnswerAudioHandle, rhs: AnswerAudioHandle) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
