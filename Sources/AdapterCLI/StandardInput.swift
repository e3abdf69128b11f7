import CLISupport
import Glibc
import WireAudio

/// Lines of stdin, read on a dedicated thread so blocking reads never hold a task thread.
enum StandardInput {
    /// A stream of stdin lines that finishes at end of input.
    static func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { raw in
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
    /// `path` as given, else under `conformance/` of: the current directory (the harness starts
    /// clients in the suite root), `$DIALOGMOCK_ROOT`, a folder above the executable (a
    /// checkout's `.build/…`), or the installed suite beside it (`<prefix>/share/dialogmock`).
    static func resolve(_ path: String) -> String? {
        if access(path, R_OK) == 0 { return path }
        guard !path.hasPrefix("/") else { return nil }
        var roots = ["."]
        if let root = getenv("DIALOGMOCK_ROOT").map({ String(cString: $0) }), !root.isEmpty { roots.append(root) }
        let executable = executableDirectory()
        var directory = executable
        while !directory.isEmpty && directory != "/" {
            roots.append(directory)
            directory = parent(of: directory)
        }
        if !executable.isEmpty { roots.append(parent(of: executable) + "/share/dialogmock") }
        return roots.lazy.map { $0 + "/conformance/" + path }.first { access($0, R_OK) == 0 }
    }

    /// The bytes of a fixture. - Throws: `AdapterError` when it cannot be found or read.
    static func read(_ path: String) throws(AdapterError) -> [UInt8] {
        guard let resolved = resolve(path), let bytes = try? FileBytes.read(path: resolved) else {
            throw AdapterError(
                code: "FixtureNotFound", message: "cannot read \(path) (current directory or conformance/)")
        }
        return bytes
    }

    /// A fixture the passive flow needs, or `fallback` with a warning on stderr (the flow goes
    /// on, but the log says why its audio is silent).
    static func readOrWarn(_ path: String, fallback: [UInt8]) -> [UInt8] {
        do {
            return try read(path)
        } catch {
            let line = Array("dialogmock-adapter: \(error.message); sending \(fallback.count) bytes instead\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            return fallback
        }
    }

    private static func executableDirectory() -> String {
        ExecutablePath.current.map(parent(of:)) ?? ""
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
