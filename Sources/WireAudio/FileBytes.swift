import Glibc

/// Whole-file reads and writes with stdio (WireAudio avoids Foundation).
package enum FileBytes {
    /// The contents of the file at `path`.
    /// - Throws: `WAVError.io` with the `errno` text when the file cannot be read.
    package static func read(path: String) throws(WAVError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw .io(path: path, reason: errnoText()) }
        defer { fclose(file) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<got]
            if got < chunk.count { break }
        }
        guard ferror(file) == 0 else { throw .io(path: path, reason: "read error") }
        return bytes
    }

    /// The contents of the file at `path` relative to `folder` (the working directory when
    /// empty), which must lie inside `folder` once every `..` and symlink is resolved: a
    /// scenario's fixture cannot read a file outside the scenario's folder.
    /// - Throws: `WAVError.io` naming the path when it is outside or cannot be read.
    package static func read(path: String, inside folder: String) throws(WAVError) -> [UInt8] {
        let base = folder.isEmpty ? "." : folder
        let joined = path.hasPrefix("/") ? path : base.hasSuffix("/") ? base + path : base + "/" + path
        guard let resolvedBase = realpath(base, nil) else { throw .io(path: base, reason: errnoText()) }
        defer { free(resolvedBase) }
        guard let resolved = realpath(joined, nil) else { throw .io(path: joined, reason: errnoText()) }
        defer { free(resolved) }
        let root = String(cString: resolvedBase)
        guard String(cString: resolved).hasPrefix(root == "/" ? "/" : root + "/") else {
            throw .io(path: joined, reason: "outside the scenario's folder \(root)")
        }
        return try read(path: joined)
    }

    /// Writes `bytes` to `path`, replacing any existing file.
    /// - Throws: `WAVError.io` with the `errno` text when the file cannot be written.
    package static func write(_ bytes: [UInt8], to path: String) throws(WAVError) {
        guard let file = fopen(path, "wb") else { throw .io(path: path, reason: errnoText()) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else { throw .io(path: path, reason: errnoText()) }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
