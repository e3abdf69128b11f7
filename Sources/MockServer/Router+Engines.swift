import MockSessions
import MultiModalDialogEngine
import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import WireSocket

extension Router {
    /// The engines' settings from the server's configuration.
    var engineSettings: EngineSettings {
        EngineSettings(
            apiKeys: configuration.apiKeys, baseDirectory: configuration.scenarioDirectory, answerAudio: answerAudio)
    }

    /// Hands a protocol route to its engine: the one registration of engines in the server (a new
    /// ``DialogProtocol`` case is a compile error here until its factory is named).
    func upgradeEngine(_ route: ProtocolRoute, _ request: HTTPRequestHead, scenario: Scenario) -> UpgradeDecision {
        switch route.kind {
        case .multimodalDialog:
            upgrade(
                route, request, scenario: scenario,
                with: MultiModalDialogSessionFactory<MonotonicScenarioClock>(
                    settings: engineSettings, memory: dialogMemory))
        case .qwenRealtime, .qwenAudioLive:
            upgrade(
                route, request, scenario: scenario,
                with: QwenRealtimeSessionFactory<MonotonicScenarioClock>(settings: engineSettings))
        }
    }

    /// The engine checks the request (S1: path, auth, parameters); an accepted one starts a
    /// session with the route's scenario, a refused one is answered and kept.
    private func upgrade<Factory: ProtocolSessionFactory>(
        _ route: ProtocolRoute, _ request: HTTPRequestHead, scenario: Scenario, with factory: Factory
    ) -> UpgradeDecision where Factory.Clock == MonotonicScenarioClock {
        let verdict = factory.checkUpgrade(
            UpgradeRequest(
                path: request.path, headers: request.headers,
                query: Dictionary(
                    request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
        )
        switch verdict {
        case .reject(let status, let body, let obligation):
            return refuse(request, status: status, body: body, obligation: obligation)
        case .accept(let accepted):
            let session = factory.makeSession(
                scenario: ScenarioBridge(runtime: makeRuntime(scenario, for: request, route: route)), accepted: accepted
            )
            return startSession(
                session, protocolName: route.kind.rawValue, request: request, caseID: route.caseID,
                scenario: scenario.name, maxMessageBytes: Self.maxProtocolMessageBytes,
                initialNotes: factory.openingNotes(accepted))
        }
    }
}
