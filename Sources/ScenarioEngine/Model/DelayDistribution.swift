import WireJSON

/// A random delay in milliseconds, sampled from a seeded generator, never negative and never
/// above `capMs` when a cap is given.
package struct DelayDistribution: Sendable, Hashable {
    /// The shape of the distribution.
    package enum Shape: Sendable, Hashable {
        /// Always `ms`.
        case fixed(ms: Double)
        /// Uniform in `[minMs, maxMs)`.
        case uniform(minMs: Double, maxMs: Double)
        /// Normal with mean and standard deviation (negative draws clamp to 0).
        case normal(meanMs: Double, sdMs: Double)
        /// Log-normal: `medianMs · e^(sigma · Z)` with `Z` standard normal.
        case lognormal(medianMs: Double, sigma: Double)
    }

    /// The names used in scenario files for ``Shape``.
    package enum Kind: String, Sendable, CaseIterable {
        case fixed, uniform, normal, lognormal
    }

    /// The shape of the distribution.
    package var shape: Shape
    /// An upper bound applied after sampling, if any.
    package var capMs: Double?

    /// Creates a distribution.
    package init(_ shape: Shape, capMs: Double? = nil) {
        self.shape = shape
        self.capMs = capMs
    }

    /// A constant delay.
    package static func fixed(_ ms: Double) -> DelayDistribution { DelayDistribution(.fixed(ms: ms)) }

    /// Draws one delay in milliseconds, clamped to `0...capMs`.
    package func sampleMs(using random: inout SeededRandom) -> Double {
        var value: Double
        switch shape {
        case .fixed(let ms):
            value = ms
        case .uniform(let minMs, let maxMs):
            value = random.nextDouble(in: minMs, maxMs)
        case .normal(let meanMs, let sdMs):
            value = meanMs + sdMs * random.nextStandardNormal()
        case .lognormal(let medianMs, let sigma):
            value = medianMs * DeterministicMath.exp(sigma * random.nextStandardNormal())
        }
        value = max(0, value)
        if let capMs { value = min(value, capMs) }
        return value
    }

    /// Draws one delay in whole microseconds.
    package func sampleMicros(using random: inout SeededRandom) -> Int64 {
        Int64((sampleMs(using: &random) * 1000).rounded())
    }
}

extension DelayDistribution {
    /// Largest delay a scenario may ask for: one day.
    static let maximumMs = 86_400_000.0

    /// Parses `300` (fixed) or `{"kind": …, …, "capMs"?}`.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> DelayDistribution {
        if let number = value.doubleValue {
            guard number >= 0, number <= maximumMs else {
                throw context.error(
                    tokens, "must be between 0 and \(Int(maximumMs)); got \(ScenarioDecodingContext.format(number))")
            }
            return .fixed(number)
        }
        let reader = try context.object(value, at: tokens)
        let range = 0...maximumMs
        guard let kind = try reader.enumeration("kind", as: Kind.self) else {
            throw context.error(tokens, "missing required key \"kind\"")
        }
        let shape: Shape
        switch kind {
        case .fixed:
            try reader.rejectUnknownKeys(allowing: ["kind", "ms", "capMs"])
            shape = .fixed(ms: try reader.double("ms", in: range) ?? 0)
        case .uniform:
            try reader.rejectUnknownKeys(allowing: ["kind", "minMs", "maxMs", "capMs"])
            let low = try reader.double("minMs", in: range) ?? 0
            guard let high = try reader.double("maxMs", in: range) else {
                throw context.error(tokens, "missing required key \"maxMs\"")
            }
            guard high >= low else {
                throw context.error(
                    reader.path("maxMs"),
                    "must not be less than minMs (\(ScenarioDecodingContext.format(low))); got \(ScenarioDecodingContext.format(high))"
                )
            }
            shape = .uniform(minMs: low, maxMs: high)
        case .normal:
            try reader.rejectUnknownKeys(allowing: ["kind", "meanMs", "sdMs", "capMs"])
            guard let mean = try reader.double("meanMs", in: range) else {
                throw context.error(tokens, "missing required key \"meanMs\"")
            }
            shape = .normal(meanMs: mean, sdMs: try reader.double("sdMs", in: range) ?? 0)
        case .lognormal:
            try reader.rejectUnknownKeys(allowing: ["kind", "medianMs", "sigma", "capMs"])
            guard let median = try reader.double("medianMs", in: range) else {
                throw context.error(tokens, "missing required key \"medianMs\"")
            }
            shape = .lognormal(medianMs: median, sigma: try reader.double("sigma", in: 0...5) ?? 0)
        }
        return DelayDistribution(shape, capMs: try reader.double("capMs", in: range))
    }
}
