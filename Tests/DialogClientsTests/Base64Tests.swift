import DialogClients
import Testing

@Suite struct Base64Tests {
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")])
    func encodesRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func rejectsInvalidText() {
        #expect(Base64.decode("@@not base64@@") == nil)
        #expect(Base64.decode("Zg=") == nil)
        #expect(Base64.decode("Z=g=") == nil)
    }

    @Test func roundTripsEveryByte() {
        let bytes = (0..<300).map { UInt8($0 % 256) }
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
    }

    @Test func pcmDurationsFollowTheRate() {
        #expect(AudioDuration.pcmMicros(byteCount: 3200, sampleRate: 16000) == 100_000)
        #expect(AudioDuration.micros(byteCount: 4800, format: "pcm", sampleRate: 24000, bitRateKbps: 32) == 100_000)
        #expect(AudioDuration.micros(byteCount: 400, format: "opus", sampleRate: 24000, bitRateKbps: 32) == 100_000)
    }
}
