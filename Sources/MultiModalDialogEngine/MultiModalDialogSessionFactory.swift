package import ScenarioEngine
package import SessionCore

/// The multimodal dialog engine as the router sees it: ``MultiModalDialogUpgrade`` for S1, then
/// a ``MultiModalDialogSession`` sharing the server's dialog memory.
package struct MultiModalDialogSessionFactory<Clock: ScenarioClock>: ProtocolSessionFactory {
    package var settings: EngineSettings
    /// The server-wide dialog memory (`dialog_id` resume across sessions).
    package var memory: DialogMemory

    package init(settings: EngineSettings, memory: DialogMemory) {
        self.settings = settings
        self.memory = memory
    }

    /// Accepts with the notes the check made (a credential without `Bearer `).
    package func checkUpgrade(_ request: UpgradeRequest) -> UpgradeVerdict<[JournalNote]> {
        MultiModalDialogUpgrade.check(path: request.path, headers: request.headers, apiKeys: Set(settings.apiKeys))
    }

    package func makeSession(
        scenario: ScenarioBridge<Clock>, accepted: [JournalNote]
    ) -> MultiModalDialogSession<Clock> {
        var options = MultiModalDialogSessionOptions()
        options.audioBaseDirectory = settings.baseDirectory
        options.answerAudio = settings.answerAudio
        return MultiModalDialogSession(scenario: scenario, memory: memory, options: options)
    }

    package func openingNotes(_ accepted: [JournalNote]) -> [JournalNote] { accepted }
}
