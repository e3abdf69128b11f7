import Foundation
import MockSessions
import Synchronization
import Testing

/// Issue 43 item 7: every log line carries its UTC time to the millisecond; `--log-format json`
/// writes one JSON object per line.
@Suite("Logger")
struct LoggerTests {
    /// 2023-11-14T22:13:20.042Z.
    static let micros: Int64 = 1_700_000_000_042_999

    @Test func textLinesStartWithTheUTCTimeThenTheLevel() {
        #expect(
            Logger.line(.text, .info, "session s1: qwen-realtime", atMicros: Self.micros)
                == "2023-11-14T22:13:20.042Z INFO session s1: qwen-realtime")
        #expect(Logger.line(.text, .warn, "x", atMicros: 0) == "1970-01-01T00:00:00.000Z WARN x")
        // Session fields are for JSON lines; the text line is the message as before.
        #expect(
            Logger.line(.text, .debug, "m", atMicros: Self.micros, session: "s1", testID: "t")
                == "2023-11-14T22:13:20.042Z DEBUG m")
    }

    @Test func jsonLinesAreObjectsWithTimeLevelMessageAndTheSession() throws {
        let plain = Logger.line(.json, .error, "stopped", atMicros: Self.micros)
        #expect(plain == #"{"time":"2023-11-14T22:13:20.042Z","level":"error","message":"stopped"}"#)
        let tricky = "quote \" backslash \\ newline \n tab \t bell \u{7} 中文"
        let line = Logger.line(.json, .warn, tricky, atMicros: Self.micros, session: "s3", testID: "t \"1\"")
        #expect(!line.contains("\n"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
        #expect(
            object == [
                "time": "2023-11-14T22:13:20.042Z", "level": "warn", "message": tricky, "session": "s3",
                "testId": "t \"1\"",
            ])
        #expect(line.contains(#"\u0007"#))
    }

    @Test func theLoggerStampsEachLineNowAndFiltersByLevel() throws {
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .info, format: .json) { line in lines.withLock { $0.append(line) } }
        logger(.debug, "not written")
        logger(.info, "written", session: "s1", testID: nil)
        let written = lines.withLock { $0 }
        try #require(written.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: String])
        #expect(object["message"] == "written")
        #expect(object["session"] == "s1")
        #expect(object["testId"] == nil)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let time = try #require(formatter.date(from: object["time"] ?? ""), "\(written[0])")
        #expect(abs(time.timeIntervalSinceNow) < 60)
    }
}
