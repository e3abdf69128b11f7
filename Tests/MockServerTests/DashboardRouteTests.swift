import Foundation
import MockControl
import MockSessions
import ScenarioEngine
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// The dashboard: its page at `/` and `/_mock/ui`, its files, its live feed of session events,
/// and the cookie that lets a browser in when the server has a control token.
@Suite("Dashboard routes")
struct DashboardRouteTests {
    @Test func thePageIsServedAtTheRootAndUnderUIWithItsFiles() throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        for path in ["/", "/_mock/ui"] {
            let page = Control.exchange(server, "GET", path)
            #expect(page.status == 200, "\(path)")
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.body.contains("<title>DialogMock dashboard</title>"))
            #expect(page.body.contains(#"<script src="/_mock/ui/timeline.js"></script>"#))
            #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        }
        for (file, type, marker) in [
            ("timeline.js", "text/javascript", "window.DialogTimeline = {"),
            ("timeline.css", "text/css", ".dtl-band"),
            ("dashboard.js", "text/javascript", "/_mock/ui/live"),
            ("dashboard.css", "text/css", ".badge.fail"),
        ] {
            let answer = Control.exchange(server, "GET", "/_mock/ui/" + file)
            #expect(answer.status == 200, "\(file)")
            #expect(answer.headers["content-type"]?.hasPrefix(type) == true, "\(file)")
            #expect(answer.body.contains(marker), "\(file)")
        }
        let missing = Control.exchange(server, "GET", "/_mock/ui/nothing.js")
        #expect(missing.status == 404)
        #expect(try JSONValue.decode(missing.body)["code"] == "NotFound")
        #expect(Control.exchange(server, "GET", "/_mock/ui?tokn=x").status == 400)
        #expect(Control.exchange(server, "POST", "/_mock/ui").status == 405)
        #expect(Control.exchange(server, "GET", "/_mock/ui/live").status == 426)
        // Other paths outside /_mock stay 404s.
        #expect(Control.exchange(server, "GET", "/index.html").status == 404)
    }

    @Test func theFaultKindsAreListedWithExamplesThatArm() throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        let answer = Control.exchange(server, "GET", "/_mock/fault-kinds")
        #expect(answer.status == 200)
        let kinds = try #require(try JSONValue.decode(answer.body)["kinds"]?.arrayValue)
        #expect(kinds.compactMap { $0["kind"]?.stringValue } == FaultSpec.KindName.allCases.map(\.rawValue))
        for kind in kinds {
            let example = try #require(kind["example"])
            #expect(example["kind"] == kind["kind"])
            #expect(kind["summary"]?.stringValue?.isEmpty == false)
            let armed = Control.request(
                server, "POST", "/_mock/faults",
                body: JSONValue.object(["testId": "kinds", "fault": example]).encodedString())
            #expect(armed.status == 200, "\(kind): \(armed.body)")
        }
    }

    @Test func withoutADashboardNothingIsPostedAndTheFeedAnnouncesSessions() async throws {
        try await withChatterServer(scenario: #"{"name": "quiet"}"#) { server, client in
            let events = server.router.sessions.events
            // No dashboard: a session subscribes nothing itself (what posting then costs is
            // SessionEventsTests' business).
            let unwatched = try await client.connect("\(server.baseURL)/chatter?test_id=before")
            _ = await unwatched.nextJSON()
            #expect(!events.isWatched)
            unwatched.close()
            _ = await unwatched.collect()

            let feed = try await client.connect("\(server.baseURL)/_mock/ui/live")
            #expect(await feed.nextJSON()?["type"] == "hello")
            #expect(events.isWatched)
            let session = try await client.connect("\(server.baseURL)/chatter?test_id=t-live")
            let opened = await feed.nextJSON()
            #expect(opened?["type"] == "opened")
            #expect(opened?["session"] == "s2")
            #expect(opened?["testId"] == "t-live")
            #expect(opened?["protocol"] == "chatter")
            _ = await session.nextJSON()
            session.send(text: #"{"type":"oops"}"#)
            let violation = await feed.nextJSON()
            #expect(violation?["type"] == "violation")
            #expect(violation?["session"] == "s2")
            session.close()
            _ = await session.collect()
            let closed = await feed.nextJSON()
            #expect(closed?["type"] == "closed")
            #expect(closed?["session"] == "s2")
            let list = try JSONValue.decode(Control.request(server, "GET", "/_mock/sessions?testId=t-live").body)
            #expect(list["sessions"]?[0]?["violations"] == 1)
            #expect(list["sessions"]?[0]?["mustViolations"] == 1)

            let armed = Control.request(
                server, "POST", "/_mock/faults", body: #"{"testId": "t9", "fault": {"kind": "drop"}}"#)
            #expect(armed.status == 200)
            #expect(await feed.nextJSON()?["type"] == "faults")
            feed.close()
            _ = await feed.collect()
            for _ in 0..<50 where events.isWatched { try await Task.sleep(for: .milliseconds(20)) }
            #expect(!events.isWatched)
        }
    }

    @Test func theFeedRefusesAnotherSitesPage() async throws {
        let server = try MockServer()
        try server.start()
        let client = WebSocketClient()
        defer {
            client.shutdown()
            server.stop()
        }
        do {
            _ = try await client.connect(
                "\(server.baseURL)/_mock/ui/live", headers: [("Origin", "http://evil.example")])
            Issue.record("a page of another origin got the feed")
        } catch {
            #expect("\(error)".contains("403"), "\(error)")
        }
    }

    @Test func journalLinesFromAnIndex() async throws {
        try await withChatterServer(scenario: #"{"name": "quiet"}"#) { server, client in
            let connection = try await client.connect("\(server.baseURL)/chatter")
            _ = await connection.nextJSON()
            connection.send(text: #"{"type":"say","count":1}"#)
            _ = await connection.collect()
            let whole = Control.request(server, "GET", "/_mock/sessions/s1/journal").body
                .split(separator: "\n")
            #expect(whole.count > 2)
            let tail = Control.request(server, "GET", "/_mock/sessions/s1/journal?from=2").body.split(separator: "\n")
            #expect(tail == Array(whole.dropFirst(2)))
            #expect(Control.request(server, "GET", "/_mock/sessions/s1/journal?from=999").body.isEmpty)
            for bad in ["-1", "x", ""] {
                #expect(Control.request(server, "GET", "/_mock/sessions/s1/journal?from=\(bad)").status == 400)
            }
        }
    }

    @Test func aTokenInTheURLSetsTheCookieThatAuthorisesTheBrowser() async throws {
        var configuration = MockServer.Configuration()
        configuration.controlToken = "t0k en;7"
        let server = try MockServer(configuration: configuration)
        try server.start()
        let client = WebSocketClient()
        defer {
            client.shutdown()
            server.stop()
        }
        // Nothing presented: the API's 401, as a page for a browser.
        #expect(Control.exchange(server, "GET", "/_mock/ui").status == 401)
        let page = Control.exchange(server, "GET", "/", headers: ["Accept: text/html,*/*"])
        #expect(page.status == 401)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.body.contains("?token="))
        #expect(!page.body.contains("t0k"))
        #expect(Control.exchange(server, "GET", "/_mock/ui?token=wrong").status == 401)

        let exchanged = Control.exchange(server, "GET", "/_mock/ui?token=t0k%20en%3B7")
        #expect(exchanged.status == 303)
        #expect(exchanged.headers["location"] == "/_mock/ui")
        let cookie = try #require(exchanged.headers["set-cookie"])
        #expect(cookie == "dialogmock_control=t0k%20en%3B7; HttpOnly; SameSite=Strict; Path=/")
        let pair = "Cookie: other=1; " + cookie.components(separatedBy: ";")[0]
        for path in ["/", "/_mock/ui", "/_mock/ui/dashboard.js", "/_mock/sessions", "/_mock/faults"] {
            #expect(Control.exchange(server, "GET", path, headers: [pair]).status == 200, "\(path)")
        }
        #expect(
            Control.exchange(server, "GET", "/_mock/sessions", headers: ["Cookie: dialogmock_control=t0k"]).status
                == 401)
        #expect(
            Control.exchange(server, "GET", "/_mock/sessions", headers: ["Cookie: dialogmock_control=%zz"]).status
                == 401)
        // The header still works; the root with the token redirects to the root.
        #expect(Control.exchange(server, "GET", "/_mock/ui", headers: ["Authorization: Bearer t0k en;7"]).status == 200)
        #expect(Control.exchange(server, "GET", "/?token=t0k%20en%3B7").headers["location"] == "/")

        // The live feed: refused without the cookie, served with it.
        do {
            _ = try await client.connect("\(server.baseURL)/_mock/ui/live")
            Issue.record("the feed was served without the token")
        } catch {
            #expect("\(error)".contains("401"), "\(error)")
        }
        let feed = try await client.connect(
            "\(server.baseURL)/_mock/ui/live", headers: [("Cookie", "dialogmock_control=t0k%20en%3B7")])
        #expect(await feed.nextJSON()?["type"] == "hello")
        feed.close()
    }

    @Test func aTokenOnAServerWithoutOneIsRefused() throws {
        let server = try MockServer()
        try server.start()
        defer { server.stop() }
        let answer = Control.exchange(server, "GET", "/_mock/ui?token=x")
        #expect(answer.status == 401)
        #expect(answer.body.contains("no --control-token"))
    }
}
