import MockControl
import Testing
import WireSocket

@testable import MockServer

/// The control API answers only on loopback unless `--control-token` is set, and then only with
/// the token; `GET /_mock/health` answers everyone.
@Suite struct ControlAccessTests {
    private func head(_ method: String = "GET", peer: String, authorization: String? = nil) -> HTTPRequestHead {
        HTTPRequestHead(
            method: method, path: "/_mock/sessions", headers: authorization.map { ["authorization": $0] } ?? [:],
            peer: peer)
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("::1", true), ("::FFFF:127.0.0.1", true), ("", true),
        ("10.0.0.5", false), ("192.0.2.7", false), ("::ffff:10.1.1.1", false), ("fe80::1", false),
        ("1127.0.0.1", false),
    ])
    func loopbackPeers(peer: String, loopback: Bool) {
        #expect(ControlAccess.isLoopback(peer) == loopback)
    }

    @Test func withoutATokenOnlyLoopbackIsServed() {
        #expect(ControlAccess.refusal(head(peer: "127.0.0.1"), token: nil, isHealth: false) == nil)
        let refused = ControlAccess.refusal(head(peer: "192.0.2.7"), token: nil, isHealth: false)
        #expect(refused?.status == 403)
        #expect(refused.map { String(decoding: $0.body, as: UTF8.self) }?.contains("--control-token") == true)
        // Probes from other hosts still get the health answer.
        #expect(ControlAccess.refusal(head(peer: "192.0.2.7"), token: nil, isHealth: true) == nil)
        #expect(ControlAccess.refusal(head("POST", peer: "192.0.2.7"), token: nil, isHealth: true)?.status == 403)
    }

    @Test func withATokenEveryHostNeedsIt() {
        for peer in ["127.0.0.1", "192.0.2.7"] {
            #expect(ControlAccess.refusal(head(peer: peer), token: "s3cret", isHealth: false)?.status == 401)
            #expect(
                ControlAccess.refusal(head(peer: peer, authorization: "Bearer nope"), token: "s3cret", isHealth: false)?
                    .status == 401)
            #expect(
                ControlAccess.refusal(
                    head(peer: peer, authorization: "Bearer s3cre"), token: "s3cret", isHealth: false)?.status == 401)
            #expect(
                ControlAccess.refusal(
                    head(peer: peer, authorization: "Basic s3cret"), token: "s3cret", isHealth: false)?.status == 401)
            #expect(
                ControlAccess.refusal(
                    head(peer: peer, authorization: "Bearer s3cret"), token: "s3cret", isHealth: false) == nil)
            #expect(
                ControlAccess.refusal(
                    head(peer: peer, authorization: "bearer  s3cret "), token: "s3cret", isHealth: false) == nil)
        }
    }

    @Test func aServerWithATokenRefusesControlRequestsWithoutIt() throws {
        var configuration = MockServer.Configuration()
        configuration.controlToken = "canary-control-7f3a"
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let refused = Control.request(server, "GET", "/_mock/sessions")
        #expect(refused.status == 401)
        #expect(!refused.body.contains("canary-control-7f3a"))
        #expect(
            Control.request(server, "DELETE", "/_mock/faults", headers: ["Authorization: Bearer wrong"]).status == 401)
        #expect(
            Control.request(server, "GET", "/_mock/sessions", headers: ["Authorization: Bearer canary-control-7f3a"])
                .status == 200)
        #expect(Control.request(server, "GET", "/_mock/health").status == 200)
    }
}
