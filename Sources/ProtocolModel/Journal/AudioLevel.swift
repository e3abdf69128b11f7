import Glibc

/// The loudness of one audio payload in dBFS, rounded to 0.1 dB: RMS and peak of its s16
/// samples, full scale being 32768 (a full-scale square wave is 0 dBFS RMS, as
/// `PCMBuffer.dBFS` measures). Digital silence is ``floorDb``.
package struct AudioLevel: Sendable, Hashable {
    /// The level of silence (and the lowest level reported): below the quietest non-zero s16
    /// signal (−90.3 dBFS).
    package static let floorDb = -100.0

    /// RMS level in dBFS.
    package var rmsDb: Double { Double(rmsTenths) / 10 }
    /// Peak absolute sample in dBFS.
    package var peakDb: Double { Double(peakTenths) / 10 }

    // Tenths of a dB: every frame's journal entry holds one, so it stays four bytes.
    private var rmsTenths: Int16
    private var peakTenths: Int16

    /// A level as given (rounded to 0.1 dB, at least ``floorDb``).
    package init(rmsDb: Double, peakDb: Double) {
        rmsTenths = Self.tenths(rmsDb)
        peakTenths = Self.tenths(peakDb)
    }

    /// The level of `samples` in one pass; nil when there are none. It runs on the service
    /// thread for every audio frame, so the pass is the cheapest the build allows: SIMD lanes in
    /// an optimised build, a plain integer loop in a debug build (where SIMD code is slow).
    package init?(samples: UnsafeBufferPointer<Int16>) {
        guard !samples.isEmpty else { return nil }
        #if DEBUG
            let (squares, peak) = Self.scalarSums(samples)
        #else
            let (squares, peak) = Self.vectorSums(samples)
        #endif
        let meanSquare = squares / Double(samples.count)
        self.init(rmsDb: 10 * log10(meanSquare / (32768 * 32768)), peakDb: 20 * log10(Double(peak) / 32768))
    }

    /// The sum of the squared samples and the largest magnitude, one sample at a time.
    package static func scalarSums(_ samples: UnsafeBufferPointer<Int16>) -> (squares: Double, peak: Int) {
        guard let base = samples.baseAddress else { return (0, 0) }
        var squares = 0
        var lowest = 0
        var highest = 0
        var index = 0
        while index < samples.count {
            let value = Int(base[index])
            squares &+= value &* value
            if value > highest { highest = value }
            if value < lowest { lowest = value }
            index &+= 1
        }
        return (Double(squares), Swift.max(highest, -lowest))
    }

    /// ``scalarSums(_:)`` eight samples at a time: squares summed in `Float` lanes (exact to
    /// about 1e-6 relative, far below the 0.1 dB the level keeps), extremes in `Int16` lanes.
    package static func vectorSums(_ samples: UnsafeBufferPointer<Int16>) -> (squares: Double, peak: Int) {
        guard let base = samples.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        var squares = SIMD8<Float>()
        var highest = SIMD8<Int16>()
        var lowest = SIMD8<Int16>()
        var index = 0
        while index &+ 8 <= samples.count {
            let values = raw.loadUnaligned(fromByteOffset: index &* 2, as: SIMD8<Int16>.self)
            let wide = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: values))
            squares = squares + wide * wide
            highest = pointwiseMax(highest, values)
            lowest = pointwiseMin(lowest, values)
            index &+= 8
        }
        let (tail, tailPeak) = scalarSums(UnsafeBufferPointer(rebasing: samples[index...]))
        let peak = Swift.max(Int(highest.max()), -Int(lowest.min()), tailPeak)
        return (Double(squares.sum()) + tail, peak)
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

    /// Both levels in four bytes (RMS tenths high, peak tenths low), as a journal keeps them.
    package var packed: UInt32 {
        UInt32(UInt16(bitPattern: rmsTenths)) << 16 | UInt32(UInt16(bitPattern: peakTenths))
    }

    /// The level whose ``packed`` form is `packed`.
    package init(packed: UInt32) {
        rmsTenths = Int16(bitPattern: UInt16(truncatingIfNeeded: packed >> 16))
        peakTenths = Int16(bitPattern: UInt16(truncatingIfNeeded: packed))
    }

    private static func tenths(_ decibels: Double) -> Int16 {
        guard decibels.isFinite else { return Int16(floorDb * 10) }
        return Int16((min(3000, max(floorDb, decibels)) * 10).rounded())
    }
}
