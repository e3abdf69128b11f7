import Glibc

/// The loudness of one audio payload in dBFS, rounded to 0.1 dB: RMS and peak of its s16
/// samples, full scale being 32768 (a full-scale square wave is 0 dBFS RMS, as
/// `PCMBuffer.dBFS` measures). Digital silence is ``floorDb``.
package struct AudioLevel: Sendable, Hashable {
    /// The level of silence (and the lowest level reported): below the quietest non-zero s16
    /// signal (−90.3 dBFS).
    package static let floorDb = -100.0

    /// RMS level in dBFS.
    package var rmsDb: Double
    /// Peak absolute sample in dBFS.
    package var peakDb: Double

    /// A level as given (rounded to 0.1 dB, at least ``floorDb``).
    package init(rmsDb: Double, peakDb: Double) {
        self.rmsDb = Self.rounded(rmsDb)
        self.peakDb = Self.rounded(peakDb)
    }

    /// The level of `samples` in one pass of integer arithmetic; nil when there are none. (An
    /// index loop over the pointer with wrapping operators: it runs on the service thread for
    /// every audio frame, and stays cheap even unoptimised.)
    package init?(samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return nil }
        let count = samples.count
        var squares = 0
        var lowest = 0
        var highest = 0
        var index = 0
        while index < count {
            let value = Int(base[index])
            squares &+= value &* value
            if value > highest { highest = value }
            if value < lowest { lowest = value }
            index &+= 1
        }
        let meanSquare = Double(squares) / Double(count)
        let peak = Double(Swift.max(highest, -lowest))
        self.init(rmsDb: 10 * log10(meanSquare / (32768 * 32768)), peakDb: 20 * log10(peak / 32768))
    }

    /// The level of little-endian s16 PCM bytes (a trailing odd byte is ignored); nil when they
    /// hold no whole sample.
    package init?(littleEndianPCM bytes: UnsafeRawBufferPointer) {
        let whole = UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count / 2 * 2)])
        #if _endian(little)
            if UInt(bitPattern: whole.baseAddress) % UInt(MemoryLayout<Int16>.alignment) == 0 {
                guard let level = whole.withMemoryRebound(to: Int16.self, { AudioLevel(samples: $0) }) else {
                    return nil
                }
                self = level
                return
            }
        #endif
        let samples = stride(from: 0, to: whole.count, by: 2).map {
            Int16(bitPattern: UInt16(whole[$0]) | UInt16(whole[$0 + 1]) << 8)
        }
        guard let level = samples.withUnsafeBufferPointer({ AudioLevel(samples: $0) }) else { return nil }
        self = level
    }

    private static func rounded(_ decibels: Double) -> Double {
        guard decibels.isFinite else { return floorDb }
        return max(floorDb, (decibels * 10).rounded() / 10)
    }
}
