import Foundation
import MockSessions
import ProtocolModel
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// A refused upgrade opens no session, so it is listed on its own (`GET /_mock/refusals`): with
/// the test id or case route it carried, the path, the status, the time and the reason.
@Suite("Refused upgrades in the control API")
struct RefusedUpgradeListTests {
    static let model = "qwen3-omni-flash-realtime"

    /// Connects and expects the upgrade to be refused with `status`.
    private func expectRefused(
        _ client: WebSocketClient, _ url: String, headers: [(String, String)] = [], status: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            _ = try await client.connect(url, headers: headers)
            Issue.record("\(url) was accepted", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".contains("\(status)"), "\(url): \(error)", sourceLocation: sourceLocation)
        }
    }

    private func refusals(_ server: MockServer, _ query: String = "") throws -> [JSONValue] {
        let answer = Control.request(server, "GET", "/_mock/refusals" + query)
        #expect(answer.status == 200, "\(answer.body)")
        return try JSONValue.decode(answer.body)["refusals"]?.arrayValue ?? []
    }

    @Test func aRefusedUpgradeWithATestIDIsListedWithStatusAndReason() async throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        // The test id as sessions carry it: the query parameter, or the header.
        await expectRefused(client, "\(server.baseURL)/api-ws/v1/inference?test_id=t-query", status: 401)
        await expectRefused(
            client, "\(server.baseURL)/api-ws/v1/realtime?model=\(Self.model)", headers: [("X-Test-Id", "t-header")],
            status: 401)
        // A plain request on a protocol route never reached the protocol either.
        #expect(Control.request(server, "GET", "/api-ws/v1/inference?test_id=t-plain").status == 426)

        let byQuery = try refusals(server, "?testId=t-query")
        try #require(byQuery.count == 1, "\(byQuery)")
        let refusal = byQuery[0]
        #expect(refusal["status"] == 401)
        #expect(refusal["path"] == "/api-ws/v1/inference")
        #expect(refusal["testId"] == "t-query")
        #expect(refusal["caseId"] == nil)
        #expect(refusal["protocol"] == "multimodal-dialog")
        #expect(refusal["reason"] == "InvalidApiKey: missing Authorization header")
        #expect(refusal["violation"]?["obligation"] == "mmd.C1")
        #expect(
            refusal["violation"]?["message"]
                == "MUST: upgrade refused with 401 (InvalidApiKey: missing Authorization header)")
        let time = try #require(refusal["time"]?.stringValue)
        #expect(time.wholeMatch(of: /20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ/) != nil, "\(time)")

        let byHeader = try refusals(server, "?testId=t-header")
        #expect(byHeader.count == 1)
        #expect(byHeader.first?["status"] == 401)
        #expect(byHeader.first?["path"] == "/api-ws/v1/realtime")
        #expect(byHeader.first?["violation"]?["obligation"] == "qrt.C1")
        #expect(byHeader.first?["reason"] == "InvalidApiKey: No API-key provided.")

        let plain = try refusals(server, "?testId=t-plain")
        #expect(plain.first?["status"] == 426)
        #expect(plain.first?["reason"]?.stringValue?.hasPrefix("UpgradeRequired: ") == true)

        let all = try JSONValue.decode(Control.request(server, "GET", "/_mock/refusals").body)
        #expect(all["refusals"]?.arrayValue?.count == 3)
        #expect(all["dropped"] == 0)
        #expect(try refusals(server, "?testId=t-nobody").isEmpty)
        #expect(server.openSessionCount == 0)
        #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/sessions").body)["sessions"] == [])
    }

    @Test func aRefusedUpgradeOnACaseRouteIsListedAndHandedToTheHarness() async throws {
        let caseID = "qrt.refusal.001"
        var configuration = MockServer.Configuration()
        configuration.caseScenarios = [caseID: ("quick.json", Array(#"{"name": "quick"}"#.utf8))]
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        await expectRefused(
            client, "\(server.baseURL)/case/\(caseID)/api-ws/v1/realtime?model=\(Self.model)", status: 401)
        await expectRefused(
            client, "\(server.baseURL)/case/qrt.nowhere.001/api-ws/v1/realtime?model=\(Self.model)",
            headers: [("Authorization", "Bearer k")], status: 404)

        let listed = try refusals(server, "?caseId=\(caseID)")
        try #require(listed.count == 1, "\(listed)")
        #expect(listed[0]["status"] == 401)
        #expect(listed[0]["caseId"] == .string(caseID))
        #expect(listed[0]["testId"] == nil)
        #expect(listed[0]["path"] == .string("/case/\(caseID)/api-ws/v1/realtime"))
        #expect(listed[0]["violation"]?["obligation"] == "qrt.C1")
        let unknownCase = try refusals(server, "?caseId=qrt.nowhere.001")
        #expect(unknownCase.first?["status"] == 404)
        #expect(unknownCase.first?["reason"] == "NotFound: no conformance case qrt.nowhere.001 on this server")

        // The in-process harness reads the same log.
        let handed = server.refusedUpgrades(caseID: caseID)
        #expect(handed.map(\.obligation) == ["qrt.C1"])
        #expect(handed.map(\.message) == ["upgrade refused with 401 (InvalidApiKey: No API-key provided.)"])

        let reset = try JSONValue.decode(Control.request(server, "POST", "/_mock/reset").body)
        #expect(reset["refusalsForgotten"] == 2)
        #expect(try refusals(server).isEmpty)
    }

    /// A refused Qwen-Audio-Live client is listed as qwen-audio-live with its connect obligation:
    /// on the realtime path the URL's model chose the protocol, not the path alone.
    @Test func aRefusedLiveClientIsListedAsQwenAudioLive() async throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        let live = "/api-ws/v1/realtime?model=\(QwenAudioLive.serviceModel)"
        // A plain request on a protocol route never reached the protocol: refused by the router.
        #expect(Control.request(server, "GET", live + "&test_id=t-live-plain").status == 426)
        let plain = try refusals(server, "?testId=t-live-plain")
        try #require(plain.count == 1, "\(plain)")
        #expect(plain[0]["path"] == "/api-ws/v1/realtime")
        #expect(plain[0]["protocol"] == .string(DialogProtocol.qwenAudioLive.rawValue))
        #expect(plain[0]["violation"]?["obligation"] == .string(DialogProtocol.qwenAudioLive.connectObligation))
    }

    /// An upgrade without a key on either live URL: the engine refuses it (401) under qal.C1,
    /// and the log files it as qwen-audio-live.
    @Test func aLiveUpgradeWithoutAKeyIsFiledUnderQalC1() async throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        let live = "/api-ws/v1/realtime?model=\(QwenAudioLive.serviceModel)"
        let client = WebSocketClient()
        defer { client.shutdown() }
        for (url, testID) in [
            (live + "&test_id=t-live-realtime", "t-live-realtime"),
            (QwenAudioLive.livePath + "?test_id=t-live-path", "t-live-path"),
        ] {
            await expectRefused(client, server.baseURL + url, status: 401)
            let refused = try refusals(server, "?testId=\(testID)")
            try #require(refused.count == 1, "\(refused)")
            #expect(refused[0]["protocol"] == .string(DialogProtocol.qwenAudioLive.rawValue), "\(url)")
            #expect(refused[0]["violation"]?["obligation"] == "qal.C1", "\(url)")
        }
    }

    /// A test id or case keeps its first refusals (a client retrying in a loop adds none), the
    /// log its last ones; both drops are counted.
    @Test func theLogIsBoundedAndCountsWhatItDrops() {
        let log = RefusedUpgrades(limit: 3, limitPerOrigin: 2)
        func refusal(_ testID: String, _ status: Int) -> RefusedUpgrades.Refusal {
            RefusedUpgrades.Refusal(
                atMicros: 0, wallMicros: 0, path: "/api-ws/v1/inference", testID: testID, caseID: nil,
                dialogProtocol: .multimodalDialog, status: status, obligation: "mmd.C1",
                reason: "InvalidApiKey: missing Authorization header")
        }
        for status in [401, 402, 403] { log.record(refusal("loop", status)) }
        #expect(log.refusals { _ in true }.map(\.status) == [401, 402])
        #expect(log.dropped == 1)
        log.record(refusal("a", 404))
        log.record(refusal("b", 405))
        #expect(log.refusals { _ in true }.map(\.status) == [402, 404, 405])
        #expect(log.dropped == 2)
        // The loop's oldest went, so it has room for one again.
        log.record(refusal("loop", 406))
        #expect(log.refusals { $0.testID == "loop" }.map(\.status) == [406])
        #expect(log.forgetAll() == 3)
        #expect(log.refusals { _ in true }.isEmpty && log.dropped == 0)
        #expect(WallClock.rfc3339(micros: 1_700_000_000_042_999) == "2023-11-14T22:13:20.042Z")
    }
}
