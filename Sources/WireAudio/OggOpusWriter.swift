internal import COgg

/// Writes an Ogg Opus stream (RFC 7845) from Opus packets, for fixtures and test clients.
///
/// The headers go out first, each on its own page. Audio pages are cut by libogg (about 4 KB)
/// unless `flushEveryPacket` is set, which puts each packet on its own page — what a low-latency
/// streaming client does. Granule positions count 48 kHz samples including `preSkip`. Owns its
/// libogg state (freed in `deinit`); not thread-safe.
package final class OggOpusWriter {
    /// The identification header written at the start.
    package let head: OpusHead
    /// Whether every audio packet is flushed to its own page.
    package let flushEveryPacket: Bool

    private let stream: UnsafeMutablePointer<ogg_stream_state>
    private var packetNumber: Int64 = 0
    private var granule: Int64
    private var pending: [UInt8] = []
    private var finished = false

    /// Creates a writer and queues the `OpusHead` and `OpusTags` pages.
    /// - Parameters:
    ///   - head: the identification header (`preSkip` is usually the encoder lookahead at 48 kHz).
    ///   - serialNumber: the logical stream's serial number.
    ///   - vendor: the `OpusTags` vendor string.
    ///   - flushEveryPacket: one page per audio packet.
    package init(
        head: OpusHead, serialNumber: Int32 = 0x4F_70_75_73, vendor: String = "DialogMock WireAudio",
        flushEveryPacket: Bool = false
    ) {
        self.head = head
        self.flushEveryPacket = flushEveryPacket
        self.granule = Int64(head.preSkip)
        stream = .allocate(capacity: 1)
        ogg_stream_init(stream, serialNumber)
        submit(head.packet, granule: 0, beginning: true, end: false)
        drain(flush: true)
        submit(OpusHead.tagsPacket(vendor: vendor), granule: 0, beginning: false, end: false)
        drain(flush: true)
    }

    deinit {
        ogg_stream_clear(stream)
        stream.deallocate()
    }

    /// Adds one Opus packet and returns the bytes of any pages completed (headers come first).
    /// - Parameter samples48k: the packet's duration in 48 kHz samples, e.g. 960 for 20 ms.
    package func write(packet: [UInt8], samples48k: Int) -> [UInt8] {
        precondition(!finished, "OggOpusWriter used after finish()")
        granule += Int64(samples48k)
        submit(packet, granule: granule, beginning: false, end: false)
        drain(flush: flushEveryPacket)
        return takePending()
    }

    /// Ends the stream: marks the last page end-of-stream and returns all remaining bytes.
    /// With no audio packets, an empty end-of-stream packet closes the stream.
    package func finish() -> [UInt8] {
        guard !finished else { return [] }
        finished = true
        submit([], granule: granule, beginning: false, end: true)
        drain(flush: true)
        return takePending()
    }

    /// Writes all `packets` (durations from their TOC bytes) and finishes: a complete file.
    package static func stream(head: OpusHead, packets: [[UInt8]], flushEveryPacket: Bool = false) -> [UInt8] {
        let writer = OggOpusWriter(head: head, flushEveryPacket: flushEveryPacket)
        var out: [UInt8] = []
        for packet in packets {
            out += writer.write(
                packet: packet, samples48k: OpusDecoder.sampleCount(ofPacket: packet, sampleRate: 48000) ?? 960)
        }
        return out + writer.finish()
    }

    private func submit(_ bytes: [UInt8], granule: Int64, beginning: Bool, end: Bool) {
        var copy = bytes
        copy.withUnsafeMutableBufferPointer { buffer in
            var packet = ogg_packet()
            packet.packet = buffer.baseAddress
            packet.bytes = buffer.count
            packet.b_o_s = beginning ? 1 : 0
            packet.e_o_s = end ? 1 : 0
            packet.granulepos = granule
            packet.packetno = packetNumber
            precondition(ogg_stream_packetin(stream, &packet) == 0, "ogg_stream_packetin failed")
        }
        packetNumber += 1
    }

    private func drain(flush: Bool) {
        var page = ogg_page()
        while (flush ? ogg_stream_flush(stream, &page) : ogg_stream_pageout(stream, &page)) != 0 {
            pending += UnsafeBufferPointer(start: page.header, count: page.header_len)
            pending += UnsafeBufferPointer(start: page.body, count: page.body_len)
        }
    }

    /// Returns and clears the bytes of pages completed so far (e.g. the header pages right after `init`).
    package func takePending() -> [UInt8] {
        defer { pending = [] }
        return pending
    }
}
