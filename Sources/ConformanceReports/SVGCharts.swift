package import ConformanceChecks

/// Inline SVG charts for `report.html`: a state timeline per case and a latency distribution
/// per metric. Self-contained: no scripts, no external references.
package enum SVGCharts {
    /// One lane per state, a bar per stay, a red marker on the first illegal step.
    package static func timeline(_ timeline: StateTimeline, endMs: Double) -> String {
        let lanes = timeline.lanes
        let width = 720.0
        let left = 110.0
        let height = Double(max(lanes.count, 1)) * 22 + 30
        let span = max(endMs, timeline.points.last?.ms ?? 0, 1)
        func x(_ ms: Double) -> Double { left + (ms / span) * (width - left - 10) }
        var svg =
            "<svg class=\"timeline\" role=\"img\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        svg += "<title>\(XMLText.escape(timeline.machine)) state timeline</title>"
        for (row, lane) in lanes.enumerated() {
            svg += "<text x=\"4\" y=\"\(row * 22 + 16)\" class=\"lane\">\(XMLText.escape(lane))</text>"
        }
        for (position, point) in timeline.points.enumerated() {
            let row = lanes.firstIndex(of: point.state) ?? 0
            let end = position + 1 < timeline.points.count ? timeline.points[position + 1].ms : span
            let start = x(point.ms)
            let barWidth = max(x(end) - start, 2)
            let fill = point.legal ? "#4c8bf5" : "#d93025"
            svg +=
                "<rect x=\"\(fixed(start))\" y=\"\(row * 22 + 4)\" width=\"\(fixed(barWidth))\" height=\"16\" fill=\"\(fill)\">"
            svg +=
                "<title>\(XMLText.escape("\(point.state) at \(fixed(point.ms)) ms (#\(point.index))\(point.note.map { ": \($0)" } ?? "")"))</title></rect>"
            if position == timeline.firstViolation {
                svg +=
                    "<line x1=\"\(fixed(start))\" x2=\"\(fixed(start))\" y1=\"0\" y2=\"\(Int(height) - 20)\" stroke=\"#d93025\" stroke-width=\"2\"/>"
            }
        }
        svg += "<text x=\"\(Int(left))\" y=\"\(Int(height) - 6)\" class=\"axis\">0 ms</text>"
        svg += "<text x=\"\(Int(width) - 80)\" y=\"\(Int(height) - 6)\" class=\"axis\">\(fixed(span)) ms</text></svg>"
        return svg
    }

    /// A strip plot of every sample on a 0…max axis, with p50 / p95 / p99 ticks labelled on
    /// their own rows so close percentiles stay readable, and the metric's `budget` (when known)
    /// as a dashed threshold line; samples over it are red.
    package static func distribution(metric: String, values: [Double], budget: Double? = nil) -> String {
        let width = 720.0
        let height = 104.0
        let statistics = LatencyStatistics(values)
        let upper = max(statistics.max, budget ?? 0, 1) * 1.05
        func x(_ value: Double) -> Double { 10 + (value / upper) * (width - 20) }
        func anchor(_ position: Double) -> String { position > width - 90 ? "end" : "start" }
        var svg =
            "<svg class=\"distribution\" role=\"img\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        svg += "<title>\(XMLText.escape(metric)) distribution</title>"
        svg += "<line x1=\"10\" x2=\"\(Int(width) - 10)\" y1=\"40\" y2=\"40\" stroke=\"#999\"/>"
        svg += "<text x=\"10\" y=\"52\" class=\"axis\">0</text>"
        svg += "<text x=\"\(Int(width) - 10)\" y=\"52\" class=\"axis\" text-anchor=\"end\">\(fixed(upper))</text>"
        for value in values {
            let fill = budget.map { value > $0 } == true ? "#d93025" : "#4c8bf5"
            svg += "<circle cx=\"\(fixed(x(value)))\" cy=\"30\" r=\"3\" fill=\"\(fill)\" fill-opacity=\"0.6\"/>"
        }
        if let budget {
            let position = x(budget)
            svg +=
                "<line class=\"budget\" x1=\"\(fixed(position))\" x2=\"\(fixed(position))\" y1=\"14\" y2=\"44\" stroke=\"#b06000\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>"
            svg +=
                "<text x=\"\(fixed(position))\" y=\"11\" class=\"axis\" text-anchor=\"\(anchor(position))\">budget \(fixed(budget))</text>"
        }
        for (row, (label, value)) in [("p50", statistics.p50), ("p95", statistics.p95), ("p99", statistics.p99)]
            .enumerated()
        {
            let position = x(value)
            let y = 66 + 14 * row
            svg +=
                "<line x1=\"\(fixed(position))\" x2=\"\(fixed(position))\" y1=\"18\" y2=\"\(y - 9)\" stroke=\"#d93025\" stroke-dasharray=\"2 2\"/>"
            svg +=
                "<text x=\"\(fixed(position))\" y=\"\(y)\" class=\"axis\" text-anchor=\"\(anchor(position))\">\(label) \(fixed(value))</text>"
        }
        return svg + "</svg>"
    }

    static func fixed(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}
