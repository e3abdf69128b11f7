/// Latency gates: the most a reaction may take, per metric (``LatencyMetric``), in the metric's
/// unit (ms; × for `uplink.realTimeFactor`). The suite sets defaults for the reactions its specs
/// bound; `conformance run --budget METRIC=VALUE` overrides or adds one, `METRIC=none` drops one.
/// Every sample over its budget is a failing finding of its case, under the obligation the
/// reaction belongs to.
package struct LatencyBudgets: Sendable, Hashable {
    /// Budget per metric.
    package private(set) var limits: [String: Double]
    /// Metrics whose budget came from `--budget` (the rest are the suite's).
    package private(set) var fromCommandLine: Set<String> = []

    /// The suite's budgets.
    package init(_ limits: [String: Double] = [:]) {
        self.limits = limits
    }

    /// Applies `--budget` values (`bargeIn.speechStarted.cancel=250ms`, `…=1.5s`, `…=250`,
    /// `uplink.realTimeFactor=1.5`, `…=none`) in order.
    /// - Throws: ``LatencyBudgetError`` naming the value, for an unknown metric or a bad amount.
    package mutating func apply(commandLine values: [String]) throws(LatencyBudgetError) {
        for text in values {
            let (metric, limit) = try Self.parse(text)
            limits[metric] = limit
            fromCommandLine.insert(metric)
        }
    }

    /// One `METRIC=VALUE`: the metric and its budget (nil for `none`).
    static func parse(_ text: String) throws(LatencyBudgetError) -> (String, Double?) {
        guard let equals = text.firstIndex(of: "=") else {
            throw LatencyBudgetError(text, "expected METRIC=VALUE, e.g. \(LatencyMetric.speechStartedToCancel)=250ms")
        }
        let metric = String(text[..<equals])
        let amount = text[text.index(after: equals)...].filter { $0 != " " }.lowercased()
        guard LatencyMetric.all.contains(metric) else {
            throw LatencyBudgetError(
                text, "unknown latency metric '\(metric)'; expected one of \(LatencyMetric.all.joined(separator: ", "))"
            )
        }
        if amount == "none" || amount == "off" { return (metric, nil) }
        let isFactor = LatencyMetric.unit(metric) == "×"
        var number = Substring(amount)
        var scale = 1.0
        if !isFactor {
            if number.hasSuffix("ms") {
                number = number.dropLast(2)
            } else if number.hasSuffix("s") {
                number = number.dropLast()
                scale = 1000
            }
        } else if number.hasSuffix("x") || number.hasSuffix("×") {
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0 else {
            let unit = isFactor ? "a real-time factor, e.g. 1.5" : "a duration, e.g. 250ms or 1.5s"
            throw LatencyBudgetError(text, "'\(amount)' is not \(unit) (or none)")
        }
        return (metric, value * scale)
    }

    /// A failing result for each sample of `samples` over its budget, with the measured value
    /// and the budget (samples within budget add nothing: the reports plot them against it).
    package func overruns(_ samples: [LatencySample], protocolName: String) -> [CheckResult] {
        samples.compactMap { sample in
            guard let limit = limits[sample.metric], sample.value > limit else { return nil }
            let unit = LatencyMetric.unit(sample.metric)
            let source = fromCommandLine.contains(sample.metric) ? "--budget" : "the suite's budget"
            return CheckResult(
                kind: "latencyBudget",
                obligation: LatencyMetric.obligation(of: sample.metric, protocolName: protocolName),
                verdict: .fail,
                expected: "\(sample.metric) ≤ \(Self.format(limit)) \(unit) (\(source))",
                actual: "\(sample.metric) took \(Self.format(sample.value)) \(unit), "
                    + "\(Self.format(sample.value - limit)) \(unit) over its budget of \(Self.format(limit)) \(unit)",
                evidence: sample.evidence)
        }
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// A `--budget` value that cannot be used.
package struct LatencyBudgetError: Error, CustomStringConvertible {
    package let description: String

    init(_ value: String, _ problem: String) {
        description = "--budget '\(value)': \(problem)"
    }
}
