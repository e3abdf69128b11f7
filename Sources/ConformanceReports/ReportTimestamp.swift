package import FoundationEssentials

/// The timestamps reports write, formatted without ICU (FoundationEssentials' ISO 8601 style):
/// ISO 8601 in UTC to the second (`2026-12-07T05:53:30Z`) in index.json and matrix files, and
/// `YYYYMMDD-HHMMSS` (UTC) as the default report folder's name.
package enum ReportTimestamp {
    /// `2026-12-07T05:53:30Z`: UTC, whole seconds (the fraction is dropped).
    package static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Reads an RFC 3339 date-time with `Z` or a `±HH:MM` offset, without fraction; `nil` otherwise.
    package static func parseISO8601(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
    }

    /// `20261207-055330`: UTC, whole seconds.
    package static func folderName(_ date: Date) -> String {
        let day = date.formatted(Date.ISO8601FormatStyle(dateSeparator: .omitted).year().month().day())
        let time = date.formatted(
            Date.ISO8601FormatStyle(timeSeparator: .omitted).time(includingFractionalSeconds: false))
        return day + "-" + time
    }
}
