import ProtocolModel
package import ScenarioEngine
package import WireAudio

/// Cuts answer PCM into the frames of an encoding, along the cadence's chunks.
///
/// `pcm`: one s16le slice per cadence chunk; `wav`: the same, the first led by the file header.
/// `mp3`: one LAME stream over the answer, the bytes ready after each chunk (a chunk that
/// completes no MP3 frame is merged into the next).
/// `opus`: one Ogg Opus stream (header pages in the first frame, one page per packet).
/// `raw-opus`: one bare packet per binary frame. Opus packets are `frame_size` long when that is
/// an Opus frame duration (10/20/40/60 ms); 100 and 120 ms become 20 ms packets.
package enum AnswerEncoder {
    package typealias Frame = RenderedAnswer.Frame

    /// Encodes `pcm` along `chunks` (the scenario's audio cadence).
    /// - Throws: the codec's error (LAME or libopus) if it rejects the settings.
    package static func encode(
        _ pcm: PCMBuffer, chunks: [AudioCadence.Chunk], encoding: AnswerAudioKey.Encoding
    ) throws -> [Frame] {
        guard !pcm.isEmpty, !chunks.isEmpty else { return [] }
        let slices = chunks.map { chunk in
            let start = min(pcm.count, sampleIndex(chunk.audioOffsetMicros, pcm.sampleRate))
            let end =
                chunk == chunks.last
                ? pcm.count
                : min(pcm.count, sampleIndex(chunk.audioOffsetMicros + chunk.durationMicros, pcm.sampleRate))
            return (chunk.sendOffsetMicros, pcm.slice(samples: start..<max(start, end)))
        }
        switch encoding {
        case .pcm:
            return slices.map { offset, slice in
                Frame(
                    sendOffsetMicros: offset, bytes: slice.littleEndianBytes,
                    level: slice.samples.withUnsafeBufferPointer { AudioLevel(samples: $0) })
            }
        case .wav:
            var frames = try encode(pcm, chunks: chunks, encoding: .pcm)
            frames[0].bytes =
                WAVFile.streamHeader(sampleRate: pcm.sampleRate, dataBytes: pcm.count * 2) + frames[0].bytes
            return frames
        case .mp3:
            let encoder = try MP3Encoder(sampleRate: pcm.sampleRate)
            var frames: [Frame] = []
            var carry: [UInt8] = []
            for (index, (offset, slice)) in slices.enumerated() {
                carry += try encoder.encode(slice)
                if index == slices.count - 1 { carry += try encoder.flush() }
                guard !carry.isEmpty else { continue }
                frames.append(Frame(sendOffsetMicros: offset, bytes: carry))
                carry = []
            }
            return frames
        case .oggOpus(let frameMs, let kbps):
            return try encodeOpus(pcm, slices: slices.map(\.0), chunks: chunks, frameMs: frameMs, kbps: kbps, ogg: true)
        case .rawOpus(let frameMs, let kbps):
            return try encodeOpus(
                pcm, slices: slices.map(\.0), chunks: chunks, frameMs: frameMs, kbps: kbps, ogg: false)
        }
    }

    private static func encodeOpus(
        _ pcm: PCMBuffer, slices offsets: [Int64], chunks: [AudioCadence.Chunk],
        frameMs: Int, kbps: Int, ogg: Bool
    ) throws -> [Frame] {
        let duration = (try? OpusFrameDuration(milliseconds: Double(frameMs))) ?? .ms20
        let encoder = try OpusEncoder(sampleRate: pcm.sampleRate, frameDuration: duration, bitrate: kbps * 1000)
        let packets = try encoder.encode(pcm)
        let packetMicros = Int64(duration.rawValue) * 100
        let samples48k = duration.samples(atRate: 48000)
        let writer =
            ogg
            ? OggOpusWriter(
                head: OpusHead(inputSampleRate: pcm.sampleRate).withPreSkip(encoder.lookahead * 48000 / pcm.sampleRate),
                flushEveryPacket: true)
            : nil
        var frames: [Frame] = []
        var pending: [UInt8] = writer?.takePending() ?? []
        for (index, packet) in packets.enumerated() {
            let audioOffset = Int64(index) * packetMicros
            let chunkIndex = chunks.lastIndex { $0.audioOffsetMicros <= audioOffset } ?? 0
            let offset = offsets[chunkIndex]
            if let writer {
                pending += writer.write(packet: packet, samples48k: samples48k)
                if index == packets.count - 1 { pending += writer.finish() }
                let nextChunk =
                    index + 1 < packets.count
                    ? (chunks.lastIndex { $0.audioOffsetMicros <= audioOffset + packetMicros } ?? 0) : -1
                if nextChunk != chunkIndex {
                    frames.append(Frame(sendOffsetMicros: offset, bytes: pending))
                    pending = []
                }
            } else {
                frames.append(Frame(sendOffsetMicros: offset, bytes: packet))
            }
        }
        return frames
    }

    private static func sampleIndex(_ micros: Int64, _ rate: Int) -> Int {
        Int(micros * Int64(rate) / 1_000_000)
    }
}

extension OpusHead {
    /// A copy with `preSkip` set (the encoder's lookahead at 48 kHz).
    func withPreSkip(_ samples: Int) -> OpusHead {
        var copy = self
        copy.preSkip = samples
        return copy
    }
}
