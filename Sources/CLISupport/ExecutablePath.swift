#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The running binary's own path, for finding files installed beside it.
package enum ExecutablePath {
    /// `/proc/self/exe` resolved (argv[0] is only `conformance` when the binary was found on
    /// PATH); nil where there is no /proc.
    package static var current: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The executable `name` in the running binary's folder (`mock-server` beside
    /// `dialogmock-bench`, the built binaries beside a test bundle); nil when there is none.
    package static func sibling(_ name: String) -> String? {
        guard let current, let slash = current.lastIndex(of: "/") else { return nil }
        let candidate = String(current[..<slash]) + "/" + name
        return access(candidate, X_OK) == 0 ? candidate : nil
    }
}
