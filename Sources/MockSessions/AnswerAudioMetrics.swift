package import AnswerAudio

/// The answer-audio cache's part of `GET /_mock/metrics`.
package enum AnswerAudioMetrics {
    package static func prometheusText(_ statistics: AnswerAudioCache.Statistics) -> String {
        let rows: [(String, String, String, String)] = [
            (
                "dialogmock_answer_audio_hits_total", "counter", "Answer audio lookups served from the cache.",
                "\(statistics.hits)"
            ),
            (
                "dialogmock_answer_audio_misses_total", "counter", "Answer audio lookups that had to render.",
                "\(statistics.misses)"
            ),
            (
                "dialogmock_answer_audio_evictions_total", "counter", "Rendered answers dropped to stay in budget.",
                "\(statistics.evictions)"
            ),
            ("dialogmock_answer_audio_entries", "gauge", "Answers in the cache.", "\(statistics.entries)"),
            (
                "dialogmock_answer_audio_bytes", "gauge", "Bytes of rendered answer audio in the cache.",
                "\(statistics.bytes)"
            ),
            (
                "dialogmock_answer_audio_prefetches_skipped_total", "counter",
                "Scenario answers not prefetched because the prefetch queue was full.",
                "\(statistics.prefetchesSkipped)"
            ),
            (
                "dialogmock_answer_audio_render_seconds_total", "counter", "Worker time spent rendering answers.",
                "\(Double(statistics.renderMicros) / 1_000_000)"
            ),
        ]
        return rows.map { "# HELP \($0.0) \($0.2)\n# TYPE \($0.0) \($0.1)\n\($0.0) \($0.3)\n" }.joined()
    }
}
