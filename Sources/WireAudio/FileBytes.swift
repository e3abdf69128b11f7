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
