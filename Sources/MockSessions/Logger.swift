import Glibc
import Synchronization

/// Log levels of `--log-level`, most severe first.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case error, warn, info, debug, trace

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// How log lines are written (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-12-07T12:34:56.789Z INFO message`.
    case text
    /// One JSON object per line: `{"time":"2026-12-07T12:34:56.789Z","level":"info","message":"…"}`,
    /// plus `session` and `testId` when the line is about one session.
    case json
}

/// Writes log lines to stderr (stdout is reserved for the ready line), each stamped with the UTC
/// time to the millisecond, as text or JSON (``LogFormat``).
public struct Logger: Sendable {
    public let level: LogLevel
    public let format: LogFormat
    private let sink: @Sendable (String) -> Void

    /// `sink` receives each line without its newline (default: written to stderr).
    public init(level: LogLevel = .info, format: LogFormat = .text, sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.format = format
        self.sink =
            sink ?? { line in
                var text = line + "\n"
                text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
            }
    }

    public func callAsFunction(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        sink(Self.line(format, messageLevel, message(), atMicros: WallClock.nowMicros()))
    }

    /// A line about one session: JSON lines carry its id and test id as fields too.
    public func callAsFunction(
        _ messageLevel: LogLevel, _ message: @autoclosure () -> String, session: String, testID: String?
    ) {
        guard messageLevel <= level else { return }
        sink(
            Self.line(
                format, messageLevel, message(), atMicros: WallClock.nowMicros(), session: session, testID: testID))
    }

    /// One log line (no newline) in `format`, stamped with `micros` (since the Unix epoch).
    package static func line(
        _ format: LogFormat, _ level: LogLevel, _ message: String, atMicros micros: Int64, session: String? = nil,
        testID: String? = nil
    ) -> String {
        let time = WallClock.rfc3339(micros: micros)
        switch format {
        case .text:
            return time + " " + level.label + " " + message
        case .json:
            var line = #"{"time":""#
            line.reserveCapacity(message.utf8.count + 64)
            line += time
            line += #"","level":""#
            line += level.rawValue
            line += #"","message":"#
            appendJSONString(message, to: &line)
            if let session {
                line += #","session":"#
                appendJSONString(session, to: &line)
            }
            if let testID {
                line += #","testId":"#
                appendJSONString(testID, to: &line)
            }
            line += "}"
            return line
        }
    }

    /// `text` as a JSON string literal (RFC 8259 escapes), appended to `line`.
    private static func appendJSONString(_ text: String, to line: inout String) {
        line += "\""
        // The common case, nothing to escape, is one append.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            line += text
            line += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }
}

extension LogLevel {
    /// The level as text lines show it: `INFO`.
    fileprivate var label: String {
        switch self {
        case .error: "ERROR"
        case .warn: "WARN"
        case .info: "INFO"
        case .debug: "DEBUG"
        case .trace: "TRACE"
        }
    }
}
