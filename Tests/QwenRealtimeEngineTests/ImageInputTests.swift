import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// §8.8: omni image input (S18, C16).
@Suite struct ImageInputTests {
    static func omni() -> QwenHarness {
        let harness = QwenHarness(
            scenario: QwenHarness.scenario([TurnContent(transcript: "这是什么？", answer: "这是一只猫。")]),
            model: "qwen3.5-omni-plus-realtime")
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.advance(ms: 10)
        return harness
    }

    static func image(_ bytes: [UInt8] = Fixtures.jpegBytes) -> JSONObject {
        ["image": .string(Base64.encode(bytes))]
    }

    @Test func imagesAreCommittedWithTheAudio() throws {
        let harness = Self.omni()
        harness.appendAudio(try Fixtures.speech().slice(fromMs: 0, toMs: 500))
        harness.send("input_image_buffer.append", Self.image())
        harness.appendAudio(try Fixtures.speech().slice(fromMs: 500, toMs: 1000))
        let before = harness.types.count
        #expect(harness.events("error").isEmpty)
        harness.send("input_audio_buffer.commit")
        #expect(
            harness.types(since: before).prefix(2) == ["input_audio_buffer.committed", "conversation.item.created"])
        #expect(
            harness.notes.contains(
                .info(
                    "1 image(s) committed with \(harness.events("input_audio_buffer.committed")[0]["item_id"]!.stringValue!)"
                )))
        #expect(harness.violations.isEmpty)
    }

    @Test func imageBeforeAudioIsRefused() throws {
        let harness = Self.omni()
        harness.send("input_image_buffer.append", Self.image())
        #expect(harness.events("error").first?["error"]?["code"] == "image_before_audio")
        #expect(harness.violations == ["qrt.C16"])
    }

    @Test func largeAndNonJPEGImagesAreRefused() throws {
        let harness = Self.omni()
        harness.appendSilence(ms: 100)
        harness.send(
            "input_image_buffer.append", Self.image(Fixtures.jpegBytes + [UInt8](repeating: 7, count: 200_000)))
        harness.send("input_image_buffer.append", Self.image([0x89, 0x50, 0x4E, 0x47, 1, 2, 3, 4]))
        harness.send("input_image_buffer.append", ["image": "not base64!"])
        let codes = harness.events("error").compactMap { $0["error"]?["code"]?.stringValue }
        #expect(codes == ["image_too_large", "invalid_value", "invalid_value"])
        #expect(harness.violations == ["qrt.C16", "qrt.C16", "qrt.C16"])
    }

    @Test func audioProfileHasNoImageInput() throws {
        let harness = QwenHarness()
        harness.send("session.update", ["session": [:]])
        harness.send("input_image_buffer.append", Self.image())
        #expect(harness.events("error").first?["error"]?["code"] == "unknown_event")
        #expect(harness.violations == ["qrt.C17"])
    }
}
