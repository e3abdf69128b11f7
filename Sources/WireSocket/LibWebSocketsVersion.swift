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

    package static func setEnabled(_ on: Bool) { enabled.store(on, ordering: .relaxed) }

    /// Installs the forwarder; called before every context is created (the level is process-global).
    static func install() {
        lws_set_log_level(
            Int32(LLL_ERR | LLL_WARN),
            { _, line in
                guard LibWebSocketsLog.enabled.load(ordering: .relaxed), let line else { return }
                let text = "lws: " + String(cString: line)
                var output = text.hasSuffix("\n") ? text : text + "\n"
                output.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
            })
    }
}
