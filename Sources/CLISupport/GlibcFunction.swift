#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A C library function the Swift module does not export (malloc.h, and the `_GNU_SOURCE` ones
/// such as `pipe2`), looked up at run time: nil where the C library has none.
package enum GlibcFunction {
    package static func named<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
    }
}
