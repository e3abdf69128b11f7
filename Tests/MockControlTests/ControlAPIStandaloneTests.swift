import AnswerAudio
import ScenarioEngine
import Synchronization
import Testing
import WireJSON
import WireSocket

@testable import MockControl
@testable import MockSessions

/// The control API stands on the session layer alone: no server, router or engine behind it.
@Suite("Control API without a server")
struct ControlAPIStandaloneTests {
    static let quiet = #"{"name": "quiet"}"#

    static func controlAPI(
        sessions: SessionRegistry = SessionRegistry(), installed: @escaping @Sendable (Scenario) -> Void = { _ in }
    ) throws -> ControlAPI {
        let scenario = try Scenario.load(bytes: Array(quiet.utf8), file: "quiet")
        return ControlAPI(
            controlToken: nil, eventLoop: "poll", threads: 3, sessions: sessions, metrics: ServerMetrics(),
            scenarios: ScenarioStore(initial: scenario, timeScaleOverride: nil), answerAudio: .shared,
            refusedUpgrades: RefusedUpgrades(), scenarioInstalled: installed)
    }

    static func request(_ method: String, _ path: String, body: String = "") -> HTTPRequest {
        HTTPRequest(
            head: HTTPRequestHead(method: method, path: path, headers: [:], peer: "127.0.0.1"), body: Array(body.utf8))
    }

    @Test func healthReportsTheServingSettingsItWasGiven() throws {
        let response = try Self.controlAPI().respond(to: Self.request("GET", "/_mock/health"))
        #expect(response.status == 200)
        let body = try JSONValue.decode(response.body)
        #expect(body["version"] == .string(ServerVersion.text))
        #expect(body["eventLoop"] == "poll")
        #expect(body["threads"] == 3)
        #expect(body["scenario"] == "quiet")
    }

    @Test func aPutScenarioIsHandedToTheServer() throws {
        let installed = Mutex<[String]>([])
        let api = try Self.controlAPI { scenario in installed.withLock { $0.append(scenario.name) } }
        let response = api.respond(to: Self.request("PUT", "/_mock/scenario", body: #"{"name": "other"}"#))
        #expect(response.status == 200)
        #expect(installed.withLock { $0 } == ["other"])
        let current = try JSONValue.decode(api.respond(to: Self.request("GET", "/_mock/health")).body)
        #expect(current["scenario"] == "other")
    }

    @Test func errorsAreJSONWithCodeAndMessage() throws {
        let response = try Self.controlAPI().respond(to: Self.request("GET", "/_mock/nowhere"))
        #expect(response.status == 404)
        let body = try JSONValue.decode(response.body)
        #expect(body["code"] == "NotFound")
        #expect(body["message"]?.stringValue?.contains("/_mock/nowhere") == true)
    }
}
