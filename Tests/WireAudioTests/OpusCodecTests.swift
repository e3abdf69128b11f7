import Testing

@testable import WireAudio

@Suite struct OpusCodecTests {
    @Test func speechRoundTripAt16kHz() throws {
        let speech = try TestAudio.wav("speech-16k.wav")
        let encoder = try OpusEncoder(sampleRate: 16000, frameDuration: .ms20, bitrate: 24000)
        #expect(encoder.frameSamples == 320)
        let packets = try encoder.encode(speech)
        #expect(packets.count == (speech.count + 319) / 320)
        let decoder = try OpusDecoder(sampleRate: 16000)
        let decoded = try decoder.decode(packets: packets)
        #expect(decoded.count == packets.count * 320)
        let (snr, delay) = TestAudio.alignedSNR(reference: speech, decoded: decoded, maxDelay: 400)
        let bytes = packets.reduce(0) { $0 + $1.count }
        print(
            "MEASURE opus 16k 20ms 24kbps: \(packets.count) packets, \(bytes) bytes, lookahead \(encoder.lookahead), "
                + "best delay \(delay), SNR \(snr) dB")
        #expect(abs(delay - encoder.lookahead) <= 8)
        #expect(snr > 8)
    }

    @Test(arguments: OpusFrameDuration.allCases)
    func everyFrameDurationEncodes(duration: OpusFrameDuration) throws {
        let encoder = try OpusEncoder(sampleRate: 48000, frameDuration: duration, complexity: 5)
        let packet = try encoder.encode(
            frame: TestAudio.tone(hz: 440, seconds: duration.milliseconds / 1000, rate: 48000))
        #expect(OpusDecoder.sampleCount(ofPacket: packet, sampleRate: 48000) == duration.samples(atRate: 48000))
    }

    @Test func invalidFrameSizesAndRatesAreClearErrors() throws {
        #expect(throws: OpusError.self) { try OpusFrameDuration(milliseconds: 30) }
        do {
            _ = try OpusFrameDuration(milliseconds: 30)
        } catch {
            #expect(error.code == .OPUS_BAD_ARG)
            #expect(error.description.contains("2.5, 5, 10, 20, 40, 60"))
        }
        let encoder = try OpusEncoder(sampleRate: 16000)
        #expect(throws: OpusError.self) {
            try encoder.encode(frame: PCMBuffer.silence(milliseconds: 30, sampleRate: 16000))
        }
        do {
            _ = try OpusEncoder(sampleRate: 44100)
        } catch {
            #expect(error.code == .OPUS_BAD_ARG)
            #expect(error.message == "invalid argument")
        }
        #expect(throws: OpusError.self) { try OpusEncoder(sampleRate: 16000, bitrate: -5) }
    }

    @Test func concealmentAndCorruptPackets() throws {
        let encoder = try OpusEncoder(sampleRate: 16000, frameDuration: .ms40)
        let decoder = try OpusDecoder(sampleRate: 16000)
        let packets = try encoder.encode(TestAudio.tone(hz: 300, seconds: 0.2, rate: 16000))
        _ = try decoder.decode(packets[0])
        let concealed = try decoder.decode(nil)
        #expect(concealed.count == 640)  // same length as the last packet
        #expect(throws: OpusError.self) { try decoder.decode([0x03, 0x00]) }  // code 3 with a frame count of 0
        #expect(throws: OpusError.self) { try decoder.decode([]) }
    }

    @Test func stereoStreamIsDownmixed() throws {
        let decoder = try OpusDecoder(sampleRate: 48000, channels: 2)
        let encoder = try OpusEncoder(sampleRate: 48000)
        let packet = try encoder.encode(frame: TestAudio.tone(hz: 440, seconds: 0.02, rate: 48000))
        #expect(try decoder.decode(packet).count == 960)  // a mono packet decodes on a stereo decoder
    }
}
