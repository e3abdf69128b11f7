package import ScenarioEngine
package import SessionCore

/// The Qwen realtime engine as the router sees it: ``QwenUpgrade`` for S1 (the model picks the
/// profile), then a ``QwenRealtimeSession`` of that profile.
package struct QwenRealtimeSessionFactory<Clock: ScenarioClock>: ProtocolSessionFactory {
    package var settings: EngineSettings

    package init(settings: EngineSettings) { self.settings = settings }

    package func checkUpgrade(_ request: UpgradeRequest) -> UpgradeVerdict<QwenAcceptance> {
        QwenUpgrade.check(
            path: request.path, queryModel: request.query["model"], headers: request.headers, apiKeys: settings.apiKeys)
    }

    package func makeSession(scenario: ScenarioBridge<Clock>, accepted: QwenAcceptance) -> QwenRealtimeSession<Clock> {
        QwenRealtimeSession(
            scenario: scenario, model: accepted.model, profile: accepted.profile, baseDirectory: settings.baseDirectory,
            answerAudio: settings.answerAudio)
    }
}
