import ProtocolModel
import Synchronization
public import WireJSON
import WireSocket

/// A Qwen-Audio-Live client over the WebSocket (conformance/protocols/qwen-audio-live/README.md),
/// doing on the wire what the official C# and Ruby SDKs do.
///
/// It keeps the client obligations: Bearer upgrade on the live (or realtime) path with `?model=`
/// (qal.C1), JSON text events only (C2), a fresh `event_id` of at most 128 characters on every
/// event (C3), `session.update` first and nothing else before `session.updated` (C4), `model` and
/// `delegation.type` in every first update (C5), whole-sample 16 kHz PCM in paced 40 ms chunks
/// (C6), no WebSocket audio under AOQ (C7), exactly one `function_call_output` per call (C8) and
/// one commentary per client delegation (C9), and `session.close` → `session.closed` → socket
/// close, with nothing sent after `session.closed` (C10).
public final class QwenAudioLiveClient: Sendable {
    public let url: String
    /// The service model of the URL (`qwen-audio-3.1-live`).
    public let serviceModel: String
    public let options: QwenAudioLiveOptions
    let apiKey: String
    let state = Mutex(QwenAudioLiveSessionState())
    let queue = CallbackQueue()

    /// - Parameters:
    ///   - url: `ws://…/api-ws/v1/live` or `ws://…/api-ws/v1/realtime`, with or without `?model=`
    ///     (added when missing).
    ///   - serviceModel: the live service model (`qwen-audio-3.1-live`).
    public init(
        url: String, apiKey: String, serviceModel: String, options: QwenAudioLiveOptions = QwenAudioLiveOptions()
    ) {
        self.url = url.contains("model=") ? url : url + (url.contains("?") ? "&" : "?") + "model=\(serviceModel)"
        self.apiKey = apiKey
        self.serviceModel = serviceModel
        self.options = options
    }

    /// The frontend model a `session.update` names when neither the caller nor the session in effect does.
    public static var defaultFrontendModel: String { QwenAudioLive.duplexModel }
    /// The delegation mode a `session.update` names when the caller's session does not.
    public static let defaultDelegation = "client"

    public var callbacks: QwenAudioLiveCallbacks {
        get { state.withLock { $0.callbacks } }
        set { state.withLock { $0.callbacks = newValue } }
    }

    package var faults: QwenAudioLiveFaults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// The effective session of the last `session.updated` (or `session.created`).
    public var session: JSONObject { state.withLock { $0.session } }

    /// `turn_detection.type` in effect (`server_vad` or `duplex`).
    public var turnDetection: String { state.withLock { $0.turnDetection } }

    /// `transport.type` last asked for or confirmed (`websocket` unless an update names one).
    public var transport: String { state.withLock { $0.transport } }

    /// Whether the session asked for AOQ media: no audio goes on the WebSocket then (qal.C7).
    public var audioGoesOverAOQ: Bool { state.withLock { $0.audioGoesOverAOQ } }

    /// Call ids not answered yet (qal.C8).
    public var pendingCallIds: [String] { state.withLock { s in s.calls.filter { !$0.value }.map(\.key).sorted() } }

    /// Client delegation ids not answered yet (qal.C9).
    public var pendingDelegationIds: [String] {
        state.withLock { s in s.delegations.filter { !$0.value }.map(\.key).sorted() }
    }

    /// Connects, waits for `session.created`, sends `session.update` with `session` (its `model`
    /// and `delegation` defaulted when absent: `session.created`'s model, `client`) and waits for
    /// `session.updated`.
    /// - Returns: the effective session.
    /// - Throws: `QwenAudioLiveError` on a refused upgrade, a refused update, or a timeout. After a
    ///   refused update the connection stays open: fix the values with `updateSession`.
    @discardableResult
    public func connect(session: JSONObject = [:]) async throws(QwenAudioLiveError) -> JSONObject {
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
            let failure = QwenAudioLiveError(code: "connect_failed", message: error.message, isClientSide: true)
            emitError(failure)
            throw failure
        }
        state.withLock { s in
            s.socket = socket
            s.connection = connection
        }
        let created = await awaitReply(.sessionCreated, eventID: nil) { [self] _ in runReceiveLoop(connection) }
        _ = try created()
        return try await updateSession(session)
    }

    /// `session` with `model` and `delegation` filled in when absent (qal.C5: every update
    /// carries both): those in `effect`, else the defaults.
    static func withDefaults(_ session: JSONObject, effect: JSONObject) -> JSONObject {
        var session = session
        if session["model"] == nil { session["model"] = effect["model"] ?? .string(defaultFrontendModel) }
        if session["delegation"] == nil {
            session["delegation"] = effect["delegation"] ?? ["type": .string(defaultDelegation)]
        }
        return session
    }

    /// `session.update` with `session` (its `model` and `delegation` those in effect, or the
    /// defaults, when absent) and a fresh `event_id`; waits for the `session.updated` echoing
    /// it (or the `error`).
    @discardableResult
    public func updateSession(_ session: JSONObject) async throws(QwenAudioLiveError) -> JSONObject {
        let eventID = Identifiers.prefixed("event_")
        let session = Self.withDefaults(session, effect: self.session)
        let outcome = await awaitReply(.sessionUpdated, eventID: eventID) { [self] s in
            let first = s.phase != .ready
            if first { s.phase = .configuring }
            var update = QwenAudioLiveClientEvent.sessionUpdate.object(["session": .object(session)])
            update["event_id"] = .string(eventID)
            if first { applyUpdateFaults(&s, &update) }
            // Asking for AOQ media moves the uplink off the WebSocket even when the server
            // refuses it, until an update asks for `websocket` again (qal.C7).
            if let transport = session["transport"]?["type"]?.stringValue { s.transport = transport }
            sendNow(&s, update)
            if first && s.faults.appendRightAfterSessionUpdate && !s.audioGoesOverAOQ {
                let silence = [UInt8](repeating: 0, count: QwenAudioLive.inputSampleRate / 5)
                sendNow(
                    &s,
                    QwenAudioLiveClientEvent.inputAudioAppend.object(["audio": .string(Base64.encode(silence))]))
            }
        }
        return try outcome()
    }

    /// The faulty clients' first `session.update` (each fault is used once, on the first update).
    private func applyUpdateFaults(_ s: inout QwenAudioLiveSessionState, _ update: inout JSONObject) {
        if s.faults.omitUpdateEventID { update["event_id"] = nil }
        if s.faults.overlongUpdateEventID {
            update["event_id"] = .string(String(repeating: "e", count: QwenAudioLive.maxEventIDLength + 1))
        }
        if var session = update["session"]?.objectValue {
            for field in s.faults.omittedSessionFields { session[field] = nil }
            update["session"] = .object(session)
        }
        s.faults.omitUpdateEventID = false
        s.faults.overlongUpdateEventID = false
        s.faults.omittedSessionFields = []
    }

    /// Registers a waiter for `kind` (an acknowledgement of `eventID`), runs `body` under the
    /// lock, and waits for the reply (at most `connectTimeoutMillis`).
    func awaitReply(
        _ kind: QwenAudioLiveServerEvent, eventID: String?, timeoutMillis: Int? = nil,
        _ body: @escaping @Sendable (inout QwenAudioLiveSessionState) -> Void
    ) async -> () throws(QwenAudioLiveError) -> JSONObject {
        let timeout = timeoutMillis ?? options.connectTimeoutMillis
        let result: Result<JSONObject, QwenAudioLiveError> = await withCheckedContinuation { continuation in
            state.withLock { s in
                s.waiter = (kind, eventID, continuation)
                body(&s)
            }
            Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(timeout))
                self?.resolveWaiter(
                    kind: kind,
                    .failure(
                        QwenAudioLiveError(
                            code: "timeout", message: "no \(kind.rawValue) within \(timeout) ms", isClientSide: true)))
            }
        }
        return { () throws(QwenAudioLiveError) -> JSONObject in try result.get() }
    }

    /// Resumes the waiter for `kind` (any waiter when nil) with `result`.
    func resolveWaiter(kind: QwenAudioLiveServerEvent?, _ result: Result<JSONObject, QwenAudioLiveError>) {
        let waiter = state.withLock { s -> CheckedContinuation<Result<JSONObject, QwenAudioLiveError>, Never>? in
            guard let waiter = s.waiter, kind == nil || waiter.kind == kind else { return nil }
            s.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: result)
    }

    /// Sends a client event now, or holds it until the first `session.updated` (qal.C4).
    func send(_ s: inout QwenAudioLiveSessionState, _ event: JSONObject) {
        if s.phase == .configuring || s.phase == .connecting {
            s.held.append(JSONValue.object(Self.identified(event)).encodedString())
            return
        }
        sendNow(&s, event)
    }

    /// Sends a client event unless the session is closing or over (qal.C10).
    func sendNow(_ s: inout QwenAudioLiveSessionState, _ event: JSONObject) {
        guard let connection = s.connection, !s.closeSent, !s.sessionClosed else { return }
        connection.send(text: JSONValue.object(Self.identified(event)).encodedString())
        if event["type"]?.stringValue == QwenAudioLiveClientEvent.sessionClose.rawValue { s.closeSent = true }
    }

    /// `event` with a fresh `event_id` (40 characters, unique: qal.C3) unless it has one or is
    /// a faulty update that must go without.
    static func identified(_ event: JSONObject) -> JSONObject {
        guard event["event_id"] == nil, event["type"]?.stringValue != QwenAudioLiveClientEvent.sessionUpdate.rawValue
        else { return event }
        var event = event
        event["event_id"] = .string(Identifiers.prefixed("event_"))
        return event
    }

    /// Queues a callback with the callbacks as they are now.
    func emit(_ s: borrowing QwenAudioLiveSessionState, _ body: @escaping @Sendable (QwenAudioLiveCallbacks) -> Void) {
        queue.enqueue(s.callbacks, body)
    }

    func emitError(_ error: QwenAudioLiveError) {
        state.withLock { s in emit(s) { $0.onError?(error) } }
    }

    /// Returns once every callback queued so far has run.
    public func flushCallbacks() async { await queue.drain() }

    // MARK: - Raw access for the faulty clients

    /// Sends a text frame as is, bypassing every guard.
    package func sendRaw(text: String) { state.withLock { $0.connection?.send(text: text) } }
    /// Sends a binary frame (never valid in this protocol, qal.C2).
    package func sendRaw(binary: [UInt8]) { state.withLock { $0.connection?.send(.binary(binary)) } }
    /// Sends an event as is (plus `event_id` when missing), bypassing every guard.
    package func sendRaw(_ event: JSONObject) {
        var event = event
        if event["event_id"] == nil { event["event_id"] = .string(Identifiers.prefixed("event_")) }
        sendRaw(text: JSONValue.object(event).encodedString())
    }
}
