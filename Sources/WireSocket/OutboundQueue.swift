internal import CLibWebSockets

extension Connection {
    enum OutboundItem {
        /// A whole message's payload as the session made it, queued without a copy: written
        /// from the service loop's scratch buffer, which has lws' headroom (see
        /// ``ServiceLoop/frameScratch(capacity:)``). Only where no permessage-deflate may be in use.
        case message(payload: [UInt8], binary: Bool)
        /// Bytes laid out as `[LWS_PRE headroom | payload]`.
        case frame(buffer: FrameBuffer, binary: Bool, first: Bool, final: Bool)
        /// One message written as fragments of `fragmentSize` (see ``FragmentedMessage``).
        case fragmented(FragmentedMessage)
        case close(CloseCode, String)

        /// A whole message or frame, which `flushWrites` may write outside a writable callback.
        var isWholeMessage: Bool {
            switch self {
            case .message, .frame: true
            case .fragmented, .close: false
            }
        }
    }

    /// A queued frame's bytes, `[LWS_PRE headroom | payload]`. A class, so lws can write its
    /// frame header into the headroom in place (no copy-on-write of a shared array) and the
    /// bytes can outlive the queue entry while lws still reads them (see `drainingBuffer`).
    final class FrameBuffer {
        var bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// A message queued once and written a fragment at a time: one buffer instead of one per
    /// fragment (a 16-byte fragment in its own buffer costs about 120 bytes of memory, so a
    /// backlog of fragmented audio grew seven times its size). Each fragment is written in place:
    /// lws puts its frame header in the bytes just before it, which the previous fragment has
    /// already sent (and lws copies what a short write leaves).
    final class FragmentedMessage {
        var buffer: [UInt8]
        let binary: Bool
        let fragmentSize: Int
        /// Payload bytes already written.
        var written = 0
        var payloadCount: Int { buffer.count - clws_pre() }

        init(buffer: [UInt8], binary: Bool, fragmentSize: Int) {
            self.buffer = buffer
            self.binary = binary
            self.fragmentSize = fragmentSize
        }
    }
}

/// A connection's outbound queue: items in order, the payload bytes they hold, and the head
/// written next. Written items are dropped at once when the queue empties (the common case:
/// written audio frames used to stay allocated until 64 had piled up), else in batches.
struct OutboundQueue {
    private var items: [Connection.OutboundItem] = []
    private var headIndex = 0
    /// Payload bytes queued but not yet written.
    private(set) var queuedBytes = 0

    /// Items not yet written (a fragmented message counts once until its last fragment).
    var count: Int { items.count - headIndex }
    /// The item written next.
    var head: Connection.OutboundItem? { headIndex < items.count ? items[headIndex] : nil }

    mutating func append(_ item: Connection.OutboundItem) {
        switch item {
        case .message(let payload, _): queuedBytes += payload.count
        case .frame(let buffer, _, _, _): queuedBytes += buffer.bytes.count - clws_pre()
        case .fragmented(let message): queuedBytes += message.payloadCount
        case .close: break
        }
        items.append(item)
    }

    /// `bytes` of payload went out.
    mutating func wrote(bytes: Int) { queuedBytes -= bytes }

    /// Drops the head item (it has been written whole).
    mutating func removeHead() {
        headIndex += 1
        if headIndex == items.count {
            items.removeAll(keepingCapacity: true)
            headIndex = 0
        } else if headIndex > 64 && headIndex * 2 > items.count {
            items.removeFirst(headIndex)
            headIndex = 0
        }
    }

    mutating func removeAll() {
        items.removeAll()
        headIndex = 0
        queuedBytes = 0
    }
}
