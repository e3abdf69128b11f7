internal import CZstd
import Synchronization

/// Compresses and restores blocks of bytes kept in memory a long time and read rarely (a
/// session journal's entries): zstd at level 1, its fastest standard level, which takes JSON
/// events to about a quarter of their size at hundreds of MB/s.
///
/// zstd's contexts are large and costly to create, so each call borrows one from a small pool
/// (one per thread compressing at once) instead of creating its own.
package enum BlockCompression {
    /// zstd's compression level (1: the fastest of the standard levels).
    static let level: Int32 = 1
    /// Contexts kept for reuse once returned (more are freed).
    static let poolLimit = 16

    /// A zstd context and the scratch buffer its output goes to before it is copied out at its
    /// exact size.
    private final class Compressor: @unchecked Sendable {
        let context: OpaquePointer
        var scratch: UnsafeMutableRawBufferPointer

        init?() {
            guard let context = ZSTD_createCCtx() else { return nil }
            self.context = context
            scratch = .allocate(byteCount: 0, alignment: 1)
            ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, BlockCompression.level)
            // The blocks are small and whole: no frame checksum or content size is needed to
            // restore them (the caller keeps the size), only the compressed data.
            ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0)
        }

        deinit {
            ZSTD_freeCCtx(context)
            scratch.deallocate()
        }
    }

    private final class Decompressor: @unchecked Sendable {
        let context: OpaquePointer

        init?() {
            guard let context = ZSTD_createDCtx() else { return nil }
            self.context = context
        }

        deinit { ZSTD_freeDCtx(context) }
    }

    private static let compressors = Mutex<[Compressor]>([])
    private static let decompressors = Mutex<[Decompressor]>([])

    /// `bytes` compressed, at their exact size; nil when zstd fails or the result would not be
    /// smaller than `bytes`.
    package static func compress(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !bytes.isEmpty,
            let compressor = compressors.withLock({ $0.popLast() }) ?? Compressor()
        else { return nil }
        defer { compressors.withLock { if $0.count < poolLimit { $0.append(compressor) } } }
        let bound = ZSTD_compressBound(bytes.count)
        if compressor.scratch.count < bound {
            compressor.scratch.deallocate()
            compressor.scratch = .allocate(byteCount: bound, alignment: 1)
        }
        let written = ZSTD_compress2(
            compressor.context, compressor.scratch.baseAddress, bound, bytes.baseAddress, bytes.count)
        guard ZSTD_isError(written) == 0, written < bytes.count else { return nil }
        return [UInt8](UnsafeRawBufferPointer(rebasing: compressor.scratch[..<written]))
    }

    /// The block `compressed` restored; nil unless it restores to exactly `originalCount` bytes.
    package static func decompress(_ compressed: [UInt8], originalCount: Int) -> [UInt8]? {
        guard let decompressor = decompressors.withLock({ $0.popLast() }) ?? Decompressor() else { return nil }
        defer { decompressors.withLock { if $0.count < poolLimit { $0.append(decompressor) } } }
        var failed = false
        let restored = [UInt8](unsafeUninitializedCapacity: originalCount) { buffer, count in
            let written = compressed.withUnsafeBytes { source in
                ZSTD_decompressDCtx(
                    decompressor.context, buffer.baseAddress, originalCount, source.baseAddress, source.count)
            }
            failed = ZSTD_isError(written) != 0 || written != originalCount
            count = failed ? 0 : written
        }
        return failed ? nil : restored
    }
}
