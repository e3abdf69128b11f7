import ProtocolModel
import Synchronization
public import WireJSON
import WireSocket

/// A Qwen realtime client (Qwen-Audio-Realtime and Qwen-Omni-Realtime over WebSocket) covering
/// what the nuisdk of SEED-003 does on the wire (qwen-realtime.md §11).
///
/// It keeps the client obligations of qwen-realtime.md §12: `session.update` first and nothing
/// else before `session.updated` (C4), whole-sample base64 audio in paced chunks (C8), commit
/// and clear only in push-to-talk and never on an empty buffer (C9, C10), one response at a
/// time (C11, C12), exactly one `function_call_output` per call followed by `response.create`
/// after `response.done` (C13), `session.finish` only on omni and nothing after it (C17, C18),
/// and stops sending after a `server_error` (C19). A built-in player model stops playback and
/// drops deltas on barge-in and cancel (C20).
public final class QwenRealtimeClient: Sendable {
    public let url: String
    public let model: String
    public let profile: QwenRealtimeProfile
    public let options: QwenRealtimeOptions
    let apiKey: String
    let state = Mutex(QwenSessionState())
    let queue = CallbackQueue()

    /// - Parameters:
    ///   - url: `ws://…/api-ws/v1/realtime`, with or without `?model=` (added when missing).
    ///   - model: the model name (`qwen3-omni-flash-realtime`, `qwen-audio-3.0-realtime-flash`, …).
    public init(url: String, apiKey: String, model: String, options: QwenRealtimeOptions = QwenRealtimeOptions()) {
        self.url = url.contains("model=") ? url : url + (url.contains("?") ? "&" : "?") + "model=\(model)"
        self.apiKey = apiKey
        self.model = model
        profile = QwenRealtimeProfile(model: model)
        self.options = options
    }

    public var callbacks: QwenRealtimeCallbacks {
        get { state.withLock { $0.callbacks } }
        set { state.withLock { $0.callbacks = newValue } }
    }

    /// Call ids of function calls not answered yet (C13).
    public var pendingCallIds: [String] { state.withLock { s in s.calls.filter { !$0.value }.map(\.key).sorted() } }

    /// The effective session of the last `session.updated` (or `session.created`).
    public var session: JSONObject { state.withLock { $0.session } }

    /// `turn_detection.type` of the session as the server confirmed it; nil for push-to-talk.
    public var turnDetection: String? { state.withLock { $0.turnDetection } }

    package var faults: QwenRealtimeFaults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// Connects, waits for `session.created`, sends `session.update` with `session` and waits for
    /// `session.updated`. - Returns: the effective session.
    /// - Throws: `QwenRealtimeError` on a refused upgrade, a rejected update, or a timeout. After a
    ///   rejected update the connection stays open: fix the values with `updateSession`.
    @discardableResult
    public func connect(session: JSONObject) async throws(QwenRealtimeError) -> JSONObject {
        let headers: [(String, String)] = state.withLock { s in
            s.phase = .connecting
            return options.headers + (s.faults.omitAuthorization ? [] : [("Authorization", "Bearer \(apiKey)")])
        }
        let socket: WebSocketClient
        let connection: ClientConnection
        do {
            (socket, connection) = try await ClientSocket.connect(url, headers: headers) { failed in
                state.withLock { s in (s.phase, s.socket) = (.closed, failed) }
            }
        } catch {
            let failure = QwenRealtimeError(type: "client_error", code: "connect_failed", message: error.message)
            emitError(failure)
            throw failure
        }
        state.withLock { s in
            s.socket = socket
            s.connection = connection
        }
        let created = await awaitReply(.sessionCreated) { [self] _ in runReceiveLoop(connection) }
        _ = try created()
        return try await updateSession(session)
    }

    /// `session.update` with a patch; waits for `session.updated` (or the `error`).
    @discardableResult
    public func updateSession(_ patch: JSONObject) async throws(QwenRealtimeError) -> JSONObject {
        let outcome = await awaitReply(.sessionUpdated) { [self] s in
            let first = s.phase != .ready
            if first { s.phase = .configuring }
            sendNow(&s, QwenClientEvent.sessionUpdate.object(["session": .object(patch)]))
            if first && s.faults.appendRightAfterSessionUpdate {
                let silence = [UInt8](repeating: 0, count: s.inputRate / 5)
                sendNow(&s, QwenClientEvent.inputAudioBufferAppend.object(["audio": .string(Base64.encode(silence))]))
            }
        }
        return try outcome()
    }

    /// Registers a waiter for `kind`, runs `body` under the lock, and waits for the reply.
    func awaitReply(
        _ kind: QwenServerEvent, _ body: @escaping @Sendable (inout QwenSessionState) -> Void
    )
        async -> () throws(QwenRealtimeError) -> JSONObject
    {
        let timeout = options.connectTimeoutMillis
        let result: Result<JSONObject, QwenRealtimeError> = await withCheckedContinuation { continuation in
            state.withLock { s in
                s.waiter = (kind, continuation)
                body(&s)
            }
            Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(timeout))
                self?.resolveWaiter(
                    kind: kind,
                    .failure(
                        QwenRealtimeError(
                            type: "client_error", code: "timeout", message: "no \(kind.rawValue) within \(timeout) ms"))
                )
            }
        }
        return { () throws(QwenRealtimeError) -> JSONObject in try result.get() }
    }

    func resolveWaiter(kind: QwenServerEvent?, _ result: Result<JSONObject, QwenRealtimeError>) {
        let waiter = state.withLock { s -> CheckedContinuation<Result<JSONObject, QwenRealtimeError>, Never>? in
            guard let waiter = s.waiter, kind == nil || waiter.kind == kind else { return nil }
            s.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: result)
    }

    /// Sends a client event now (adding an `event_id`), or holds it until `session.updated`.
    func send(_ s: inout QwenSessionState, _ event: JSONObject) {
        if s.phase == .configuring || s.phase == .connecting {
            var event = event
            if event["event_id"] == nil { event["event_id"] = .string(Identifiers.prefixed("event_")) }
            s.held.append(JSONValue.object(event).encodedString())
            return
        }
        sendNow(&s, event)
    }

    func sendNow(_ s: inout QwenSessionState, _ event: JSONObject) {
        guard let connection = s.connection, !s.finishSent else { return }
        var event = event
        if event["event_id"] == nil { event["event_id"] = .string(Identifiers.prefixed("event_")) }
        connection.send(text: JSONValue.object(event).encodedString())
        if event["type"]?.stringValue == QwenClientEvent.sessionFinish.rawValue { s.finishSent = true }
    }

    /// Queues a callback with the callbacks as they are now.
    func emit(_ s: borrowing QwenSessionState, _ body: @escaping @Sendable (QwenRealtimeCallbacks) -> Void) {
        queue.enqueue(s.callbacks, body)
    }

    func emitError(_ error: QwenRealtimeError) {
        state.withLock { s in emit(s) { $0.onError?(error) } }
    }

    /// Returns once every callback queued so far has run.
    public func flushCallbacks() async { await queue.drain() }

    // MARK: - Raw access for the faulty clients

    /// Sends a text frame as is, bypassing every guard.
    package func sendRaw(text: String) { state.withLock { $0.connection?.send(text: text) } }
    /// Sends a binary frame (never valid in this protocol, C2).
    package func sendRaw(binary: [UInt8]) { state.withLock { $0.connection?.send(.binary(binary)) } }
    /// Sends an event as is (plus `event_id` when missing), bypassing every guard.
    package func sendRaw(_ event: JSONObject) {
        var event = event
        if event["event_id"] == nil { event["event_id"] = .string(Identifiers.prefixed("event_")) }
        sendRaw(text: JSONValue.object(event).encodedString())
    }
}
