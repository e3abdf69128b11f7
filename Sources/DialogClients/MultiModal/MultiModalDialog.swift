import ProtocolModel
import Synchronization
public import WireJSON
import WireSocket

/// A multimodal dialog client (Model Studio "实时多模态交互" over WebSocket) mirroring the iOS
/// SDK surface of SEED-000/001, for Linux.
///
/// It keeps every client obligation of multimodal-dialog.md §12 on its own: one `task_id`,
/// `continue-task`/`finish-task` actions, no audio before Listening, push2talk bracketing
/// (startSpeech/requestToRespond before Listening wait for it), silence frames against the
/// 20 s gap rules, HeartBeat when the server is quiet, the `dialog_id` of `Started` in every
/// directive, LocalRespondingStarted/Ended from a built-in player model, and nothing after
/// `Stop`. Callbacks run one at a time on a serial context, in wire order.
public final class MultiModalDialog: Sendable {
    /// The SDK's callbacks. `onMessageReceived` gets the `output` object of every dialog event.
    public struct Callbacks: Sendable {
        public var onConnected: (@Sendable () -> Void)?
        public var onConversationStarted: (@Sendable (_ dialogId: String) -> Void)?
        public var onConversationEvent: (@Sendable (DialogEvent, JSONObject) -> Void)?
        public var onConversationStateChanged: (@Sendable (DialogState) -> Void)?
        public var onMessageReceived: (@Sendable (JSONObject) -> Void)?
        public var onErrorReceived: (@Sendable (DialogError) -> Void)?
        public var onSynthesizedData: (@Sendable ([UInt8]) -> Void)?
        public var onWebsocketClosed: (@Sendable (_ code: Int, _ reason: String?) -> Void)?
        /// The built-in player began playing a round (LocalRespondingStarted was sent).
        public var onPlaybackStarted: (@Sendable () -> Void)?
        /// The built-in player finished or flushed a round (LocalRespondingEnded was sent).
        public var onPlaybackEnded: (@Sendable () -> Void)?
        public init() {}
    }

    public let url: String
    public let workSpaceId: String
    public let appId: String
    public let options: MultiModalDialogOptions
    let state: Mutex<DialogSessionState>
    let queue = CallbackQueue()

    /// - Parameters:
    ///   - url: `ws://…/api-ws/v1/inference` (nil: the DashScope default, which needs TLS and is
    ///     therefore not reachable with this client; pass the mock's URL).
    ///   - workSpaceId: `input.workspace_id` of Start.
    ///   - appId: `input.app_id` of Start.
    ///   - mode: the interaction mode (`upstream.mode`, unless the Start params set one).
    public init(
        url: String?, workSpaceId: String, appId: String, mode: DialogMode,
        options: MultiModalDialogOptions = MultiModalDialogOptions()
    ) {
        self.url = url ?? DialogProtocol.serviceHost + DialogProtocol.multimodalDialog.servicePath
        self.workSpaceId = workSpaceId
        self.appId = appId
        self.options = options
        state = Mutex(DialogSessionState(mode: mode))
    }

    /// The callbacks; set them before `start`.
    public var callbacks: Callbacks {
        get { state.withLock { $0.callbacks } }
        set { state.withLock { $0.callbacks = newValue } }
    }

    /// The current dialog state (`idle` before Listening and after the end).
    public var dialogState: DialogState { state.withLock { $0.dialogState } }
    /// The `dialog_id` of `Started` (nil before).
    public var dialogId: String? { state.withLock { $0.dialogID } }
    /// The connection's `task_id`.
    public var taskId: String { state.withLock { $0.taskID } }
    /// The interaction mode in effect.
    public var mode: DialogMode { state.withLock { $0.mode } }

    /// Fault switches for the faulty clients (package only).
    package var faults: MultiModalDialogFaults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// SDK-style start: connects, sends Start, and calls `completion` once `Started` arrived.
    public func start(
        apiKey: String, params: MultiModalRequestParam, dialogId: String? = nil,
        completion: @escaping @Sendable (Bool, DialogError?) -> Void
    ) {
        Task {
            do throws(DialogError) {
                _ = try await start(apiKey: apiKey, params: params, dialogId: dialogId)
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    /// Connects, sends `Start` (run-task) and returns the `dialog_id` of `Started`.
    /// - Parameter dialogId: resume this dialog (C23).
    /// - Throws: `DialogError` when the upgrade is refused, the task fails, or nothing arrives.
    @discardableResult
    public func start(
        apiKey: String, params: MultiModalRequestParam, dialogId: String? = nil,
        timeoutMillis: Int = 10_000
    ) async throws(DialogError) -> String {
        let (headers, startText) = try state.withLock { (s) throws(DialogError) in
            guard s.phase == .idle else {
                throw DialogError(code: "InvalidState", message: "start() was already called", isFatal: false)
            }
            s.phase = .connecting
            return (
                handshakeHeaders(apiKey: apiKey, s.faults.authorization),
                startFrame(&s, params: params, dialogID: dialogId)
            )
        }
        let socket: WebSocketClient
        let connection: ClientConnection
        do {
            (socket, connection) = try await ClientSocket.connect(url, headers: headers) { failed in
                state.withLock { s in (s.phase, s.socket) = (.closed, failed) }
            }
        } catch {
            let refused = error.message.contains("HTTP 401") || error.message.contains("HTTP 403")
            let failure = DialogError(
                code: refused ? "InvalidApiKey" : "ConnectFailed", message: error.message, isFatal: true)
            report(failure)
            throw failure
        }
        let outcome: Result<String, DialogError> = await withCheckedContinuation { continuation in
            state.withLock { s in
                s.socket = socket
                s.connection = connection
                s.phase = .awaitingStarted
                s.startWaiter = continuation
                s.lastReceivedAt = Clock.nowMicros()
                emit(s) { $0.onConnected?() }
                connection.send(text: startText)
                if s.faults.binaryAfterStart { connection.send(.binary([UInt8](repeating: 0, count: 3200))) }
            }
            runReceiveLoop(connection)
            Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(timeoutMillis))
                self?.resolveStart(
                    .failure(
                        DialogError(code: "Timeout", message: "no Started within \(timeoutMillis) ms", isFatal: true)))
            }
        }
        let dialogID = try outcome.get()
        runBackgroundTicker()
        return dialogID
    }

    /// Completes a waiting `start` once.
    func resolveStart(_ result: Result<String, DialogError>) {
        let waiter = state.withLock { s in
            defer { s.startWaiter = nil }
            return s.startWaiter
        }
        waiter?.resume(returning: result)
    }

    /// Queues a callback with the callbacks as they are now.
    func emit(_ s: borrowing DialogSessionState, _ body: @escaping @Sendable (Callbacks) -> Void) {
        queue.enqueue(s.callbacks, body)
    }

    /// Reports an error through `onErrorReceived`.
    func report(_ error: DialogError) {
        state.withLock { s in emit(s) { $0.onErrorReceived?(error) } }
    }

    /// Returns once every callback queued so far has run.
    public func flushCallbacks() async { await queue.drain() }

    private func handshakeHeaders(
        apiKey: String, _ authorization: MultiModalDialogFaults.Authorization
    ) -> [(String, String)] {
        var headers = options.headers
        switch authorization {
        case .bearer: headers.append(("Authorization", "Bearer \(apiKey)"))
        case .bare: headers.append(("Authorization", apiKey))
        case .none: break
        }
        return headers
    }
}
