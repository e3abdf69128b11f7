import Glibc
import ProtocolModel
import Testing
import WireJSON

/// `AudioLevel`: RMS and peak of s16 samples in dBFS (one decimal), and its journal JSON.
@Suite struct AudioLevelTests {
    private func level(_ samples: [Int16]) -> AudioLevel? {
        samples.withUnsafeBufferPointer { AudioLevel(samples: $0) }
    }

    @Test func noSamplesHaveNoLevelAndSilenceIsTheFloor() {
        #expect(level([]) == nil)
        #expect(AudioLevel(littleEndianPCM: UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
        [UInt8](repeating: 0, count: 1).withUnsafeBytes { #expect(AudioLevel(littleEndianPCM: $0) == nil) }
        #expect(level([0, 0, 0, 0]) == AudioLevel(rmsDb: AudioLevel.floorDb, peakDb: AudioLevel.floorDb))
    }

    @Test func fullScaleSquareIsZeroAndALouderFrameMeasuresHigher() throws {
        let square = try #require(level((0..<320).map { $0 % 40 < 20 ? Int16.max : Int16.min }))
        #expect(square.rmsDb == 0 && square.peakDb == 0)
        // A square wave at a tenth of full scale: −20 dB.
        let quiet = try #require(level((0..<320).map { $0 % 40 < 20 ? 3277 : -3277 }))
        #expect(quiet == AudioLevel(rmsDb: -20, peakDb: -20))
        // A sine's RMS is 3 dB below its peak.
        let sine = try #require(level((0..<1600).map { Int16(16384 * sin(Double($0) * 2 * .pi / 32)) }))
        #expect(sine.peakDb == -6 && sine.rmsDb == -9)
        let faint = try #require(level([1, -1, 0, 0]))
        #expect(faint.rmsDb < quiet.rmsDb && faint.rmsDb > AudioLevel.floorDb)
    }

    @Test func littleEndianBytesAlignedOrNotMeasureLikeTheirSamples() throws {
        let samples: [Int16] = [1000, -2000, 3000, -32768, 7]
        var bytes: [UInt8] = [0xFF]  // a leading byte makes the samples start unaligned
        for sample in samples { bytes += [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)] }
        bytes.append(0x12)  // and a trailing odd byte is ignored
        let expected = try #require(level(samples))
        #expect(expected.peakDb == 0)
        bytes.withUnsafeBytes { raw in
            #expect(AudioLevel(littleEndianPCM: UnsafeRawBufferPointer(rebasing: raw.dropFirst())) == expected)
            #expect(
                AudioLevel(littleEndianPCM: UnsafeRawBufferPointer(rebasing: raw.dropFirst().dropLast())) == expected)
        }
    }

    /// The optimised build's SIMD pass and the debug build's loop agree (both run here).
    @Test func theVectorAndScalarPassesAgree() {
        // A fixed pseudo-random sequence (64-bit LCG), so a failure reproduces.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int16 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(truncatingIfNeeded: state >> 48)
        }
        for count in [1, 7, 8, 9, 320, 1601, 48_000] {
            var samples = (0..<count).map { _ in next() }
            if count > 8 { samples[count / 2] = .min }
            samples.withUnsafeBufferPointer { buffer in
                let scalar = AudioLevel.scalarSums(buffer)
                let vector = AudioLevel.vectorSums(buffer)
                #expect(vector.peak == scalar.peak, "\(count) samples")
                #expect(abs(vector.squares - scalar.squares) <= scalar.squares * 1e-5, "\(count) samples")
            }
        }
        #expect(AudioLevel.vectorSums(UnsafeBufferPointer(start: nil, count: 0)) == (0, 0))
    }

    @Test func theJournalWritesAndReadsTheLevel() throws {
        var entry = JournalEntry.binaryFrame(
            t: 5, .in, byteLength: 640, audio: AudioSummary(codec: "pcm", durationMs: 20, sampleRate: 16000))
        // Without a level the summary has no "level" member.
        #expect(entry.jsonValue["audio"]?["level"] == nil)
        entry.audio?.level = AudioLevel(rmsDb: -23.45, peakDb: -6.04)
        let json = entry.jsonValue
        #expect(json["audio"]?["level"] == ["rmsDb": .double(-23.5), "peakDb": .double(-6)])
        #expect(try JournalEntry(jsonValue: json) == entry)
        var broken = json.objectValue ?? [:]
        broken["audio"] = ["codec": "pcm", "durationMs": 20, "level": ["rmsDb": -3]]
        #expect(throws: JournalDecodingError.self) { try JournalEntry(jsonValue: .object(broken)) }
    }
}
