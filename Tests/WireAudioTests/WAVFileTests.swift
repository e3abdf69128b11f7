import Foundation
import Testing

@testable import WireAudio

@Suite struct WAVFileTests {
    @Test func readsEspeakFixture() throws {
        let speech = try TestAudio.wav("speech-16k.wav")
        #expect(speech.sampleRate == 16000)
        #expect(speech.duration > 1.5 && speech.duration < 2.5)
        #expect(speech.peak > 0.5)
    }

    @Test func writeReadRoundTrip() throws {
        let tone = TestAudio.tone(hz: 440, seconds: 0.25, rate: 24000)
        let bytes = WAVFile.encode(tone)
        #expect(bytes.count == 44 + tone.count * 2)
        #expect(try WAVFile.decode(bytes) == tone)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wireaudio-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try WAVFile.write(tone, to: path)
        #expect(try WAVFile.read(path: path) == tone)
    }

    @Test func skipsUnknownChunksAndDownmixesStereo() throws {
        // RIFF header, odd-sized LIST chunk (with pad byte), stereo fmt, fact chunk, data.
        var bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        bytes += Array("LIST".utf8) + [3, 0, 0, 0, 1, 2, 3, 0]
        bytes += Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0, 2, 0] + le32(8000) + le32(32000) + [4, 0, 16, 0]
        bytes += Array("fact".utf8) + [4, 0, 0, 0, 9, 9, 9, 9]
        bytes += Array("data".utf8) + le32(8) + [100, 0, 200, 0, 0xFF, 0xFF, 0xFD, 0xFF]  // (100,200), (-1,-3)
        let buffer = try WAVFile.decode(bytes)
        #expect(buffer.sampleRate == 8000)
        #expect(buffer.samples == [150, -2])
    }

    @Test func rejectsBadInputWithClearErrors() {
        let good = WAVFile.encode(TestAudio.tone(hz: 440, seconds: 0.1, rate: 16000))
        #expect(throws: WAVError.notRIFFWave) { try WAVFile.decode(Array("OggS....".utf8)) }
        #expect(throws: WAVError.truncated(expectedBytes: good.count, availableBytes: good.count - 100)) {
            try WAVFile.decode(Array(good.dropLast(100)))
        }
        var float = good
        float[20] = 3  // IEEE float
        #expect(throws: WAVError.unsupportedFormat(formatTag: 3)) { try WAVFile.decode(float) }
        var eightBit = good
        eightBit[34] = 8
        #expect(throws: WAVError.unsupportedLayout(channels: 1, bitsPerSample: 8)) { try WAVFile.decode(eightBit) }
        #expect(throws: WAVError.missingFormatChunk) { try WAVFile.decode(Array(good[0..<12]) + Array(good[36...])) }
        #expect(throws: WAVError.truncated(expectedBytes: 36, availableBytes: 26)) {
            try WAVFile.decode(Array(good[0..<26]))
        }
        #expect(throws: WAVError.self) { try WAVFile.read(path: "/nonexistent/x.wav") }
        #expect(WAVError.unsupportedFormat(formatTag: 3).description.contains("not integer PCM"))
    }

    private func le32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
