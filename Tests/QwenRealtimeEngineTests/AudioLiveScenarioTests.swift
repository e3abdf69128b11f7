import Foundation
import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// Issue 42: every shipped scenario (mock-server/scenarios) runs on the Qwen-Audio-Live dialect:
/// a documented client speaks a turn and closes; the scenario's turns, delays, errors and faults
/// apply, nothing traps, and every judged obligation is a `qal.*` one.
@Suite struct AudioLiveScenarioTests {
    static let folder = Fixtures.directory + "/../../../mock-server/scenarios"

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func theScenariosAreFound() {
        #expect(Self.names.contains("default.json") && Self.names.count > 10)
    }

    @Test(arguments: names)
    func aShippedScenarioRunsOnTheDialect(file: String) throws {
        let scenario = try Scenario.load(bytes: try FileBytes.read(path: Self.folder + "/" + file), file: file)
        let harness = QwenHarness(scenario: scenario, model: QwenAudioLive.serviceModel, baseDirectory: Self.folder)
        harness.appendEvent = QwenAudioLiveClientEvent.inputAudioAppend.rawValue
        AudioLiveHarness.configure(harness)
        try AudioLiveHarness.speak(harness, silenceMs: 8_000)
        harness.send(QwenAudioLiveClientEvent.sessionClose.rawValue)
        harness.advance(ms: 1_000)
        #expect(harness.violations.allSatisfy { $0.hasPrefix("qal.") }, "\(file): \(harness.violations)")
        let realtimeOnly = harness.types.filter { $0.hasPrefix("response.") && $0 != "response.event" }
        #expect(realtimeOnly.isEmpty, "\(file): \(realtimeOnly)")
    }

    @Test func theDefaultScenarioGivesAFullTurn() throws {
        let file = "default.json"
        let scenario = try Scenario.load(bytes: try FileBytes.read(path: Self.folder + "/" + file), file: file)
        let harness = QwenHarness(scenario: scenario, model: QwenAudioLive.serviceModel, baseDirectory: Self.folder)
        harness.appendEvent = QwenAudioLiveClientEvent.inputAudioAppend.rawValue
        AudioLiveHarness.configure(harness)
        try AudioLiveHarness.speak(harness, silenceMs: 10_000)
        #expect(!AudioLiveHarness.text(harness, .inputTranscriptDelta).isEmpty)
        #expect(!AudioLiveHarness.text(harness, .outputTranscriptDelta).isEmpty)
        #expect(AudioLiveHarness.answerAudioBytes(harness) > 0)
    }
}
