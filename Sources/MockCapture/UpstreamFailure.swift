import MockSessions
import ProtocolModel
import WireJSON
package import WireSocket

/// Why a proxied session's upstream connection did not open: a refused upgrade (its HTTP
/// status) or a connect that failed (TLS, DNS, TCP).
package struct UpstreamFailure {
    package let error: WebSocketError
    package let status: Int?

    package var summary: String {
        status.map { "refused the upgrade: HTTP \($0)" } ?? "connection failed: \(error.message)"
    }
    /// The error code the client reads.
    package var code: String { status == nil ? "UpstreamUnavailable" : "UpstreamRefused" }
    package var message: String { "proxy: upstream \(summary)" }
}

extension ProxySession {
    /// Delay after which a multimodal client that sent no `run-task` yet is told without its task id.
    package static let taskIDWaitMicros: Int64 = 1_000_000

    /// Tells the client the upstream failed, in its protocol (``ProtocolDescriptor/errorFrame(code:message:taskID:)``:
    /// Qwen `error`; multimodal `task-failed` under the client's task id, waiting up to a second
    /// for its `run-task`), then closes with 1011.
    package func fail(_ failure: UpstreamFailure, withoutTaskID: Bool = false) {
        guard let downstream, downstream.isOpen else { return }
        var taskID: String?
        if descriptor.errorFrameNeedsTaskID {
            taskID =
                waitingForUpstream.lazy.compactMap { message -> String? in
                    guard message.isText else { return nil }
                    return DashScopeEnvelope.taskID(of: try? JSONValue.decode(message.bytes))
                }.first
            guard taskID != nil || withoutTaskID else {
                if pendingFailure == nil {
                    pendingFailure = failure
                    downstream.schedule(afterMicros: Self.taskIDWaitMicros) { [weak self] in
                        guard let self, let failure = pendingFailure else { return }
                        fail(failure, withoutTaskID: true)
                    }
                }
                return
            }
        }
        let frame = descriptor.errorFrame(code: failure.code, message: failure.message, taskID: taskID)
        pendingFailure = nil
        let bytes = frame.encoded()
        let now = MonotonicClock.nowMicros()
        let t = journal.elapsed(atMicros: now)
        journal.record(
            .textFrame(
                t: t, .out, json: frame, eventType: descriptor.serverMessageName(of: frame), byteLength: bytes.count))
        downstream.send(.text(bytes))
        let reason = String(decoding: Array(failure.summary.utf8.prefix(120)), as: UTF8.self)
        journal.recordClose(.out, atMicros: now, code: 1011, reason: reason)
        downstream.close(code: CloseCode(1011), reason: reason)
    }
}
