import ProtocolModel
import Testing

@testable import MockServer

@Suite("Protocol routes")
struct ProtocolRouteTests {
    @Test func protocolPathsWithAndWithoutCases() {
        #expect(ProtocolRoute(path: "/api-ws/v1/inference") == ProtocolRoute(kind: .multimodalDialog, caseID: nil))
        #expect(ProtocolRoute(path: "/api-ws/v1/inference/")?.kind == .multimodalDialog)
        #expect(ProtocolRoute(path: "/api-ws/v1/realtime")?.kind == .qwenRealtime)
        #expect(
            ProtocolRoute(path: "/case/mmd.tap2talk.001/api-ws/v1/inference")
                == ProtocolRoute(kind: .multimodalDialog, caseID: "mmd.tap2talk.001"))
        #expect(ProtocolRoute(path: "/case/qrt.vad.002/v8k/api-ws/v1/realtime")?.caseID == "qrt.vad.002/v8k")
    }

    @Test func otherPathsAreNotProtocolRoutes() {
        for path in [
            "/", "/api-ws/v1/inferencex", "/case//api-ws/v1/inference", "/case/x y/api-ws/v1/realtime",
            "/case/abc", "/api-ws/v2/realtime", "/_mock/echo",
        ] {
            #expect(ProtocolRoute(path: path) == nil, "\(path)")
        }
    }
}
