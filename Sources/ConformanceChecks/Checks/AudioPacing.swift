import ProtocolModel
import WireJSON

/// `audioPacing`: uplink chunk sizes and the sending rate match real time.
///
/// Parameters: `source` (`binary` or `base64`), `sampleRate` (default 16000), `minChunkMs` /
/// `maxChunkMs` (bounds on the median chunk duration), `maxRealTimeFactor` (audio duration over
/// wall time, e.g. 1.5), `maxGapMs` (longest pause between chunks), `minChunks` (default 0).
/// ```json
/// { "kind": "audioPacing", "source": "binary", "minChunkMs": 20, "maxChunkMs": 200, "maxRealTimeFactor": 1.5 }
/// ```
package struct AudioPacing: Check {
    package static let kind = "audioPacing"
    package static let parameterNames: Set<String> = [
        "source", "sampleRate", "minChunkMs", "maxChunkMs", "maxRealTimeFactor", "maxGapMs", "minChunks",
    ]

    var source: String
    var sampleRate: Int
    var minChunkMs: Double?
    var maxChunkMs: Double?
    var maxRealTimeFactor: Double?
    var maxGapMs: Double?
    var minChunks: Int

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        source = try parameters.string("source") ?? "binary"
        guard source == "binary" || source == "base64" else {
            throw CheckParameterError(["source"], "expected binary or base64")
        }
        sampleRate = try parameters.int("sampleRate", in: 8000...48000) ?? 16000
        minChunkMs = try parameters.double("minChunkMs")
        maxChunkMs = try parameters.double("maxChunkMs")
        maxRealTimeFactor = try parameters.double("maxRealTimeFactor", in: 0.01...1000)
        maxGapMs = try parameters.double("maxGapMs")
        minChunks = try parameters.int("minChunks") ?? 0
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        var parts: [String] = []
        if let minChunkMs, let maxChunkMs {
            parts.append("median chunk \(format(minChunkMs))–\(format(maxChunkMs)) ms")
        }
        if let maxRealTimeFactor { parts.append("rate ≤ \(maxRealTimeFactor)× real time") }
        if let maxGapMs { parts.append("no gap > \(format(maxGapMs)) ms") }
        if minChunks > 0 { parts.append("≥ \(minChunks) chunks") }
        let expected = "uplink audio: " + parts.joined(separator: ", ")
        let audio = UplinkAudio(transcript, source: source, sampleRate: sampleRate)
        let chunks = audio.chunks
        if chunks.isEmpty { return context.notExercised(expected, "the client sent no audio") }
        if chunks.count < minChunks {
            return context.fail(expected, "only \(chunks.count) audio chunk(s)", evidence: chunks.map(\.index))
        }
        let durations = chunks.compactMap(\.durationMs).sorted()
        if !durations.isEmpty {
            let median = durations[durations.count / 2]
            if let minChunkMs, median < minChunkMs {
                return context.fail(
                    expected, "median chunk \(format(median)) ms", evidence: chunks.prefix(3).map(\.index))
            }
            if let maxChunkMs, median > maxChunkMs {
                return context.fail(
                    expected, "median chunk \(format(median)) ms", evidence: chunks.prefix(3).map(\.index))
            }
        }
        if let maxRealTimeFactor, let factor = audio.realTimeFactor, factor > maxRealTimeFactor {
            let shown = factor.isFinite ? String(format(factor * 100) + "% of") : "infinitely faster than"
            return context.fail(
                expected, "\(format(audio.totalMs)) ms of audio sent at \(shown) real time",
                evidence: [chunks[0].index, chunks[chunks.count - 1].index])
        }
        if let maxGapMs {
            for (previous, next) in zip(chunks, chunks.dropFirst()) where next.ms - previous.ms > maxGapMs {
                return context.fail(
                    expected, "gap of \(format(next.ms - previous.ms)) ms", evidence: [next.index, previous.index])
            }
        }
        let rate = audio.realTimeFactor.map { $0.isFinite ? " at \(format($0 * 100))% of real time" : "" } ?? ""
        return context.pass(expected, "\(chunks.count) chunk(s), \(format(audio.totalMs)) ms\(rate)")
    }
}
