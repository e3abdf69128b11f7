internal import COgg

/// Incremental Ogg Opus demultiplexer over libogg: feed bytes as they arrive (WebSocket frames
/// of any size), get Opus audio packets out.
///
/// The first packet must be `OpusHead` (parsed into `head`), the second `OpusTags` (skipped).
/// Zero-byte packets (an end-of-stream marker as `OggOpusWriter.finish()` writes) are dropped.
/// Only the first logical stream is followed; pages of other serial numbers are counted in
/// `foreignPages` and ignored, and a new beginning-of-stream page after end-of-stream starts a
/// chained stream (its headers are parsed again). Lost capture sync (garbage between pages) is
/// counted in `syncLosses`, not thrown, because a checker wants to report it, not stop.
/// Owns its libogg state (freed in `deinit`); not thread-safe.
package final class OggOpusDemuxer {
    /// The identification header, once parsed.
    package private(set) var head: OpusHead?
    /// Whether `OpusTags` was seen for the current stream.
    package private(set) var sawTags = false
    /// Whether the end-of-stream page was seen.
    package private(set) var endOfStream = false
    /// Pages read so far (all serial numbers).
    package private(set) var pages = 0
    /// Pages skipped because they belong to another logical stream.
    package private(set) var foreignPages = 0
    /// Times libogg lost capture sync and skipped bytes.
    package private(set) var syncLosses = 0
    /// Audio packets returned so far.
    package private(set) var audioPackets = 0
    /// Granule position of the last completed page (48 kHz samples including pre-skip), or -1.
    package private(set) var lastGranulePosition: Int64 = -1

    private let sync: UnsafeMutablePointer<ogg_sync_state>
    private let stream: UnsafeMutablePointer<ogg_stream_state>
    private var serial: Int32?
    private var headerPackets = 0

    /// Creates an empty demuxer.
    package init() {
        sync = .allocate(capacity: 1)
        stream = .allocate(capacity: 1)
        ogg_sync_init(sync)
        stream.initialize(to: ogg_stream_state())
    }

    deinit {
        if serial != nil { ogg_stream_clear(stream) }
        ogg_sync_clear(sync)
        stream.deallocate()
        sync.deallocate()
    }

    /// Feeds bytes and returns the Opus audio packets completed by them, in order.
    /// - Throws: `OggOpusError` when the stream is not Ogg Opus (bad or missing headers).
    package func feed(_ bytes: some Collection<UInt8>) throws(OggOpusError) -> [[UInt8]] {
        if !bytes.isEmpty {
            guard let buffer = ogg_sync_buffer(sync, bytes.count) else { throw .libogg("ogg_sync_buffer") }
            UnsafeMutableRawBufferPointer(start: buffer, count: bytes.count).copyBytes(from: bytes)
            guard ogg_sync_wrote(sync, bytes.count) == 0 else { throw .libogg("ogg_sync_wrote") }
        }
        var packets: [[UInt8]] = []
        var page = ogg_page()
        while true {
            let result = ogg_sync_pageout(sync, &page)
            if result == 0 { break }
            if result < 0 {
                syncLosses += 1
                continue
            }
            pages += 1
            try accept(&page, into: &packets)
        }
        return packets
    }

    private func accept(_ page: inout ogg_page, into packets: inout [[UInt8]]) throws(OggOpusError) {
        let pageSerial = ogg_page_serialno(&page)
        if ogg_page_bos(&page) != 0, serial == nil || endOfStream {
            if serial != nil { ogg_stream_clear(stream) }
            ogg_stream_init(stream, pageSerial)
            serial = pageSerial
            headerPackets = 0
            sawTags = false
            endOfStream = false
        }
        guard pageSerial == serial else {
            foreignPages += 1
            return
        }
        guard ogg_stream_pagein(stream, &page) == 0 else { throw .libogg("ogg_stream_pagein") }
        var packet = ogg_packet()
        while true {
            let result = ogg_stream_packetout(stream, &packet)
            if result == 0 { break }
            if result < 0 { continue }  // a gap (lost page); the next packet is still usable
            let bytes = packet.bytes > 0 ? Array(UnsafeBufferPointer(start: packet.packet, count: packet.bytes)) : []
            switch headerPackets {
            case 0:
                head = try OpusHead(packet: bytes)
                headerPackets = 1
            case 1:
                guard bytes.starts(with: Array("OpusTags".utf8)) else { throw .missingOpusTags }
                sawTags = true
                headerPackets = 2
            default:
                guard !bytes.isEmpty else { continue }  // 0-byte packets are not Opus (e.g. an EOS marker)
                audioPackets += 1
                packets.append(bytes)
            }
        }
        if ogg_page_granulepos(&page) >= 0 { lastGranulePosition = ogg_page_granulepos(&page) }
        if ogg_page_eos(&page) != 0 { endOfStream = true }
    }
}
