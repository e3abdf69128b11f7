import Foundation
import MockServer
import Testing
import WireSocket

/// A refused upgrade (S1 / S2 of both protocols) as the client libraries real clients are built
/// on read it: Python's `websockets` (under the `openai` realtime client), `websocket-client`
/// (under the `dashscope` SDK) and the package's own Swift client. Each must see the HTTP status
/// and the service's JSON error body, not "did not receive a valid HTTP response".
@Suite("Refused upgrades through real client libraries")
struct RefusedUpgradeClientTests {
    static let goodKey = "sk-refusal-test"
    static let qwenModel = "qwen3-omni-flash-realtime"

    struct Refusal: Sendable, CustomStringConvertible {
        let path: String
        let headers: [(String, String)]
        let status: Int
        let code: String
        var description: String { "\(status) \(code) at \(path)" }
    }

    static let refusals: [Refusal] = [
        Refusal(path: "/api-ws/v1/realtime?model=\(qwenModel)", headers: [], status: 401, code: "InvalidApiKey"),
        Refusal(
            path: "/api-ws/v1/realtime?model=\(qwenModel)", headers: [("Authorization", "Bearer sk-wrong")],
            status: 401, code: "InvalidApiKey"),
        Refusal(
            path: "/api-ws/v1/realtime?model=gpt-4o-realtime-preview",
            headers: [("Authorization", "Bearer \(goodKey)")],
            status: 400, code: "InvalidParameter"),
        Refusal(
            path: "/api-ws/v1/realtime", headers: [("Authorization", "Bearer \(goodKey)")], status: 400,
            code: "InvalidParameter"),
        Refusal(path: "/api-ws/v1/inference", headers: [], status: 401, code: "InvalidApiKey"),
        Refusal(
            path: "/api-ws/v1/inference", headers: [("Authorization", "Bearer sk-wrong")], status: 401,
            code: "InvalidApiKey"),
        Refusal(
            path: "/api-ws/v1/nowhere", headers: [("Authorization", "Bearer \(goodKey)")], status: 404, code: "NotFound"
        ),
    ]

    private static func startMock() throws -> MockServer {
        var configuration = MockServer.Configuration()
        configuration.apiKeys = [goodKey]
        let server = try MockServer(configuration: configuration)
        try server.start()
        return server
    }

    @Test(arguments: refusals)
    func pythonLibrariesReadTheStatusAndBody(_ refusal: Refusal) async throws {
        let server = try Self.startMock()
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "refusals.py",
            ["\(server.baseURL)\(refusal.path)"]
                + refusal.headers.map { "\($0.0):\($0.1)" }, timeout: 30)
        for library in ["websockets", "websocket-client"] {
            let outcome = result[library] as? [String: Any] ?? [:]
            #expect(outcome["error"] == nil, "\(library): \(outcome["error"] ?? "")")
            #expect(outcome["status"] as? Int == refusal.status, "\(library): \(outcome)")
            let body = outcome["body"] as? [String: Any] ?? [:]
            #expect(body["code"] as? String == refusal.code, "\(library): \(body)")
            #expect(!(body["message"] as? String ?? "").isEmpty, "\(library): \(body)")
        }
    }

    @Test func theSwiftClientNamesTheStatus() async throws {
        let server = try Self.startMock()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        for refusal in Self.refusals {
            do {
                let connection = try await client.connect("\(server.baseURL)\(refusal.path)", headers: refusal.headers)
                connection.close(code: .normal)
                Issue.record("\(refusal): the upgrade was accepted")
            } catch {
                #expect(error.message.contains("HTTP \(refusal.status)"), "\(refusal): \(error.message)")
            }
        }
    }
}
