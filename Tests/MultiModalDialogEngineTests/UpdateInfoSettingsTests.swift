import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// §5.6 on the mock: UpdateInfo `upstream` / `downstream` take effect mid-call, bad values are
/// refused with the field named, and images with no video call are pictures, not a violation.
@Suite("UpdateInfo upstream / downstream mid-call and pictures outside a video call")
struct UpdateInfoSettingsTests {
    /// One prompt round, played to the end.
    private func answer(_ harness: SessionHarness, count: Int) {
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "hello"])
        harness.advance(until: "RespondingEnded", count: count)
        harness.directive("LocalRespondingEnded")
        harness.advance(ms: 100)
    }

    @Test func downstreamChangesApplyFromTheNextAnswer() throws {
        let harness = SessionHarness()
        harness.start()
        answer(harness, count: 1)
        let audioAfterFirst = harness.audioFrames.count
        #expect(audioAfterFirst > 0)
        harness.directive("UpdateInfo", parameters: ["downstream": ["type": "Text"]])
        #expect(harness.journal.contains(.info("UpdateInfo changed downstream settings (from the next answer)")))
        answer(harness, count: 2)
        #expect(harness.audioFrames.count == audioAfterFirst)
        #expect(harness.outputs("RespondingContent").count >= 2)
        harness.directive("UpdateInfo", parameters: ["downstream": ["type": "Audio"]])
        answer(harness, count: 3)
        #expect(harness.audioFrames.count > audioAfterFirst)
        #expect(harness.violations.isEmpty, "\(harness.journal)")
    }

    @Test func upstreamModeChangesApplyAtOnce() throws {
        let policies = SessionPolicies(serverSilenceTimeoutMs: nil, audioGapTimeoutMs: 50_000)
        // tap2talk watches the gap in Listening (500 ms here); push2talk does not.
        let toPushToTalk = SessionHarness(scenario: Scenario(name: "gap", seed: 1, timeScale: 0.01, policies: policies))
        toPushToTalk.start()
        toPushToTalk.directive("UpdateInfo", parameters: ["upstream": ["mode": "push2talk"]])
        #expect(toPushToTalk.journal.contains(.info("UpdateInfo changed mode push2talk")))
        toPushToTalk.advance(ms: 1_000)
        #expect(toPushToTalk.closes.isEmpty)
        toPushToTalk.directive("SendSpeech")
        #expect(!toPushToTalk.journal.contains(.info("SendSpeech outside push2talk: nothing to do")))

        let toTapToTalk = SessionHarness(scenario: Scenario(name: "gap", seed: 1, timeScale: 0.01, policies: policies))
        toTapToTalk.start(["upstream": ["mode": "push2talk"]])
        toTapToTalk.advance(ms: 500)
        #expect(toTapToTalk.closes.isEmpty)
        toTapToTalk.directive("UpdateInfo", parameters: ["upstream": ["mode": "tap2talk"]])
        toTapToTalk.advance(ms: 300)
        #expect(toTapToTalk.closes.isEmpty)
        toTapToTalk.advance(ms: 400)
        #expect(toTapToTalk.violations == ["mmd.C11"])
        #expect(toTapToTalk.closes.count == 1)
    }

    @Test func upstreamFormatChangesRestartTheDecoder() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive("UpdateInfo", parameters: ["upstream": ["sample_rate": 8000]])
        #expect(harness.journal.contains(.info("UpdateInfo changed upstream pcm at 8000 Hz")))
        harness.directive("UpdateInfo", parameters: ["upstream": ["audio_format": "opus", "sample_rate": 16000]])
        #expect(harness.journal.contains(.info("UpdateInfo changed upstream opus at 16000 Hz")))
        // The same values again change nothing and say nothing.
        let notes = harness.journal.count
        harness.directive("UpdateInfo", parameters: ["upstream": ["audio_format": "opus"]])
        #expect(harness.journal.count == notes)
    }

    @Test(arguments: [
        (["downstream": ["sample_rate": 44100]] as JSONValue, "payload.parameters.downstream.sample_rate"),
        (["downstream": ["volume": "loud"]] as JSONValue, "payload.parameters.downstream.volume"),
        (["upstream": ["mode": "walkie-talkie"]] as JSONValue, "payload.parameters.upstream.mode"),
        (["upstream": 5] as JSONValue, "payload.parameters.upstream"),
    ])
    func badSettingsAreRefusedWithTheFieldNamed(_ parameters: JSONValue, field: String) throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive("UpdateInfo", parameters: parameters)
        let error = try #require(harness.outputs("Error").last)
        #expect(error["error_name"] == "InvalidParameter")
        #expect(error["error_message"]?.stringValue?.hasPrefix(field) == true, "\(error)")
        #expect(harness.violations == ["mmd.C5"])
        // Nothing changed: the next answer still streams audio in tap2talk.
        answer(harness, count: 1)
        #expect(!harness.audioFrames.isEmpty)
        #expect(harness.closes.isEmpty)
    }

    @Test func imagesWithNoVideoCallArePicturesNotViolations() throws {
        let harness = SessionHarness()
        harness.start()
        let picture: JSONValue = [
            "images": [["type": "base64", "value": .string(ClientMessages.base64(decodedBytes: 2_000))]]
        ]
        harness.directive("UpdateInfo", parameters: picture)
        harness.directive(
            "UpdateInfo", parameters: ["images": [["type": "url", "value": "https://example.com/a.jpg"]]])
        #expect(harness.violations.isEmpty)
        #expect(
            harness.journal.contains(
                .info("UpdateInfo images outside a video call: accepted as pictures for the agent")))
    }

    @Test func aFrameBeforeTheConnectRoundIsBackBreaksC15() throws {
        let harness = SessionHarness()
        harness.start(["upstream": ["type": "AudioAndVideo"]])
        let connect: JSONValue = ["biz_params": ["videos": [["action": "connect", "type": "voicechat_video_channel"]]]]
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": ""], parameters: connect)
        let frame: JSONValue = [
            "images": [["type": "base64", "value": .string(ClientMessages.base64(decodedBytes: 2_000))]]
        ]
        harness.directive("UpdateInfo", parameters: frame)
        #expect(harness.violations == ["mmd.C15"])
        harness.advance(until: "RespondingEnded")
        harness.directive("LocalRespondingEnded")
        harness.directive("UpdateInfo", parameters: frame)
        #expect(harness.violations == ["mmd.C15"])
    }
}
