internal import CLibWebSockets
import Glibc

/// One accepted WebSocket connection. Confined to the service thread: every method must be
/// called there (from a handler callback, a timer, or `WebSocketServer.execute`).
package final class Connection {
    /// Unique within the server, increasing from 1.
    package let id: UInt64
    /// The upgrade request this connection came from.
    package let request: HTTPRequestHead
    package let openedAt: Int64
    package private(set) var isOpen = true

    let handler: any ConnectionHandler
    let maxMessageBytes: Int
    unowned let loop: ServiceLoop
    var wsi: OpaquePointer?

    var receiveBuffer: [UInt8] = []
    var receivingBinary = false
    /// Text messages are checked for UTF-8 here (servers; lws' own byte-at-a-time check is off).
    var validatesUTF8 = false
    var utf8 = UTF8Validator()
    /// Asked to be flushed at the end of the loop's current pass.
    private var flushRequested = false
    /// Messages may be written outside writable callbacks (see `flushWrites`). Off when
    /// permessage-deflate may be in use: lws drains a compressed message that does not fit one
    /// write from its writable callbacks, and a write in between breaks it (Autobahn 12.2.15).
    var writesAtOnce = true
    var messageInProgress = false
    var peerCloseCode: CloseCode?
    var peerCloseReason = ""
    /// Our close frame is out; only the peer's answering close (or the timeout) remains.
    private(set) var closeSent = false

    private var outbound = OutboundQueue()
    /// The bytes of the last message written from the queue. With permessage-deflate, lws
    /// compresses a message that does not fit one write over several writable events, reading
    /// the caller's buffer each time (before any writable callback of ours), so it must stay
    /// allocated until the next one: freed earlier, the drain read freed memory (a crash in
    /// Autobahn 12.2.15 once 128 KiB buffers were unmapped on free).
    private var drainingBuffer: AnyObject?
    private var timers: Set<TimerID> = []
    private var writesPaused = false
    private var readsPaused = false
    private var nextWriteAllowedAt: Int64 = 0
    private var throttleTimer: TimerID?

    /// Bytes per second the connection may write (nil = unlimited). Models a slow link.
    package var writeRateLimit: Int? = nil
    /// When set, every outbound message is split into WebSocket fragments of this many bytes.
    package var fragmentSize: Int? = nil

    init(
        id: UInt64, request: HTTPRequestHead, handler: any ConnectionHandler, maxMessageBytes: Int,
        loop: ServiceLoop, wsi: OpaquePointer
    ) {
        self.id = id
        self.request = request
        self.handler = handler
        self.maxMessageBytes = maxMessageBytes
        self.loop = loop
        self.wsi = wsi
        self.openedAt = MonotonicClock.nowMicros()
    }

    /// Messages and closes queued but not yet written.
    package var pendingWrites: Int { outbound.count }
    /// A close that drops the queue is on its way: nothing more is sent.
    private var closeQueued = false
    /// Payload bytes queued but not yet written (what a client that does not read piles up).
    package var queuedBytes: Int { outbound.queuedBytes }

    // MARK: - Sending

    /// Queues a message; it is written when the socket is writable, in order.
    package func send(_ message: WebSocketMessage) {
        guard isOpen, !closeSent, !closeQueued else { return }
        let binary = !message.isText
        let payload = message.bytes
        if let size = fragmentSize, size > 0, payload.count > size {
            enqueue(
                .fragmented(FragmentedMessage(buffer: Self.layout(payload[...]), binary: binary, fragmentSize: size)))
        } else if writesAtOnce {
            enqueue(.message(payload: payload, binary: binary))
        } else {
            enqueue(.frame(buffer: FrameBuffer(Self.layout(payload[...])), binary: binary, first: true, final: true))
        }
    }

    /// Queues raw fragments of one message (the caller decides the split).
    package func sendFragments(_ fragments: [[UInt8]], binary: Bool) {
        guard isOpen, !fragments.isEmpty else { return }
        for (index, fragment) in fragments.enumerated() {
            enqueue(
                .frame(
                    buffer: FrameBuffer(Self.layout(fragment[...])), binary: binary,
                    first: index == 0, final: index == fragments.count - 1))
        }
    }

    /// Sends a close frame with `code` and `reason` after the queued messages, then closes.
    package func close(code: CloseCode = .normal, reason: String = "") {
        guard isOpen, !closeSent else { return }
        enqueue(.close(code, reason))
    }

    /// Sends a close frame after the queued messages, as ``close(code:reason:)`` does; if the
    /// connection has not ended `abortAfterMicros` later (the peer does not read, or never
    /// answers the close), it is cut.
    package func close(code: CloseCode, reason: String, abortAfterMicros: Int64) {
        guard isOpen, !closeSent else { return }
        close(code: code, reason: reason)
        schedule(afterMicros: abortAfterMicros) { [weak self] in self?.abort() }
    }

    /// Drops every queued message, then sends a close frame with `code` and `reason`; if the
    /// peer still has not taken it after `abortAfterMicros` (it does not read), the connection
    /// is cut. For a client whose backlog grew past what the server keeps for it.
    package func closeDroppingQueue(code: CloseCode, reason: String, abortAfterMicros: Int64 = 2_000_000) {
        guard isOpen, !closeSent, !closeQueued else { return }
        closeQueued = true
        outbound.removeAll()
        enqueue(.close(code, reason))
        schedule(afterMicros: abortAfterMicros) { [weak self] in self?.abort() }
    }

    /// Closes the TCP connection at once, without a close frame (a crashed or cut-off server).
    /// With `reset`, the peer gets an RST instead of a FIN.
    package func abort(reset: Bool = false) {
        guard isOpen, let wsi else { return }
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        if reset {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        outbound.removeAll()
        writesPaused = true
        shutdown(fd, Int32(SHUT_RDWR))
        // lws notices the hang-up on its next poll and delivers CLOSED.
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, 1)
    }

    // MARK: - Flow control (faults)

    /// Stops (or resumes) reading from the socket: the peer's sends back up in TCP buffers.
    package func setReadsPaused(_ paused: Bool) {
        guard isOpen, let wsi, paused != readsPaused else { return }
        readsPaused = paused
        lws_rx_flow_control(wsi, paused ? 0 : 1)
    }

    /// Stops (or resumes) writing: queued messages wait.
    package func setWritesPaused(_ paused: Bool) {
        guard isOpen, paused != writesPaused else { return }
        writesPaused = paused
        if !paused { requestWrite() }
    }

    // MARK: - Timers

    /// Runs `action` on the service thread after `micros`; cancelled automatically on close.
    @discardableResult
    package func schedule(afterMicros micros: Int64, _ action: @escaping () -> Void) -> TimerID {
        schedule(atMicros: MonotonicClock.nowMicros() + max(0, micros), action)
    }

    /// Runs `action` at monotonic time `due` (timers due at the same time run in the order they
    /// were scheduled); cancelled automatically on close.
    @discardableResult
    package func schedule(atMicros due: Int64, _ action: @escaping () -> Void) -> TimerID {
        let id = loop.makeTimerID()
        loop.schedule(id, atMicros: due) { [weak self] in
            guard let self else { return }
            self.timers.remove(id)
            if self.isOpen { action() }
        }
        timers.insert(id)
        return id
    }

    package func cancelTimer(_ id: TimerID) {
        timers.remove(id)
        loop.cancelTimer(id)
    }

    /// The name of the service thread this connection lives on (`lws-1`, …).
    package var serviceThreadName: String { loop.threadName }

    /// Runs closures on this connection's service thread from any thread (a worker that finished
    /// something the connection waits for).
    package var serviceThread: ServiceThreadExecutor { ServiceThreadExecutor(loop: loop) }

    // MARK: - Service-thread internals

    private static func layout(_ payload: ArraySlice<UInt8>) -> [UInt8] {
        let pre = clws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + payload.count)
        buffer.replaceSubrange(pre..<buffer.count, with: payload)
        return buffer
    }

    private func enqueue(_ item: OutboundItem) {
        outbound.append(item)
        requestWrite()
    }

    private func requestWrite() {
        guard let wsi, !writesPaused, pendingWrites > 0, throttleTimer == nil else { return }
        if loop.batchingWrites, writesAtOnce, writeRateLimit == nil {
            if !flushRequested {
                flushRequested = true
                loop.flushAtEndOfPass(self)
            }
            return
        }
        let now = MonotonicClock.nowMicros()
        if nextWriteAllowedAt > now {
            throttleTimer = schedule(afterMicros: nextWriteAllowedAt - now) { [weak self] in
                self?.throttleTimer = nil
                self?.requestWrite()
            }
            return
        }
        lws_callback_on_writable(wsi)
    }

    /// Writes queued whole messages now, at the end of a timer or inbox pass, without waiting for
    /// a writable callback (one `send` each; no `epoll_ctl` pair and loop wake-up per frame).
    /// lws keeps the rest of a short write and sends it before the next writable callback;
    /// until then, and for anything but a whole message (fragments, a close), the rest waits
    /// for the writable callback as before. Not after the peer's close frame (nothing more goes
    /// out: RFC 6455 §5.5.1, Autobahn 7.1.4). A message queued while a received message is
    /// delivered (lws' RECEIVE callback, not a pass) waits for the writable callback, after any
    /// pong lws owes for a ping that came before it (Autobahn 5.6, 5.19).
    func flushWrites() {
        flushRequested = false
        while let wsi, isOpen, writesAtOnce, !writesPaused, writeRateLimit == nil, peerCloseCode == nil,
            outbound.head?.isWholeMessage == true, lws_partial_buffered(wsi) == 0
        {
            if write(outbound.head!, wsi) < 0 {
                // The peer is gone: lws closes the connection on its next service.
                lws_set_timeout(wsi, NO_PENDING_TIMEOUT, LWS_TO_KILL_ASYNC)
                return
            }
        }
        if pendingWrites > 0, let wsi, !writesPaused { lws_callback_on_writable(wsi) }
    }

    /// Most messages written in one writable callback: frames due together (a response's
    /// opening events) go out in one wake-up, and one busy connection cannot starve the others.
    static let writesPerCallback = 8
    /// Most fragments of a fragmented message written in one writable callback (they are small).
    static let fragmentsPerCallback = 64

    /// Writes the queued items lws can take now (from its writable callback): one, then more
    /// while the socket still takes data without blocking (`lws_send_pipe_choked`, the lws way
    /// to write more than once per callback). Returns -1 when lws must close the connection.
    func writeNext() -> Int32 {
        // lws calls this only once a compressed message it was still draining is out.
        drainingBuffer = nil
        // A message costs 8 units of the budget, a fragment 1.
        var budget = Self.fragmentsPerCallback
        while true {
            let (result, cost) = writeOne()
            budget -= cost
            // After a close frame the queue is empty, so `pendingWrites` ends the loop too.
            guard result == 0, let wsi, isOpen, !writesPaused, pendingWrites > 0,
                budget > 0, writeRateLimit == nil, lws_send_pipe_choked(wsi) == 0
            else {
                if result == 0 { requestWrite() }
                return result
            }
        }
    }

    /// Writes one queued item (or one fragment of it) and says what that cost of the callback's
    /// budget; asks for another writable callback when more wait.
    private func writeOne() -> (result: Int32, cost: Int) {
        let unitsPerMessage = Self.fragmentsPerCallback / Self.writesPerCallback
        guard let wsi, !writesPaused, let item = outbound.head else { return (0, unitsPerMessage) }
        if nextWriteAllowedAt > MonotonicClock.nowMicros() {
            requestWrite()
            return (0, unitsPerMessage)
        }
        if case .fragmented(let message) = item {
            return (writeFragment(of: message, wsi), 1)
        }
        return (write(item, wsi), unitsPerMessage)
    }

    /// Writes the next fragment of the message at the head of the queue, in place.
    private func writeFragment(of message: FragmentedMessage, _ wsi: OpaquePointer) -> Int32 {
        let pre = clws_pre()
        let start = message.written
        let length = min(message.fragmentSize, message.payloadCount - start)
        let first = start == 0
        let final = start + length == message.payloadCount
        drainingBuffer = message
        let written = message.buffer.withUnsafeMutableBytes { raw in
            clws_write(
                wsi, raw.baseAddress!.advanced(by: pre + start).assumingMemoryBound(to: UInt8.self), length,
                message.binary ? 1 : 0, first ? 1 : 0, final ? 1 : 0)
        }
        if written < length { return -1 }
        message.written += length
        outbound.wrote(bytes: length)
        if final { outbound.removeHead() }
        if let rate = writeRateLimit, rate > 0 {
            nextWriteAllowedAt = MonotonicClock.nowMicros() + Int64(length) * 1_000_000 / Int64(rate)
        }
        return 0
    }

    /// Writes a whole queued item (a message or a close frame).
    private func write(_ item: OutboundItem, _ wsi: OpaquePointer) -> Int32 {
        outbound.removeHead()
        switch item {
        case .fragmented:
            return 0  // written by writeFragment
        case .message(let payload, let binary):
            let pre = clws_pre()
            let length = payload.count
            outbound.wrote(bytes: length)
            // lws writes the frame header into the headroom and copies what a short write
            // leaves, so the scratch buffer is free again once clws_write returns.
            let written = loop.withFrameScratch(capacity: pre + length) { scratch in
                payload.withUnsafeBytes { bytes in
                    if let source = bytes.baseAddress { (scratch + pre).copyMemory(from: source, byteCount: length) }
                }
                return clws_write(
                    wsi, (scratch + pre).assumingMemoryBound(to: UInt8.self), length, binary ? 1 : 0, 1, 1)
            }
            if written < length { return -1 }
            if let rate = writeRateLimit, rate > 0 {
                nextWriteAllowedAt = MonotonicClock.nowMicros() + Int64(length) * 1_000_000 / Int64(rate)
            }
            return 0
        case .frame(let buffer, let binary, let first, let final):
            let pre = clws_pre()
            let length = buffer.bytes.count - pre
            outbound.wrote(bytes: length)
            drainingBuffer = buffer
            let written = buffer.bytes.withUnsafeMutableBytes { raw in
                clws_write(
                    wsi, raw.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self), length,
                    binary ? 1 : 0, first ? 1 : 0, final ? 1 : 0)
            }
            if written < length { return -1 }
            if let rate = writeRateLimit, rate > 0 {
                nextWriteAllowedAt = MonotonicClock.nowMicros() + Int64(length) * 1_000_000 / Int64(rate)
            }
            return 0
        case .close(let code, let reason):
            // The close frame is written here rather than through lws_close_reason + return -1:
            // with the libuv loop, lws 4.1.6 hangs up without ever sending that deferred frame.
            // The peer's answering close then ends the connection (see notePeerClose).
            let pre = clws_pre()
            var frame = [UInt8](repeating: 0, count: pre)
            frame += [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xff)] + Array(reason.utf8.prefix(123))
            let length = frame.count - pre
            let written = frame.withUnsafeMutableBytes { raw in
                // lws_write_protocol 4 is LWS_WRITE_CLOSE, private in lws 4.1.
                lws_write(
                    wsi, raw.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self), length,
                    lws_write_protocol(rawValue: 4))
            }
            if written < 0 { return -1 }
            closeSent = true
            outbound.removeAll()
            lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, 2)
            return 0
        }
    }

    /// Called once when lws reports the connection closed.
    func markClosed() {
        isOpen = false
        drainingBuffer = nil
        for id in timers { loop.cancelTimer(id) }
        timers.removeAll()
        outbound.removeAll()
        wsi = nil
    }
}
