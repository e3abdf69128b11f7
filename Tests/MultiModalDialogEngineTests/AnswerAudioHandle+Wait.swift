import AnswerAudio
import Dispatch

extension AnswerAudioHandle {
    /// Blocks the test until a worker has rendered the answer (a harness stands in for the
    /// driver, which would resume the session from the service thread instead).
    func waitUntilRendered() {
        let done = DispatchSemaphore(value: 0)
        whenReady { done.signal() }
        done.wait()
    }
}
