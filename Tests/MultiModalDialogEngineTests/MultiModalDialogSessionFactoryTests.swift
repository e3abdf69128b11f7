import AnswerAudio
import MultiModalDialogEngine
import ScenarioEngine
import SessionCore
import Testing

/// The engine as the router sees it: S1 through the factory, then a session with the server's
/// settings and dialog memory.
@Suite struct MultiModalDialogSessionFactoryTests {
    static let factory = MultiModalDialogSessionFactory<ManualClock>(
        settings: EngineSettings(apiKeys: ["sk-1"], baseDirectory: "/scenarios", answerAudio: .inline),
        memory: DialogMemory())

    static func request(_ path: String, authorization: String) -> UpgradeRequest {
        UpgradeRequest(path: path, headers: ["authorization": authorization], query: [:])
    }

    @Test func theServersKeysDecideTheUpgrade() {
        #expect(
            Self.factory.checkUpgrade(Self.request("/api-ws/v1/inference", authorization: "Bearer sk-1")).isAccepted)
        #expect(
            Self.factory.checkUpgrade(Self.request("/api-ws/v1/inference", authorization: "Bearer sk-2")).status == 401)
        #expect(
            Self.factory.checkUpgrade(Self.request("/api-ws/v1/realtime", authorization: "Bearer sk-1")).status == 404)
    }

    @Test func aBareKeysNoteOpensTheJournal() throws {
        guard
            case .accept(let notes) = Self.factory.checkUpgrade(
                Self.request("/api-ws/v1/inference", authorization: "sk-1"))
        else {
            Issue.record("a bare key is accepted (with a note)")
            return
        }
        #expect(notes.count == 1)
        #expect(Self.factory.openingNotes(notes) == notes)
    }

    @Test func theSessionGetsTheServersSettings() throws {
        let scenario = try Scenario.load(bytes: Array(#"{"name": "plain"}"#.utf8), file: "plain.json")
        let session = Self.factory.makeSession(
            scenario: ScenarioBridge(runtime: ScenarioRuntime(scenario: scenario, clock: ManualClock())), accepted: [])
        #expect(session.options.audioBaseDirectory == "/scenarios")
    }
}
