import WireAudio

/// The espeak-ng fixtures of WireAudioTests, located from this file's path.
enum Fixtures {
    /// `Tests/WireAudioTests/Fixtures`.
    static var directory: String {
        let here = String(#filePath)
        let testsDirectory = here.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(
            separator: "/")
        return testsDirectory + "/WireAudioTests/Fixtures"
    }

    /// 1.0 s silence, "What is the weather like today" (1.00–2.73 s), 1.5 s silence; 16 kHz.
    static func paddedSpeech() throws -> PCMBuffer {
        try WAVFile.read(path: directory + "/speech-padded-16k.wav")
    }

    /// The speech alone.
    static func speech() throws -> PCMBuffer {
        try WAVFile.read(path: directory + "/speech-16k.wav")
    }

    /// A minimal JPEG-looking payload (SOI marker + filler).
    static let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x11, count: 60) + [0xFF, 0xD9]
}
