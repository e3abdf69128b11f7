import ProtocolModel
import QwenRealtimeEngine
import SessionCore
import Testing

/// Issue 42 (qal.S1): Qwen-Audio-Live on `/api-ws/v1/live` (the model query optional) and on the
/// realtime path by its service model; its refusals break qal.C1, the realtime ones still qrt.C1.
@Suite struct AudioLiveUpgradeTests {
    static let auth = ["authorization": "Bearer sk-test"]

    static func check(
        _ path: String, _ model: String?, _ headers: [String: String] = auth
    ) -> UpgradeVerdict<
        QwenAcceptance
    > {
        QwenUpgrade.check(path: path, queryModel: model, headers: headers, apiKeys: ["sk-test"])
    }

    @Test func bothPathsServeTheDialect() {
        let live = QwenAcceptance(profile: .audioLive, model: QwenAudioLive.serviceModel)
        #expect(Self.check(QwenAudioLive.livePath, nil) == .accept(live), "no model on the live path")
        #expect(Self.check(QwenAudioLive.livePath, QwenAudioLive.serviceModel) == .accept(live))
        #expect(Self.check("/api-ws/v1/realtime", QwenAudioLive.serviceModel) == .accept(live))
        #expect(
            Self.check("/api-ws/v1/live", "qwen-audio-3.2-live-2026-12-01")
                == .accept(QwenAcceptance(profile: .audioLive, model: "qwen-audio-3.2-live-2026-12-01")))
        #expect(Self.check("/case/qal.connect.001/api-ws/v1/live", nil).isAccepted)
        #expect(QwenUpgrade.caseID(inPath: "/case/qal.connect.001/api-ws/v1/live") == "qal.connect.001")
    }

    func obligation(_ verdict: UpgradeVerdict<QwenAcceptance>) -> String? {
        if case .reject(_, _, let obligation) = verdict { return obligation }
        return nil
    }

    @Test func liveRefusalsBreakQalC1() {
        let connect = DialogProtocol.qwenAudioLive.connectObligation
        #expect(obligation(Self.check(QwenAudioLive.livePath, nil, [:])) == connect)
        #expect(Self.check(QwenAudioLive.livePath, nil, [:]).status == 401)
        #expect(obligation(Self.check("/api-ws/v1/realtime", QwenAudioLive.serviceModel, [:])) == connect)
        let realtimeModel = Self.check(QwenAudioLive.livePath, "qwen3-omni-flash-realtime")
        #expect(realtimeModel.status == 400)
        #expect(obligation(realtimeModel) == connect, "the live path serves live models only")
    }

    @Test func realtimeRefusalsStillBreakQrtC1() {
        let connect = DialogProtocol.qwenRealtime.connectObligation
        #expect(obligation(Self.check("/api-ws/v1/realtime", "qwen3-omni-flash-realtime", [:])) == connect)
        #expect(obligation(Self.check("/api-ws/v1/realtime", nil)) == connect)
        #expect(Self.check("/api-ws/v1/realtime", nil).status == 400, "the realtime path still needs its model")
    }
}
