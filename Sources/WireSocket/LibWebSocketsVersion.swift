internal import CLibWebSockets
import Glibc
import Synchronization

/// The libwebsockets the process runs with (recorded in health output and reports).
package enum LibWebSocketsVersion {
    /// The library's version: `lws_get_library_version()` is `<version>-<build hash>` (a distro
    /// build without a git hash gives `4.1.6-`), shown without an empty hash.
    package static var string: String { display(String(cString: lws_get_library_version())) }

    /// `raw` without the separator of an empty build hash (or trailing blanks).
    package static func display(_ raw: String) -> String {
        var version = Substring(raw)
        while let last = version.last, last == "-" || last == " " { version = version.dropLast() }
        return version.isEmpty ? raw : String(version)
    }
}

/// libwebsockets' own log lines (bind failures, protocol violations). Silent by default so a
/// failing command prints one clear line; `--log-level debug` turns them on.
package enum LibWebSocketsLog {
    static let enabled = Atomic<Bool>(false)
    /// Where the lines go when enabled (nil: stderr as `lws: LINE`).
    private static let sink = Mutex<(@Sendable (_ isError: Bool, _ line: String) -> Void)?>(nil)

    package static func setEnabled(_ on: Bool) { enabled.store(on, ordering: .relaxed) }

    /// Hands each line (without its newline; `isError` for lws errors, else a warning) to
    /// `sink` instead of stderr, so that it is stamped and formatted like the server's own logs.
    package static func forward(to sink: @escaping @Sendable (_ isError: Bool, _ line: String) -> Void) {
        self.sink.withLock { $0 = sink }
    }

    /// Installs the forwarder; called before every context is created (the level is process-global).
    static func install() {
        lws_set_log_level(
            Int32(LLL_ERR | LLL_WARN),
            { level, line in
                guard LibWebSocketsLog.enabled.load(ordering: .relaxed), let line else { return }
                var text = String(cString: line)
                while text.hasSuffix("\n") { text.removeLast() }
                if let sink = LibWebSocketsLog.sink.withLock({ $0 }) {
                    sink(level & Int32(LLL_ERR) != 0, "lws: " + text)
                    return
                }
                var output = "lws: " + text + "\n"
                output.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
            })
    }
}
