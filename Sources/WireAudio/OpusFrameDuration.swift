/// The frame durations Opus accepts: 2.5, 5, 10, 20, 40 or 60 ms.
package enum OpusFrameDuration: Int, CaseIterable, Sendable {
    /// 2.5 ms (raw value in tenths of a millisecond).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case ms2_5 = 25
    /// 5 ms.
    case ms5 = 50
    /// 10 ms.
    case ms10 = 100
    /// 20 ms, the usual choice for speech.
    case ms20 = 200
    /// 40 ms.
    case ms40 = 400
    /// 60 ms.
    case ms60 = 600

    /// The duration for `milliseconds`.
    /// - Throws: `OpusError` with code `OPUS_BAD_ARG` naming the allowed values.
    package init(milliseconds: Double) throws(OpusError) {
        guard let match = Self.allCases.first(where: { abs($0.milliseconds - milliseconds) < 0.001 }) else {
            throw OpusError(
                code: OpusError.Code.OPUS_BAD_ARG.rawValue,
                context: "frame duration \(milliseconds) ms is not one of 2.5, 5, 10, 20, 40, 60 ms")
        }
        self = match
    }

    /// Duration in milliseconds.
    package var milliseconds: Double { Double(rawValue) / 10 }

    /// Samples per channel in one frame at `sampleRate` (e.g. 320 for 20 ms at 16 kHz).
    package func samples(atRate sampleRate: Int) -> Int {
        sampleRate * rawValue / 10_000
    }
}
