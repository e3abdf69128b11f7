/// Splits audio into equal chunks for paced upload; a short tail (under a fifth of a chunk, or
/// under `minimumBytes`) is merged into the chunk before it, so no chunk is shorter than 20 ms at
/// 100 ms chunks (qrt C8, mmd C9) or, with `minimumBytes`, than the protocol's shortest (qal C6).
package enum AudioChunker {
    /// Byte ranges of the chunks of `count` bytes with chunks of `chunkBytes` (even).
    package static func ranges(count: Int, chunkBytes: Int, minimumBytes: Int = 0) -> [Range<Int>] {
        let size = max(2, chunkBytes - chunkBytes % 2)
        var ranges: [Range<Int>] = []
        var offset = 0
        while offset < count {
            let end = min(count, offset + size)
            ranges.append(offset..<end)
            offset = end
        }
        if ranges.count >= 2, let last = ranges.last, last.count < max(size / 5, minimumBytes) {
            ranges.removeLast()
            let previous = ranges.removeLast()
            ranges.append(previous.lowerBound..<last.upperBound)
        }
        return ranges
    }
}
