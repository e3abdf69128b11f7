import Glibc
import Synchronization
import WireJSON

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
            var object: JSONObject = [
                "time": .string(time), "level": .string(level.rawValue), "message": .string(message),
            ]
            if let session { object["session"] = .string(session) }
            if let testID { object["testId"] = .string(testID) }
            return String(decoding: JSONValue.object(object).encoded(), as: UTF8.self)
        }
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
