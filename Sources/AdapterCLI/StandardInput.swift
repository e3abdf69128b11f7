import Glibc

/// Lines of stdin, read on a dedicated thread so blocking reads never hold a task thread.
enum StandardInput {
    /// A stream of stdin lines that finishes at end of input.
    static func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let box = Unmanaged<ContinuationBox>.fromOpaque(raw!).takeRetainedValue()
            while let line = readLine(strippingNewline: true) {
                box.continuation.yield(line)
            }
            box.continuation.finish()
            return nil
        }, box)
        pthread_detach(thread)
        return stream
    }

    private final class ContinuationBox: Sendable {
        let continuation: AsyncStream<String>.Continuation
        init(_ continuation: AsyncStream<String>.Continuation) { self.continuation = continuation }
    }
}

/// Fixture paths of `send_audio` / `append_audio` / image `file`s: as given (absolute or
/// relative to the current directory), else relative to the repository's `conformance/`
/// folder, found by walking up from the executable (`.build/debug/dialogmock-adapter`).
enum FixturePaths {
    static func resolve(_ path: String) -> String? {
        if access(path, R_OK) == 0 { return path }
        guard !path.hasPrefix("/") else { return nil }
        var directory = executableDirectory()
        while !directory.isEmpty && directory != "/" {
            let candidate = directory + "/conformance/" + path
            if access(candidate, R_OK) == 0 { return candidate }
            directory = parent(of: directory)
        }
        return nil
    }

    /// The bytes of a fixture. - Throws: `AdapterError` when it cannot be found or read.
    static func read(_ path: String) throws(AdapterError) -> [UInt8] {
        guard let resolved = resolve(path), let file = fopen(resolved, "rb") else {
            throw AdapterError(code: "FixtureNotFound", message: "cannot read \(path) (current directory or conformance/)")
        }
        defer { fclose(file) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<got]
            if got < chunk.count { break }
        }
        return bytes
    }

    private static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "" }
        return parent(of: String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// A command that could not be executed (reported as an `error` event).
struct AdapterError: Error {
    let code: String
    let message: String
}
