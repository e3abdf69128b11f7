import Glibc
import Synchronization

/// Log levels of `--log-level`, most severe first.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case error, warn, info, debug, trace

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// Writes `LEVEL message` lines to stderr (stdout is reserved for the ready line).
public struct Logger: Sendable {
    public let level: LogLevel
    private let sink: @Sendable (String) -> Void

    public init(level: LogLevel = .info, sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.sink =
            sink ?? { line in
                var text = line + "\n"
                text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
            }
    }

    public func callAsFunction(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        sink("\(messageLevel.rawValue.uppercased()) \(message())")
    }
}
