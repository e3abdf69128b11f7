import MockSessions
import ProtocolModel
import ScenarioEngine
import Testing
import WireJSON

@testable import MockCapture

/// A replayed session answers an injected error in the recorded protocol's own frame (its
/// descriptor's), not in one shape for both.
@Suite struct ReplayErrorFrameTests {
    static func injectedError(_ dialogProtocol: DialogProtocol) throws -> JSONValue {
        let scenario = try Scenario.load(bytes: Array(#"{"name": "replayed"}"#.utf8), file: "replayed.json")
        let session = ReplaySession(
            runtime: ScenarioRuntime(scenario: scenario, clock: MonotonicScenarioClock()), protocol: dialogProtocol)
        let frames = session.render(.injectError(ErrorSpec(code: "Throttled", message: "slow down")), atMicros: 0)
        let frame = try #require(frames.first)
        return try JSONValue.decode(frame.bytes)
    }

    @Test func aMultimodalReplayFailsTheTask() throws {
        let frame = try Self.injectedError(.multimodalDialog)
        #expect(frame["header"]?["event"]?.stringValue == "task-failed")
        #expect(frame["header"]?["error_code"]?.stringValue == "Throttled")
    }

    @Test func aQwenAudioLiveReplaySendsTheLiveErrorEvent() throws {
        let frame = try Self.injectedError(.qwenAudioLive)
        #expect(frame["type"]?.stringValue == QwenAudioLiveServerEvent.error.rawValue)
        #expect(frame["event_id"]?.stringValue?.isEmpty == false)
        #expect(frame["error"]?["code"]?.stringValue == "Throttled")
        #expect(frame["error"]?["message"]?.stringValue == "slow down")
    }

    @Test func aQwenReplaySendsAnErrorEvent() throws {
        let frame = try Self.injectedError(.qwenRealtime)
        #expect(frame["type"]?.stringValue == "error")
        #expect(frame["error"]?["code"]?.stringValue == "Throttled")
        #expect(frame["error"]?["message"]?.stringValue == "slow down")
    }
}
