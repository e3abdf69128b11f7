import Foundation
import MockControl
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// No silent wildcard: a query parameter a control route does not take is a 400 naming it
/// (with the close one it takes, if any), never a filter dropped on the floor.
@Suite("Control API query parameters")
struct ControlQueryTests {
    private func arm(_ server: MockServer, testID: String) {
        let body = #"{"testId": "\#(testID)", "fault": {"kind": "drop", "match": {"type": "x"}}}"#
        #expect(Control.request(server, "POST", "/_mock/faults", body: body).status == 200)
    }

    private func armedTestIDs(_ server: MockServer) throws -> [String] {
        let listed = try JSONValue.decode(Control.request(server, "GET", "/_mock/faults").body)
        return listed["faults"]?.arrayValue?.compactMap { $0["testId"]?.stringValue } ?? []
    }

    /// `DELETE /_mock/faults?testid=t2` used to remove every test's faults.
    @Test func aMisspeltFilterIsRefusedWithASuggestionAndRemovesNothing() async throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        arm(server, testID: "t1")
        arm(server, testID: "t2")
        let refused = Control.request(server, "DELETE", "/_mock/faults?testid=t2")
        #expect(refused.status == 400)
        let body = try JSONValue.decode(refused.body)
        #expect(body["code"] == "UnknownQueryParameter")
        #expect(body["message"] == "unknown query parameter testid; did you mean testId?")
        #expect(body["parameter"] == "testid")
        #expect(body["didYouMean"] == "testId")
        #expect(try armedTestIDs(server) == ["t1", "t2"], "nothing removed")
        // Spelt right, it removes that test's faults only.
        let removed = try JSONValue.decode(Control.request(server, "DELETE", "/_mock/faults?testId=t2").body)
        #expect(removed["removed"]?.arrayValue?.count == 1)
        #expect(try armedTestIDs(server) == ["t1"])
    }

    @Test func unknownAndRepeatedParametersAreRefusedOnEveryRoute() async throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        for (method, target, message) in [
            (
                "GET", "/_mock/sessions?state=closed",
                "unknown query parameter state; GET /_mock/sessions takes testId, caseId, open"
            ),
            ("GET", "/_mock/sessions?test_id=t1", "unknown query parameter test_id; did you mean testId?"),
            ("GET", "/_mock/refusals?caseid=c1", "unknown query parameter caseid; did you mean caseId?"),
            ("GET", "/_mock/faults?sesion=s1", "unknown query parameter sesion; did you mean session?"),
            (
                "GET", "/_mock/health?verbose=1",
                "unknown query parameter verbose; GET /_mock/health takes no query parameters"
            ),
            (
                "GET", "/_mock/sessions/s1/journal?testId=t1",
                "unknown query parameter testId; GET /_mock/sessions/{id}/journal takes from"
            ),
            (
                "POST", "/_mock/reset?force=true",
                "unknown query parameter force; POST /_mock/reset takes no query parameters"
            ),
            (
                "GET", "/_mock/sessions?testId=a&testId=b",
                "query parameter testId is given more than once; give it once"
            ),
        ] {
            let answer = Control.request(server, method, target)
            #expect(answer.status == 400, "\(method) \(target)")
            #expect(try JSONValue.decode(answer.body)["message"] == .string(message), "\(method) \(target)")
        }
    }

    /// `ControlRoute.queryParameters` is each route's one table: every parameter in it is
    /// taken, and the OpenAPI document and the README's route table show it.
    @Test func everyParameterARouteTakesIsServedAndDocumented() throws {
        let router = try Router(configuration: MockServer.Configuration())
        let document = ControlAPIDocument.document
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("mock-server/README.md"), encoding: .utf8)
        let taking = ControlRoute.allCases.filter { !$0.queryParameters.isEmpty }
        #expect(Set(taking) == [.sessions, .refusals, .listFaults, .removeFaults, .journal, .dashboard])
        for route in taking {
            let items = route.queryParameters.map {
                HTTPRequestHead.QueryItem(name: $0, value: $0 == "open" ? "true" : $0 == "from" ? "0" : "x")
            }
            // Taken, then answered: no session is called {id}, and this server has no token to match.
            let status = [ControlRoute.journal: 404, .dashboard: 401][route] ?? 200
            for item in items + [nil] {
                let query = item.map { [$0] } ?? items  // each alone, then all together
                let answer = router.respond(
                    to: HTTPRequest(
                        head: HTTPRequestHead(method: route.method, path: route.path, queryItems: query, headers: [:]),
                        body: []))
                #expect(answer.status == status, "\(route.method) \(route.path) \(query.map(\.name))")
            }
            let documented =
                document["paths"]?[route.path]?[route.method.lowercased()]?["parameters"]?.arrayValue?
                .filter { $0["in"] == "query" }.compactMap { $0["name"]?.stringValue } ?? []
            #expect(documented == route.queryParameters, "\(route)")
            let path = route.path.replacingOccurrences(of: "{id}", with: "<id>")
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(route.method) \(path)[") }
            for name in route.queryParameters {
                #expect(row?.contains("\(name)=") == true, "README row of \(route.method) \(route.path) names \(name)")
            }
        }
    }
}
