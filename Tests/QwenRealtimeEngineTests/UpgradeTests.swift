import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// S1: path, Bearer key and model checks on the upgrade; profile by model name.
@Suite struct UpgradeTests {
    static let auth = ["authorization": "Bearer sk-test"]

    @Test(arguments: [
        ("qwen-audio-3.0-realtime-plus", QwenProfile.audio), ("qwen-audio-3.1-realtime-flash", .audio),
        ("qwen-omni-turbo-realtime", .omni), ("qwen3-omni-flash-realtime", .omni),
        ("qwen3.5-omni-plus-realtime", .omni), ("qwen3.8-omni-flash-realtime-2026-01-01", .omni),
    ])
    func knownModelsChooseTheirProfile(model: String, profile: QwenProfile) {
        let verdict = QwenUpgrade.check(path: "/api-ws/v1/realtime", queryModel: model, headers: Self.auth, apiKeys: [])
        #expect(verdict == .accept(QwenAcceptance(profile: profile, model: model)))
    }

    @Test func casePathsAreServed() {
        let verdict = QwenRealtimeSession<ManualClock>.checkUpgrade(
            path: "/case/qrt.session.003/api-ws/v1/realtime", queryModel: "qwen3-omni-flash-realtime",
            headers: Self.auth, apiKeys: ["sk-test"])
        #expect(verdict.isAccepted)
        #expect(QwenUpgrade.caseID(inPath: "/case/qrt.session.003/api-ws/v1/realtime") == "qrt.session.003")
        // Matrix variants and repeated runs have `/` in their ids, as the router accepts them.
        #expect(
            QwenUpgrade.caseID(inPath: "/case/qrt.session.003/repeat-2/api-ws/v1/realtime")
                == "qrt.session.003/repeat-2")
        for bad in [
            "/case//api-ws/v1/realtime", "/case/a//b/api-ws/v1/realtime", "/case/a b/api-ws/v1/realtime",
            "/case/qrt.x.001/api-ws/v1/inference",
        ] {
            #expect(QwenUpgrade.caseID(inPath: bad) == nil, "\(bad)")
        }
    }

    /// A trailing slash routes as on the multimodal path (one rule: `CaseRoute.match`).
    @Test func aTrailingSlashIsTheSameEndpoint() {
        for path in ["/api-ws/v1/realtime/", "/case/qrt.session.003/api-ws/v1/realtime/"] {
            let verdict = QwenUpgrade.check(
                path: path, queryModel: "qwen3-omni-flash-realtime", headers: Self.auth, apiKeys: [])
            #expect(verdict.isAccepted, "\(path)")
        }
        #expect(QwenUpgrade.caseID(inPath: "/case/qrt.session.003/api-ws/v1/realtime/") == "qrt.session.003")
        for refused in ["/api-ws/v1/realtime//", "/api-ws/v1/realtimex", "/api-ws/v1/"] {
            #expect(
                !QwenUpgrade.check(
                    path: refused, queryModel: "qwen3-omni-flash-realtime", headers: Self.auth, apiKeys: []
                ).isAccepted,
                "\(refused)")
        }
    }

    @Test(
        arguments: [
            ("/api-ws/v1/realtime", nil, ["authorization": "Bearer sk-test"], 400, "InvalidParameter"),
            ("/api-ws/v1/realtime", "gpt-4o-realtime", ["authorization": "Bearer sk-test"], 400, "InvalidParameter"),
            ("/api-ws/v1/realtime", "qwen-audio-3.0-realtime-plus", [:], 401, "InvalidApiKey"),
            (
                "/api-ws/v1/realtime", "qwen-audio-3.0-realtime-plus", ["authorization": "Basic abc"], 401,
                "InvalidApiKey"
            ),
            (
                "/api-ws/v1/realtime", "qwen-audio-3.0-realtime-plus", ["authorization": "Bearer sk-wrong"], 401,
                "InvalidApiKey"
            ),
            (
                "/api-ws/v1/inference", "qwen-audio-3.0-realtime-plus", ["authorization": "Bearer sk-test"], 404,
                "NotFound"
            ),
        ] as [(String, String?, [String: String], Int, String)])
    func badUpgradesAreRefused(
        path: String, model: String?, headers: [String: String], status: Int, code: String
    ) throws {
        let verdict = QwenUpgrade.check(path: path, queryModel: model, headers: headers, apiKeys: ["sk-test"])
        guard case .reject(status: let actual, body: let json, obligation: let obligation) = verdict else {
            Issue.record("accepted")
            return
        }
        #expect(actual == status)
        #expect(obligation == "qrt.C1")
        #expect(json["code"]?.stringValue == code)
        #expect(json["message"]?.stringValue?.isEmpty == false)
    }

    /// Issue 12 item 5: a same-family model the mock does not emulate is refused with a message
    /// that names it and says so, not a bare "not supported".
    @Test func liveTranslateIsRefusedByName() throws {
        let verdict = QwenUpgrade.check(
            path: "/api-ws/v1/realtime", queryModel: "qwen3-livetranslate-flash-realtime",
            headers: ["authorization": "Bearer sk-test"], apiKeys: ["sk-test"])
        guard case .reject(status: 400, body: let json, obligation: _) = verdict else {
            Issue.record("not refused with 400: \(verdict)")
            return
        }
        let message = try #require(json["message"]?.stringValue)
        #expect(
            message.contains("qwen3-livetranslate-flash-realtime") && message.contains("does not emulate LiveTranslate")
        )
        #expect(message.contains("qwen3-asr-flash-realtime"))
    }

    @Test func audioModelPatternIsStrict() {
        #expect(QwenProfile(model: "qwen-audio-turbo") == nil)
        #expect(QwenProfile(model: "qwen-audio-3.0-realtime-") == nil)
        #expect(QwenProfile(model: "qwen-audio-3.0-realtime") == .audio)
        #expect(QwenProfile(model: "qwen-omni-turbo") == nil)
    }
}
