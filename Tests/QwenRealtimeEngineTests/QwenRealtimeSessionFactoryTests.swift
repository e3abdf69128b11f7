import AnswerAudio
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing

/// The engine as the router sees it: S1 through the factory (the model query picks the dialect),
/// then a session of that dialect.
@Suite struct QwenRealtimeSessionFactoryTests {
    static let factory = QwenRealtimeSessionFactory<ManualClock>(
        settings: EngineSettings(apiKeys: [], baseDirectory: ".", answerAudio: .inline))

    static func request(model: String?) -> UpgradeRequest {
        UpgradeRequest(
            path: "/api-ws/v1/realtime", headers: ["authorization": "Bearer sk-test"],
            query: model.map { ["model": $0] } ?? [:])
    }

    @Test func theModelQueryIsRequired() {
        #expect(Self.factory.checkUpgrade(Self.request(model: nil)).status == 400)
    }

    @Test func theModelsDialectServesTheSession() throws {
        guard
            case .accept(let accepted) = Self.factory.checkUpgrade(Self.request(model: "qwen-audio-3.0-realtime-plus"))
        else {
            Issue.record("a known model is accepted")
            return
        }
        #expect(accepted.profile == .audio)
        let scenario = try Scenario.load(bytes: Array(#"{"name": "plain"}"#.utf8), file: "plain.json")
        let session = Self.factory.makeSession(
            scenario: ScenarioBridge(runtime: ScenarioRuntime(scenario: scenario, clock: ManualClock())),
            accepted: accepted)
        #expect(session.model == "qwen-audio-3.0-realtime-plus")
        #expect(session.dialect.profile == .audio)
    }
}
