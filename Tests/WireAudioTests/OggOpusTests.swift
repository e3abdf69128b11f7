import Testing

@testable import WireAudio

@Suite struct OggOpusTests {
    static func speechPackets() throws -> (packets: [[UInt8]], lookahead: Int) {
        let speech = try TestAudio.wav("speech-16k.wav")
        let encoder = try OpusEncoder(sampleRate: 16000, frameDuration: .ms20, bitrate: 24000)
        return (try encoder.encode(speech), encoder.lookahead)
    }

    @Test(arguments: [false, true])
    func incrementalDemuxInRandomChunksGivesSamePackets(flushEveryPacket: Bool) throws {
        let (packets, lookahead) = try Self.speechPackets()
        let head = OpusHead(preSkip: lookahead * 3, inputSampleRate: 16000)
        let stream = OggOpusWriter.stream(head: head, packets: packets, flushEveryPacket: flushEveryPacket)
        #expect(OpusFraming.detect(prefix: stream) == .ogg)
        var random = SeededGenerator(seed: 42)
        let demuxer = OggOpusDemuxer()
        var received: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let size = Int(random.next() % 700) + 1  // 1…700-byte WebSocket frames
            received += try demuxer.feed(stream[offset..<min(offset + size, stream.count)])
            offset += size
        }
        #expect(received.count == packets.count)
        #expect(received == packets, "packets differ")
        #expect(demuxer.head == head)
        #expect(demuxer.sawTags)
        #expect(demuxer.endOfStream)
        #expect(demuxer.syncLosses == 0)
        #expect(demuxer.lastGranulePosition == Int64(head.preSkip + packets.count * 960))
        if flushEveryPacket { #expect(demuxer.pages == packets.count + 3) }  // head, tags, audio…, EOS
    }

    @Test func writerEmitsHeadersFirstAndDecodes() throws {
        let (packets, lookahead) = try Self.speechPackets()
        let writer = OggOpusWriter(
            head: OpusHead(preSkip: lookahead * 3, inputSampleRate: 16000), flushEveryPacket: true)
        let headers = writer.takePending()
        #expect(headers.starts(with: Array("OggS".utf8)))
        let demuxer = OggOpusDemuxer()
        #expect(try demuxer.feed(headers).isEmpty)
        #expect(demuxer.head?.inputSampleRate == 16000)
        let page = writer.write(packet: packets[0], samples48k: 960)
        #expect(try demuxer.feed(page) == [packets[0]])
        let decoder = try OpusDecoder(sampleRate: 16000, channels: demuxer.head?.channels ?? 1)
        #expect(try decoder.decode(packets[0]).count == 320)
    }

    @Test func garbageAndNonOpusStreams() throws {
        let (packets, _) = try Self.speechPackets()
        let stream = OggOpusWriter.stream(
            head: OpusHead(inputSampleRate: 16000), packets: Array(packets.prefix(5)), flushEveryPacket: true)
        let demuxer = OggOpusDemuxer()
        var received = try demuxer.feed(Array(stream.prefix(200)))
        received += try demuxer.feed(Array("garbage!".utf8))
        received += try demuxer.feed(Array(stream.dropFirst(200)))
        #expect(demuxer.syncLosses >= 1)
        #expect(!received.isEmpty && received.count <= 5)

        var notOpus = OggOpusWriter.stream(head: OpusHead(inputSampleRate: 16000), packets: [])
        let index = try #require(notOpus.firstIndex(of: UInt8(ascii: "H")))  // "OpusHead" → "OpusXead"
        notOpus[index] = UInt8(ascii: "X")
        let corrupt = OggOpusDemuxer()
        #expect(try corrupt.feed(notOpus).isEmpty)
        #expect(corrupt.syncLosses >= 1 && corrupt.head == nil)  // the CRC no longer matches: page dropped
    }

    @Test func framingDetection() {
        #expect(OpusFraming.detect(prefix: Array("OggS\0\u{2}".utf8)) == .ogg)
        #expect(OpusFraming.detect(prefix: [0x48, 0x0B, 0xE4]) == .raw)  // an Opus TOC byte
        #expect(OpusFraming.detect(prefix: Array("Og".utf8)) == nil)
        #expect(OpusFraming.detect(prefix: [UInt8]()) == nil)
    }

    @Test func opusHeadRoundTrip() throws {
        var head = OpusHead(channels: 2, preSkip: 3840, inputSampleRate: 48000)
        head.outputGain = -256
        #expect(try OpusHead(packet: head.packet) == head)
        #expect(throws: OggOpusError.notOpusHead) { try OpusHead(packet: Array("OpusTags".utf8)) }
    }
}
