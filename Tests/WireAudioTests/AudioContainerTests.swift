import Testing

@testable import WireAudio

/// Containers sent where raw PCM was declared are recognised; raw PCM is not mistaken for one.
@Suite struct AudioContainerTests {
    @Test func oggPagesAndWAVFilesAreRecognised() throws {
        let speech = TestAudio.tone(hz: 220, seconds: 0.2, rate: 16000)
        let packets = try OpusEncoder(sampleRate: 16000).encode(speech)
        let writer = OggOpusWriter(head: OpusHead(inputSampleRate: 16000), flushEveryPacket: true)
        #expect(AudioContainer.detect(writer.takePending()) == .ogg)
        for packet in packets { #expect(AudioContainer.detect(writer.write(packet: packet, samples48k: 960)) == .ogg) }
        #expect(AudioContainer.detect(WAVFile.encode(speech)) == .wav)
    }

    @Test func rawPCMIsNeverAContainer() {
        var seed: UInt64 = 3
        for _ in 0..<2_000 {
            let frame = (0..<3200).map { _ -> UInt8 in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: seed >> 56)
            }
            #expect(AudioContainer.detect(frame) == nil)
        }
        // PCM that happens to begin with the capture pattern, but whose "page" does not add up.
        var lookalike =
            Array("OggS".utf8) + [0, 0] + [UInt8](repeating: 0, count: 20) + [255] + [UInt8](repeating: 255, count: 300)
        lookalike += [UInt8](repeating: 7, count: 100)
        #expect(AudioContainer.detect(lookalike) == nil)
        #expect(AudioContainer.detect(TestAudio.tone(hz: 440, seconds: 0.1, rate: 16000).littleEndianBytes) == nil)
    }
}
