import LoadGenerator

/// The JSON document of `dialogmock-bench load`.
struct LoadReport {
    let config: lg_config
    let result: lg_result
    let protocolName: String
    /// The path and query the sessions connected to.
    let path: String
    let startedServer: Bool
    /// With `--chaos`: the `chaos` object (it reads `result`'s per-session and hostile details).
    var chaos: ChaosReport? = nil

    /// Nearest-rank percentiles of a sample set.
    static func distribution(_ samples: lg_samples, digits: Int = 1) -> BenchJSON {
        let values =
            samples.count > 0 ? Array(UnsafeBufferPointer(start: samples.values, count: samples.count)).sorted() : []
        func rank(_ p: Double) -> BenchJSON {
            values.isEmpty
                ? .null
                : .number(
                    values[min(values.count - 1, max(0, Int((p * Double(values.count)).rounded(.up)) - 1))],
                    digits: digits)
        }
        return .object([
            ("count", .int(values.count)), ("p50", rank(0.5)), ("p90", rank(0.9)), ("p99", rank(0.99)),
            ("max", values.last.map { .number($0, digits: digits) } ?? .null),
        ])
    }

    static func percentile(_ samples: lg_samples, _ p: Double) -> Double {
        guard samples.count > 0 else { return 0 }
        let values = Array(UnsafeBufferPointer(start: samples.values, count: samples.count)).sorted()
        return values[min(values.count - 1, max(0, Int((p * Double(values.count)).rounded(.up)) - 1))]
    }

    var saturationReasons: [String] {
        var reasons: [String] = []
        if result.generator_cpu_percent > 85 {
            reasons.append("generator CPU \(Int(result.generator_cpu_percent)) % of one core > 85 %")
        }
        let lag = Self.percentile(result.loop_lag_ms, 0.99)
        if lag > 20 { reasons.append("generator loop lag p99 \(Int(lag)) ms > 20 ms") }
        let send = Self.percentile(result.send_lateness_ms, 0.99)
        if send > 20 { reasons.append("uplink send lateness p99 \(Int(send)) ms > 20 ms") }
        return reasons
    }

    var json: BenchJSON {
        let sessions = Double(max(1, result.requested))
        let rssIdle =
            result.server_rss_idle_kb > 0
            ? Double(result.server_rss_idle_kb - result.server_rss_base_kb) / sessions : nil
        let rssStreaming =
            result.server_rss_streaming_kb > 0
            ? Double(result.server_rss_streaming_kb - result.server_rss_base_kb) / sessions : nil
        let turns = max(1, result.turns)
        let reasons = saturationReasons
        let firstFailure = withUnsafeBytes(of: result.first_failure) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        var members: [(String, BenchJSON)] = [
            ("benchmark", .string("load")), ("protocol", .string(protocolName)), ("path", .string(path)),
            (
                "server",
                .string(startedServer ? "mock-server started by the benchmark" : "external, port \(config.port)")
            ),
            ("windowSeconds", .number(result.window_seconds, digits: 1)),
            (
                "sessions",
                .object([
                    ("requested", .int(Int(result.requested))), ("connected", .int(Int(result.connected))),
                    ("ready", .int(Int(result.ready))), ("failed", .int(Int(result.failed))),
                    ("dropped", .int(Int(result.dropped))),
                    ("closedCleanly", .int(Int(result.closed_cleanly))),
                    ("firstFailure", firstFailure.isEmpty ? .null : .string(firstFailure)),
                ])
            ),
            (
                "turns",
                .object([
                    ("sent", .int(result.turns)), ("answered", .int(result.turns_answered)),
                    ("unanswered", .int(result.turns_unanswered)),
                    ("pendingAtEnd", .int(max(0, result.turns - result.turns_answered - result.turns_unanswered))),
                    ("answeredRatio", .number(Double(result.turns_answered) / Double(turns), digits: 3)),
                    ("latencyMs", Self.distribution(result.turn_latency_ms)),
                ])
            ),
            (
                "downlink",
                .object([
                    ("latenessMs", Self.distribution(result.lateness_ms, digits: 2)),
                    ("responses", .int(result.responses)),
                    ("speechStarted", .int(result.speech_started)),
                    ("bargeIns", .int(result.barge_ins)), ("bytes", .int(result.bytes_down)),
                    ("serverErrors", .int(result.server_errors)),
                ])
            ),
            (
                "uplink",
                .object([
                    ("sendLatenessMs", Self.distribution(result.send_lateness_ms, digits: 2)),
                    ("bytes", .int(result.bytes_up)),
                ])
            ),
            (
                "serverProcess",
                config.server_pid > 0
                    ? .object([
                        ("cpuPercent", .number(result.server_cpu_percent)),
                        ("cpuPercentPerSession", .number(result.server_cpu_percent / sessions, digits: 4)),
                        ("rssBaseKiB", .int(result.server_rss_base_kb)),
                        ("rssIdleKiB", .int(result.server_rss_idle_kb)),
                        ("rssStreamingPeakKiB", .int(result.server_rss_streaming_kb)),
                        ("rssPerIdleSessionKiB", rssIdle.map { .number($0) } ?? .null),
                        ("rssPerStreamingSessionKiB", rssStreaming.map { .number($0) } ?? .null),
                    ]) : .null
            ),
            (
                "generator",
                .object([
                    ("cpuPercentOfOneCore", .number(result.generator_cpu_percent)),
                    ("loopLagMs", Self.distribution(result.loop_lag_ms, digits: 2)),
                    ("saturated", .bool(!reasons.isEmpty)), ("reasons", .array(reasons.map { .string($0) })),
                ])
            ),
        ]
        if let chaos { members.append(("chaos", chaos.json)) }
        return .object(members)
    }
}
