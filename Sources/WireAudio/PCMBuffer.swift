/// Signed 16-bit mono PCM samples with their sample rate: the common currency of WireAudio.
///
/// Wire bytes are little-endian (`s16le`), as both dialog protocols send them. Time-based
/// operations round to whole samples, so slicing is sample-accurate.
package struct PCMBuffer: Sendable, Equatable {
    /// The samples, one per frame (mono).
    package var samples: [Int16]
    /// Samples per second, e.g. 16000.
    package let sampleRate: Int

    /// Creates a buffer from samples.
    /// - Parameters:
    ///   - samples: mono s16 samples.
    ///   - sampleRate: samples per second; must be positive.
    package init(samples: [Int16] = [], sampleRate: Int) {
        precondition(sampleRate > 0, "sample rate must be positive")
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Creates a buffer from little-endian s16 bytes. A trailing odd byte is ignored.
    package init(littleEndianBytes bytes: some Collection<UInt8>, sampleRate: Int) {
        if let samples = bytes.withContiguousStorageIfAvailable(Self.samples(littleEndian:)) {
            self.init(samples: samples, sampleRate: sampleRate)
            return
        }
        var samples: [Int16] = []
        samples.reserveCapacity(bytes.count / 2)
        var iterator = bytes.makeIterator()
        while let low = iterator.next(), let high = iterator.next() {
            samples.append(Int16(bitPattern: UInt16(low) | UInt16(high) << 8))
        }
        self.init(samples: samples, sampleRate: sampleRate)
    }

    /// A buffer of `milliseconds` of digital silence.
    package static func silence(milliseconds: Int, sampleRate: Int) -> PCMBuffer {
        PCMBuffer(samples: [Int16](repeating: 0, count: sampleRate * milliseconds / 1000), sampleRate: sampleRate)
    }

    /// Samples from contiguous little-endian s16 bytes in one pass (a trailing odd byte ignored).
    private static func samples(littleEndian bytes: UnsafeBufferPointer<UInt8>) -> [Int16] {
        let count = bytes.count / 2
        return [Int16](unsafeUninitializedCapacity: count) { output, initialized in
            for index in 0..<count {
                output[index] = Int16(bitPattern: UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8)
            }
            initialized = count
        }
    }

    /// The samples as little-endian s16 bytes (2 bytes per sample).
    package var littleEndianBytes: [UInt8] {
        samples.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: input.count * 2) { output, initialized in
                for (index, sample) in input.enumerated() {
                    let bits = UInt16(bitPattern: sample)
                    output[2 * index] = UInt8(truncatingIfNeeded: bits)
                    output[2 * index + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                }
                initialized = input.count * 2
            }
        }
    }

    /// Number of samples.
    package var count: Int { samples.count }

    /// True when there are no samples.
    package var isEmpty: Bool { samples.isEmpty }

    /// Duration in seconds.
    package var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// Duration in whole milliseconds (rounded down).
    package var durationMs: Int { samples.count * 1000 / sampleRate }

    /// The sample index at `milliseconds`, clamped to `0...count`.
    package func sampleIndex(atMs milliseconds: Int) -> Int {
        min(max(0, milliseconds * sampleRate / 1000), samples.count)
    }

    /// Appends the samples of `other`, which must have the same sample rate.
    package mutating func append(_ other: PCMBuffer) {
        precondition(other.sampleRate == sampleRate, "cannot append \(other.sampleRate) Hz to \(sampleRate) Hz")
        samples.append(contentsOf: other.samples)
    }

    /// Appends raw samples.
    package mutating func append(contentsOf newSamples: some Sequence<Int16>) {
        samples.append(contentsOf: newSamples)
    }

    /// The samples between `fromMs` (inclusive) and `toMs` (exclusive), clamped to the buffer.
    package func slice(fromMs: Int, toMs: Int) -> PCMBuffer {
        let start = sampleIndex(atMs: fromMs)
        let end = max(start, sampleIndex(atMs: toMs))
        return PCMBuffer(samples: Array(samples[start..<end]), sampleRate: sampleRate)
    }

    /// The samples in `range` of sample indices, clamped to the buffer.
    package func slice(samples range: Range<Int>) -> PCMBuffer {
        let lower = min(max(0, range.lowerBound), samples.count)
        let upper = min(max(lower, range.upperBound), samples.count)
        return PCMBuffer(samples: Array(samples[lower..<upper]), sampleRate: sampleRate)
    }
}
