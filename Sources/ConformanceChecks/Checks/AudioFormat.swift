import ProtocolModel
import WireJSON

/// `audioFormat`: uplink audio is in the declared format.
///
/// Parameters: `source` (`binary`, default, or `base64` for the append events of
/// ``UplinkAudio/base64AppendEvents``),
/// `codec` (default `pcm`), `sampleRate` (default 16000; compared with the server's summary
/// when it has one). PCM chunks must have an even byte length; base64 must be valid; and the
/// audio's sustained rate must not show another real format (``AudioRateMislabel``: 24 kHz sent as
/// 16 kHz, stereo as mono, …).
/// ```json
/// { "kind": "audioFormat", "source": "base64", "codec": "pcm", "sampleRate": 16000 }
/// ```
package struct AudioFormat: Check {
    package static let kind = "audioFormat"
    package static let parameterNames: Set<String> = ["source", "codec", "sampleRate"]

    /// Where audio comes from.
    package var source: String
    /// Declared codec.
    package var codec: String
    /// Declared sample rate.
    package var sampleRate: Int

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        source = try parameters.string("source") ?? "binary"
        guard source == "binary" || source == "base64" else {
            throw CheckParameterError(["source"], "expected binary or base64")
        }
        codec = try parameters.string("codec") ?? "pcm"
        sampleRate = try parameters.int("sampleRate", in: 8000...48000) ?? 16000
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected =
            "uplink audio is \(codec) at \(sampleRate) Hz" + (codec == "pcm" ? " (s16le mono, even byte length)" : "")
        let audio = UplinkAudio(transcript, source: source, sampleRate: sampleRate)
        guard !audio.chunks.isEmpty else { return context.notExercised(expected, "the client sent no audio") }
        for chunk in audio.chunks {
            guard let bytes = chunk.bytes else {
                return context.fail(expected, "#\(chunk.index): audio is not valid base64", evidence: [chunk.index])
            }
            if let actual = chunk.codec, actual != codec {
                return context.fail(expected, "#\(chunk.index): server decoded \(actual)", evidence: [chunk.index])
            }
            if let rate = transcript.journal[chunk.index].audio?.sampleRate, rate != sampleRate {
                return context.fail(expected, "#\(chunk.index): audio at \(rate) Hz", evidence: [chunk.index])
            }
            if codec == "pcm", bytes % 2 != 0 {
                return context.fail(expected, "#\(chunk.index): odd PCM byte length \(bytes)", evidence: [chunk.index])
            }
        }
        let declaredRate = audio.chunks.lazy.compactMap { transcript.journal[$0.index].audio?.sampleRate }.first
        if codec == "pcm",
            let mislabel = UplinkAudio.rateMislabel(audio.chunks, declaredRate: declaredRate ?? sampleRate)
        {
            return context.fail(
                expected, mislabel.summary,
                evidence: [audio.chunks[0].index, audio.chunks[audio.chunks.count - 1].index])
        }
        return context.pass(
            expected, "\(audio.chunks.count) chunk(s), \(format(audio.totalMs)) ms of audio",
            evidence: audio.chunks.prefix(3).map(\.index))
    }
}
