import Testing
import WireCompression

/// Issue 44 item 1: journal blocks are compressed with zstd and restored byte for byte.
struct BlockCompressionTests {
    /// JSON events like a session's, 4 KiB of them.
    static let events: [UInt8] = {
        var text = ""
        var index = 0
        while text.utf8.count < 4096 {
            text +=
                #"{"event_id":"event_\#(index)","type":"response.audio_transcript.delta","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"delta":"word \#(index) "}"#
            index += 1
        }
        return Array(text.utf8)
    }()

    @Test func jsonEventsShrinkAndComeBack() throws {
        let compressed = try #require(Self.events.withUnsafeBytes { BlockCompression.compress($0) })
        #expect(compressed.count * 3 < Self.events.count)
        #expect(BlockCompression.decompress(compressed, originalCount: Self.events.count) == Self.events)
    }

    /// Bytes that do not compress are not returned (the caller keeps them as they are), and
    /// nothing is made of nothing.
    @Test func incompressibleAndEmptyBlocksAreRefused() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<4096).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        #expect(noise.withUnsafeBytes { BlockCompression.compress($0) } == nil)
        #expect([UInt8]().withUnsafeBytes { BlockCompression.compress($0) } == nil)
    }

    /// A block restored to another size than it had, or damaged, is refused: never bytes
    /// that were not compressed.
    @Test func wrongSizesAndDamageAreRefused() throws {
        let compressed = try #require(Self.events.withUnsafeBytes { BlockCompression.compress($0) })
        #expect(BlockCompression.decompress(compressed, originalCount: Self.events.count - 1) == nil)
        #expect(BlockCompression.decompress(compressed, originalCount: Self.events.count + 1) == nil)
        #expect(BlockCompression.decompress(Array(compressed.prefix(compressed.count / 2)), originalCount: 4096) == nil)
    }

    /// Threads compressing at once each get their own context.
    @Test func concurrentCallsAgree() async throws {
        let expected = try #require(Self.events.withUnsafeBytes { BlockCompression.compress($0) })
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<50).allSatisfy { _ in
                        let compressed = Self.events.withUnsafeBytes { BlockCompression.compress($0) }
                        return compressed == expected
                            && BlockCompression.decompress(expected, originalCount: Self.events.count) == Self.events
                    }
                }
            }
            for try await agreed in group { #expect(agreed) }
        }
    }
}
