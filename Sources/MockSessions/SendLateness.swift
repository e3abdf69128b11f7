/// Send lateness of every frame, in a fixed-size log-linear histogram: exact below 1,024 µs,
/// within 1/64 (1.6 %) above. Its memory does not grow with the frames counted (a long soak or
/// load run once filled an 8 MB array of raw samples).
package struct SendLateness: Sendable, Equatable {
    /// Values below this are counted exactly, one bucket each.
    package static let exactBelow: Int64 = 1024
    /// Sub-buckets per power of two above `exactBelow`.
    package static let subBucketBits = 6
    private static let exactBits = 10  // log2(exactBelow)
    private static let bucketCount = Int(exactBelow) + (63 - exactBits) << subBucketBits

    private var counts: [Int]
    /// Frames counted.
    package private(set) var count = 0
    /// The latest frame, exactly (µs).
    package private(set) var maxMicros: Int64 = 0

    package init() { counts = [Int](repeating: 0, count: Self.bucketCount) }

    /// Counts one frame that left `micros` late (an early frame counts as 0).
    package mutating func record(_ micros: Int64) {
        let value = max(0, micros)
        counts[Self.bucket(of: value)] += 1
        count += 1
        if value > maxMicros { maxMicros = value }
    }

    package static func bucket(of value: Int64) -> Int {
        if value < exactBelow { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount  // ≥ exactBits
        let sub = Int(value >> (exponent - subBucketBits)) & ((1 << subBucketBits) - 1)
        return Int(exactBelow) + (exponent - exactBits) << subBucketBits + sub
    }

    /// The largest value bucket `index` holds.
    package static func upperBound(of index: Int) -> Int64 {
        if index < Int(exactBelow) { return Int64(index) }
        let offset = index - Int(exactBelow)
        let exponent = offset >> subBucketBits + exactBits
        let sub = Int64(offset & ((1 << subBucketBits) - 1))
        let width = Int64(1) << (exponent - subBucketBits)
        return (Int64(1) << exponent) + (sub + 1) * width - 1
    }

    /// Nearest-rank percentile (`p` in 0…1), in µs: exact below 1,024 µs, otherwise the upper
    /// bound of its bucket (never more than the maximum). 0 when nothing was counted.
    package func percentile(_ p: Double) -> Int64 {
        guard count > 0 else { return 0 }
        let rank = min(count, max(1, Int((p * Double(count)).rounded(.up))))
        var seen = 0
        for (index, n) in counts.enumerated() where n > 0 {
            seen += n
            if seen >= rank { return min(Self.upperBound(of: index), maxMicros) }
        }
        return maxMicros
    }
}
