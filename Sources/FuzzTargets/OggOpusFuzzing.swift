import WireAudio

enum OggOpusFuzzing {
    /// Feeds the bytes to the demuxer in pieces whose sizes the first byte picks, decodes every
    /// packet it returns, and runs the container sniffers and the Opus packet parser.
    static func run(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        _ = AudioContainer.detect(body)
        _ = OpusFraming.detect(prefix: body)
        _ = OpusDecoder.sampleCount(ofPacket: body, sampleRate: 16000)
        let demuxer = OggOpusDemuxer()
        let pieceSize = Int(first) + 1
        let decoder = try? OpusDecoder(sampleRate: 16000)
        var start = 0
        while start < body.count {
            let end = min(start + pieceSize, body.count)
            guard let packets = try? demuxer.feed(body[start..<end]) else { return }
            for packet in packets { _ = try? decoder?.decode(packet) }
            start = end
        }
    }
}
