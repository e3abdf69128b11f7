package import MockSessions
package import ProtocolModel
import WireJSON
package import WireSocket

/// One client session forwarded to the upstream service (`--proxy-upstream`): every frame both
/// ways as it comes, closes with their codes, all journaled as the mock journals its own
/// sessions (client frames `in`, the upstream's frames `out`, `t` when the proxy passed them on).
/// When the client closes first, the session ends when the upstream's close arrives: what the
/// upstream sent meanwhile is journaled as undelivered, so the journal holds all it said.
///
/// Confined to the client connection's service thread: upstream events arrive on the proxy
/// client's own thread and are handed over through `execute`, so nothing here blocks or locks.
package final class ProxySession: ConnectionHandler {
    package let protocolKind: DialogProtocol
    /// What the proxy asks of the protocol: event names, its error frame.
    package let descriptor: any ProtocolDescriptor
    package let journal: SessionJournal
    package let metrics: ServerMetrics
    package let logger: Logger
    /// Called once when the client connection is gone.
    package var onClose: (() -> Void)?
    /// Keep binary frames' bytes in the journal (`--record`, `--journal-audio`): a recording then
    /// replays the real audio.
    package var keepsPayloads = false
    /// Most bytes queued for a client that does not read (`--max-queued-bytes`) before it is closed with 1008.
    package var maxQueuedBytes = Int.max

    private(set) weak var downstream: Connection?
    private var upstream: ClientConnection?
    /// Client frames that arrived before the upstream connection opened, in order.
    private(set) var waitingForUpstream: [WebSocketMessage] = []
    /// Upstream events that arrived before the client connection opened, with their arrival time.
    private var waitingForClient: [(event: ClientStreamEvent, atMicros: Int64)] = []
    private(set) var clientClosed = false
    private var upstreamEnded = false
    /// The client closed while the upstream was open: the upstream was asked to close, and the
    /// session ends when its close (or failure) arrives.
    private var awaitingUpstreamClose = false
    /// How long an upstream that does not read or answer our close keeps the session open
    /// before its connection is cut.
    package static let upstreamCloseMillis = 3000
    /// Keeps the session alive meanwhile: the client's connection, its owner, is gone.
    private var selfUntilUpstreamCloses: ProxySession?
    /// The client closed before the upstream opened: the close to send it once it does.
    private var closeForUpstream: (CloseCode, String)?
    /// The upstream failed before the client sent the task id the protocol's error frame needs.
    package var pendingFailure: UpstreamFailure?

    package init(protocolKind: DialogProtocol, journal: SessionJournal, metrics: ServerMetrics, logger: Logger) {
        self.protocolKind = protocolKind
        descriptor = protocolKind.descriptor
        self.journal = journal
        self.metrics = metrics
        self.logger = logger
    }

    private var now: Int64 { MonotonicClock.nowMicros() }

    /// Opens the upstream connection (at the upgrade, before the client's connection is open).
    package func start(
        client: WebSocketClient, url: String, headers: [(String, String)], insecureTLS: Bool,
        maxMessageBytes: Int, serviceThread: ServiceThreadExecutor
    ) {
        let deliver = ServiceThreadBound<(ClientStreamEvent, Int64) -> Void>({ [weak self] event, at in
            self?.upstreamEvent(event, atMicros: at)
        })
        client.open(url, headers: headers, maxMessageBytes: maxMessageBytes, insecureTLS: insecureTLS) { event in
            let at = MonotonicClock.nowMicros()
            serviceThread.execute { deliver.value(event, at) }
        }
    }

    // MARK: - The client's connection

    package func connectionOpened(_ connection: Connection) {
        downstream = connection
        journal.serviceThreadName = connection.serviceThreadName
        metrics.sessionOpened()
        let waiting = waitingForClient
        waitingForClient = []
        for (event, at) in waiting { upstreamEvent(event, atMicros: at) }
    }

    package func connection(_ connection: Connection, received message: WebSocketMessage) {
        journal.record(entry(message, .in, t: journal.elapsed(atMicros: now), keepingPayload: keepsPayloads))
        metrics.frameIn(bytes: message.bytes.count)
        if let upstream {
            upstream.send(message)
        } else if let failure = pendingFailure {
            waitingForUpstream.append(message)
            fail(failure)
        } else if !upstreamEnded {
            waitingForUpstream.append(message)
        }
    }

    package func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String) {
        journal.recordClose(.in, atMicros: now, code: peerCode.map { Int($0.rawValue) }, reason: peerReason)
        clientClosed = true
        let close = peerCode.map { (Self.sendable($0), peerReason) } ?? (.goingAway, "client gone")
        if let upstream {
            upstream.close(code: close.0, reason: close.1, abortAfterMillis: Self.upstreamCloseMillis)
            self.upstream = nil
            awaitingUpstreamClose = true
            selfUntilUpstreamCloses = self
            return
        }
        if !upstreamEnded { closeForUpstream = close }
        finish()
    }

    /// Both sides are gone: the journal is complete.
    private func finish() {
        selfUntilUpstreamCloses = nil
        journal.markClosed()
        metrics.sessionClosed()
        onClose?()
    }

    // MARK: - The upstream connection

    private func upstreamEvent(_ event: ClientStreamEvent, atMicros receivedAt: Int64) {
        if case .opened(let connection) = event {
            if let (code, reason) = closeForUpstream {
                connection.close(code: code, reason: reason)
                return
            }
            upstream = connection
            for message in waitingForUpstream { connection.send(message) }
            waitingForUpstream = []
            return
        }
        if clientClosed {
            upstreamEventAfterClientClosed(event)
            return
        }
        guard let downstream else {
            waitingForClient.append((event, receivedAt))
            return
        }
        switch event {
        case .opened:
            break
        case .failed(let error, let status):
            upstreamEnded = true
            let failure = UpstreamFailure(error: error, status: status)
            logger(
                .warn, "session \(journal.id): upstream \(failure.summary)", session: journal.id, testID: journal.testID
            )
            fail(failure)
        case .event(.message(let message)):
            let sentAt = now
            journal.record(
                entry(message, .out, t: journal.elapsed(atMicros: sentAt), keepingPayload: keepsPayloads))
            metrics.frameOut(bytes: message.bytes.count, latenessMicros: max(0, sentAt - receivedAt))
            downstream.send(message)
            if downstream.queuedBytes > maxQueuedBytes { closeSlowReader(downstream) }
        case .event(.closed(let code, let reason)):
            upstreamEnded = true
            upstream = nil
            forwardClose(code, reason, to: downstream)
        }
    }

    /// The client is gone: frames the upstream still sends (say, `task-finished` after the
    /// `Stopped` a client closes on) are journaled, undelivered, until its close ends the session.
    private func upstreamEventAfterClientClosed(_ event: ClientStreamEvent) {
        guard awaitingUpstreamClose else { return }
        switch event {
        case .opened:
            break
        case .event(.message(let message)):
            // `t`: when the proxy handled it, as for delivered frames (after the client's close).
            var entry = entry(message, .out, t: journal.elapsed(atMicros: now), keepingPayload: keepsPayloads)
            entry.undelivered = true
            journal.record(entry)
        case .event(.closed), .failed:
            awaitingUpstreamClose = false
            upstreamEnded = true
            finish()
        }
    }

    /// The upstream's close, passed on with its code; no close frame upstream, none here either.
    private func forwardClose(_ code: CloseCode?, _ reason: String, to downstream: Connection) {
        guard let code else {
            journal.recordClose(.out, atMicros: now, code: nil, reason: "abrupt close (upstream sent no close frame)")
            downstream.abort()
            return
        }
        let sent = Self.sendable(code)
        journal.recordClose(.out, atMicros: now, code: Int(sent.rawValue), reason: reason)
        downstream.close(code: sent, reason: reason)
    }

    /// The client stopped reading: its backlog is dropped, it gets 1008, the upstream 1001 (as
    /// the mock does with its own sessions).
    private func closeSlowReader(_ downstream: Connection) {
        let reason = "client not reading: more than \(maxQueuedBytes) bytes queued"
        journal.recordClose(.out, atMicros: now, code: 1008, reason: reason)
        logger(
            .warn, "session \(journal.id): \(reason); closing with 1008", session: journal.id, testID: journal.testID)
        metrics.slowReaderClosed()
        upstream?.close(code: .goingAway, reason: "client not reading")
        upstream = nil
        upstreamEnded = true
        downstream.closeDroppingQueue(code: CloseCode(1008), reason: reason)
    }

    /// A code a close frame may carry (RFC 6455 §7.4): 1005, 1006, 1015 and unassigned ones become 1000.
    package static func sendable(_ code: CloseCode) -> CloseCode {
        switch code.rawValue {
        case 1000...1003, 1007...1014, 3000...4999: code
        default: .normal
        }
    }

    /// A frame's journal entry: text as the mock journals it (whole JSON, message name), binary by
    /// size (and its bytes with `keepingPayload`).
    package func entry(
        _ message: WebSocketMessage, _ direction: JournalEntry.Direction, t: Int64, keepingPayload: Bool
    ) -> JournalEntry {
        switch message {
        case .binary(let bytes):
            return .binaryFrame(t: t, direction, byteLength: bytes.count, payload: keepingPayload ? bytes : nil)
        case .text(let bytes):
            guard let json = try? JSONValue.decode(bytes) else {
                return JournalEntry(
                    t: t, direction: direction, kind: .text, byteLength: bytes.count,
                    text: String(decoding: bytes.prefix(4096), as: UTF8.self))
            }
            let name =
                direction == .in ? descriptor.clientMessageName(of: json) : descriptor.serverMessageName(of: json)
            return .textFrame(t: t, direction, json: json, eventType: name, byteLength: bytes.count)
        }
    }
}
