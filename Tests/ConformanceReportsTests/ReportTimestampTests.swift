import ConformanceReports
import Foundation
import Testing

/// Report timestamps are formatted without ICU; they must stay byte-identical to what
/// Foundation's ICU formatters (`ISO8601DateFormatter`, `DateFormatter`) wrote before.
@Suite struct ReportTimestampTests {
    static let instants: [Date] = [
        0, 951_782_400, 1_700_000_000.123, 1_700_000_000.999, 1_796_593_999.5, -1.5, -86_400 * 365.25 * 70,
        4_102_444_799.999,
    ].map { Date(timeIntervalSince1970: $0) }

    @Test(arguments: instants) func iso8601MatchesISO8601DateFormatter(_ date: Date) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #expect(ReportTimestamp.iso8601(date) == formatter.string(from: date))
    }

    @Test(arguments: instants) func folderNameMatchesDateFormatter(_ date: Date) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        #expect(ReportTimestamp.folderName(date) == formatter.string(from: date))
    }

    @Test(arguments: ["2026-12-07T05:53:30Z", "2026-12-07T13:53:30+08:00", "1969-12-31T23:59:59Z", "2026-12-07", "x"])
    func parsingMatchesISO8601DateFormatter(_ text: String) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #expect(ReportTimestamp.parseISO8601(text) == formatter.date(from: text))
    }
}
