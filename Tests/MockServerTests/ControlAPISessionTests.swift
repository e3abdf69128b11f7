import Foundation
import MockSessions
import ProtocolModel
import ScenarioEngine
import Testing
import WireJSON
import WireSocket

@testable import MockServer

@Suite("Control API over HTTP")
struct ControlAPISessionTests {
    private let quiet = #"{"name": "quiet"}"#

    @Test func sessionsAndTheirJournals() async throws {
        try await withChatterServer(scenario: quiet) { server, client in
            let connection = try await client.connect("\(server.baseURL)/chatter?test_id=t-7")
            _ = await connection.nextJSON()
            connection.send(text: #"{"type":"say","count":1}"#)
            connection.send(text: #"{"type":"oops"}"#)
            _ = await connection.collect()
            let list = try JSONValue.decode(Control.request(server, "GET", "/_mock/sessions").body)
            let session = try #require(list["sessions"]?[0])
            #expect(session["id"] == "s1")
            #expect(session["testId"] == "t-7")
            #expect(session["open"] == true)
            #expect(session["framesIn"] == 2)
            #expect(session["framesOut"] == 2)
            #expect(session["violations"] == 1)
            let journal = Control.request(server, "GET", "/_mock/sessions/s1/journal")
            #expect(journal.status == 200)
            let entries = try journal.body.split(separator: "\n").map { try JSONValue.decode(String($0)) }
            try #require(entries.count == 5, "\(entries)")
            #expect(entries.map { $0["kind"]?.stringValue ?? "" } == ["text", "text", "text", "text", "violation"])
            #expect(entries.map { $0["dir"]?.stringValue ?? "-" } == ["out", "in", "out", "in", "-"])
            #expect(entries[4]["violation"]?["obligation"] == "test.C1")
            #expect(Control.request(server, "GET", "/_mock/sessions/s9/journal").status == 404)
        }
    }

    @Test func putScenarioServesNewSessions() async throws {
        try await withChatterServer(scenario: quiet) { server, client in
            let bad = Control.request(
                server, "PUT", "/_mock/scenario", body: #"{"name": "x", "faults": [{"kind": "drip"}]}"#)
            #expect(bad.status == 400)
            #expect(bad.body.contains("request body:1:"))
            #expect(bad.body.contains("drip"))
            // A recorded scenario's audio files are read at start-up only.
            let recorded = Control.request(
                server, "PUT", "/_mock/scenario",
                body: #"{"replay": {"steps": [{"json": {"type": "x"}, "audioFile": "a.audio/0001.pcm"}]}}"#)
            #expect(recorded.status == 400)
            #expect(recorded.body.contains("replay.steps[0].audioFile: audio files are read at start-up only"))
            let good = Control.request(
                server, "PUT", "/_mock/scenario",
                body: #"{"name": "dup", "faults": [{"kind": "duplicate", "match": {"type": "hello"}}]}"#)
            #expect(good.status == 200)
            let connection = try await client.connect("\(server.baseURL)/chatter")
            let events = await connection.collect()
            #expect(events.compactMap { $0.json?["type"] } == ["hello", "hello"])
            #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/scenario").body)["name"] == "dup")
        }
    }

    @Test func postFaultForASessionAndForATestID() async throws {
        try await withChatterServer(scenario: quiet) { server, client in
            let first = try await client.connect("\(server.baseURL)/chatter")
            _ = await first.nextJSON()
            let armed = Control.request(
                server, "POST", "/_mock/faults",
                body: #"{"session": "s1", "fault": {"kind": "close", "code": 4100, "reason": "armed"}}"#)
            #expect(armed.status == 200)
            #expect(await first.collect().last == .closed(code: CloseCode(4100), reason: "armed"))

            let byTest = Control.request(
                server, "POST", "/_mock/faults",
                body: #"{"testId": "abc", "fault": {"kind": "drop", "match": {"type": "hello"}}}"#)
            #expect(byTest.status == 200)
            let tagged = try await client.connect("\(server.baseURL)/chatter", headers: [("X-Test-Id", "abc")])
            let other = try await client.connect("\(server.baseURL)/chatter")
            #expect(await tagged.collect().isEmpty)
            #expect(await other.collect().compactMap { $0.json?["type"] } == ["hello"])

            #expect(Control.request(server, "POST", "/_mock/faults", body: "{").status == 400)
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults",
                    body: #"{"session": "s1", "testId": "x", "fault": {"kind": "drop"}}"#
                ).status == 400)
            let badFault = Control.request(
                server, "POST", "/_mock/faults", body: #"{"session": "s2", "fault": {"kind": "close", "code": 99}}"#)
            #expect(badFault.status == 400)
            #expect(badFault.body.contains("code"))
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults", body: #"{"session": "s99", "fault": {"kind": "drop"}}"#
                ).status == 404)
        }
    }

    @Test func metricsCountSessionsFramesAndLateness() async throws {
        try await withChatterServer(scenario: quiet) { server, client in
            let connection = try await client.connect("\(server.baseURL)/chatter")
            _ = await connection.nextJSON()
            connection.send(text: #"{"type":"say","count":3}"#)
            _ = await connection.collect()
            let metrics = Control.request(server, "GET", "/_mock/metrics").body
            #expect(metrics.contains("dialogmock_sessions_total 1\n"))
            #expect(metrics.contains("dialogmock_frames_sent_total 4\n"))
            #expect(metrics.contains("dialogmock_frames_received_total 1\n"))
            #expect(metrics.contains("dialogmock_send_lateness_seconds_count 4\n"))
        }
    }

    @Test func recordWritesEachJournalAsJSONLines() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dialogmock-record-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await withChatterServer(scenario: quiet, record: directory) { server, client in
            let connection = try await client.connect("\(server.baseURL)/chatter")
            _ = await connection.nextJSON()
            connection.send(text: #"{"type":"say","count":2}"#)
            _ = await connection.collect()
            connection.close()
            _ = await connection.collect()
            try await Task.sleep(for: .milliseconds(50))
        }
        let text = try String(contentsOfFile: "\(directory)/s1.jsonl", encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 5)  // hello, say, said ×2, close
        #expect(lines.last?.contains("\"kind\":\"close\"") == true)
    }

    /// The README's example: a fault armed for a test id before its client connects acts as soon
    /// as the session opens (it used to be dropped: no close frame, the socket left open).
    @Test func faultsArmedBeforeTheClientConnectsAct() async throws {
        try await withChatterServer(scenario: quiet) { server, client in
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults",
                    body: #"{"testId":"t1","fault":{"kind":"close","code":4000,"reason":"bye"}}"#
                ).status == 200)
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults", body: #"{"testId":"t2","fault":{"kind":"abruptClose"}}"#
                ).status == 200)
            let closed = try await client.connect("\(server.baseURL)/chatter?test_id=t1")
            #expect(await closed.collect().last == .closed(code: CloseCode(4000), reason: "bye"))
            let aborted = try await client.connect("\(server.baseURL)/chatter?test_id=t2")
            // The connection ends, and without a close frame (the dropped fault left it open).
            #expect(await aborted.collect().last == .closed(code: nil, reason: ""))
        }
    }

    @Test func faultsAreListedRemovedAndResetClearsEverything() async throws {
        try await withChatterServer(scenario: quiet) { server, client in
            let tagged = try await client.connect("\(server.baseURL)/chatter?test_id=k")
            _ = await tagged.nextJSON()
            let first = try JSONValue.decode(
                Control.request(
                    server, "POST", "/_mock/faults",
                    body: #"{"testId":"k","fault":{"kind":"drop","match":{"type":"said"}}}"#
                ).body)
            #expect(first["id"] == "f1")
            #expect(first["openSessions"] == 1)
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults", body: #"{"testId":"k","fault":{"id":"mine","kind":"drop"}}"#
                ).status == 200)
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults", body: #"{"testId":"q","fault":{"id":"mine","kind":"drop"}}"#
                ).status == 409)
            let listed = try JSONValue.decode(Control.request(server, "GET", "/_mock/faults?testId=k").body)
            #expect(listed["faults"]?.arrayValue?.map { $0["id"] } == ["f1", "mine"])
            #expect(listed["faults"]?[0]?["sessions"] == ["s1"])
            #expect(listed["faults"]?[0]?["fault"]?["kind"] == "drop")
            // Removing f1 disarms it on the open session: "said" frames flow again.
            #expect(Control.request(server, "DELETE", "/_mock/faults/f1").status == 200)
            #expect(Control.request(server, "DELETE", "/_mock/faults/f1").status == 404)
            #expect(Control.request(server, "DELETE", "/_mock/faults/mine").status == 200)
            tagged.send(text: #"{"type":"say","count":1}"#)
            #expect(await tagged.nextJSON()?["type"] == "said")
            #expect(
                Control.request(server, "POST", "/_mock/faults", body: #"{"testId":"z","fault":{"kind":"drop"}}"#)
                    .status == 200)
            let cleared = try JSONValue.decode(Control.request(server, "DELETE", "/_mock/faults?testId=z").body)
            #expect(cleared["removed"] == ["f2"])
            tagged.close()
            _ = await tagged.collect()
            try await Task.sleep(for: .milliseconds(50))
            #expect(Control.request(server, "PUT", "/_mock/scenario", body: #"{"name": "other"}"#).status == 200)
            #expect(
                Control.request(server, "POST", "/_mock/faults", body: #"{"testId":"z","fault":{"kind":"drop"}}"#)
                    .status == 200)
            let reset = try JSONValue.decode(Control.request(server, "POST", "/_mock/reset").body)
            #expect(reset["faultsRemoved"] == 1)
            #expect(reset["sessionsForgotten"] == 1)
            #expect(reset["scenario"] == "quiet")
            #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/faults").body)["faults"] == [])
            #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/sessions").body)["sessions"] == [])
        }
    }

    @Test func faultIDsAndPathsAreChecked() async throws {
        try await withChatterServer(scenario: quiet) { server, _ in
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults", body: #"{"testId":"a","fault":{"id":"a/b","kind":"drop"}}"#
                ).status == 400)
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults", body: #"{"testId":"a","fault":{"id":"","kind":"drop"}}"#
                ).status == 400)
            #expect(
                Control.request(server, "POST", "/_mock/faults", body: #"{"testId":"a","fault":{"kind":"drop"}}"#)
                    .status == 200)
            // A trailing slash is no route: it must not remove every fault.
            #expect(Control.request(server, "DELETE", "/_mock/faults/").status == 404)
            let listed = try JSONValue.decode(Control.request(server, "GET", "/_mock/faults").body)
            #expect(listed["faults"]?.arrayValue?.count == 1)
            #expect(Control.request(server, "GET", "/_mock/").status == 200)
            #expect(Control.request(server, "GET", "/_mock").status == 200)
        }
    }

    @Test func aSessionFaultEndsWithItsSessionAndARemovedExpiryNeverFires() async throws {
        try await withChatterServer(scenario: quiet) { server, client in
            let first = try await client.connect("\(server.baseURL)/chatter")
            _ = await first.nextJSON()
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults",
                    body: #"{"session":"s1","fault":{"id":"x","kind":"drop","match":{"type":"said"}}}"#
                ).status == 200)
            first.close()
            _ = await first.collect()
            try await Task.sleep(for: .milliseconds(100))
            #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/faults").body)["faults"] == [])

            let second = try await client.connect("\(server.baseURL)/chatter")
            _ = await second.nextJSON()
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults",
                    body: #"{"session":"s2","fault":{"id":"x","kind":"sessionExpiry","afterMs":300}}"#
                ).status == 200)
            #expect(Control.request(server, "DELETE", "/_mock/faults/x").status == 200)
            try await Task.sleep(for: .milliseconds(600))
            second.send(text: #"{"type":"say","count":1}"#)
            #expect(await second.nextJSON()?["type"] == "said")  // still open after the expiry's time
        }
    }

    /// `--keep-sessions N`: the oldest closed sessions beyond N are dropped; open ones stay.
    @Test func closedSessionsAreKeptUpToTheLimit() {
        let registry = SessionRegistry(closedLimit: 1)
        let control = SessionRegistry.SessionControl(arm: { _ in }, disarm: { _ in })
        for _ in 0..<3 {
            _ = registry.add(
                limit: 10,
                { id in
                    SessionJournal(
                        id: id, protocolName: "p", path: "/", testID: nil, caseID: nil, startedAtMicros: 0,
                        recordWriter: nil, frameLimit: 10)
                }, control: control, armNow: { _ in })
        }
        registry.markClosed("s1")
        registry.markClosed("s2")
        #expect(registry.all.map(\.id) == ["s2", "s3"])
        #expect(registry.journal("s1") == nil)
    }

    /// `--keep-sessions-bytes N`: closed journals hold at most N bytes together (oldest dropped
    /// first, however many the count limit allows); open sessions never count.
    @Test func closedSessionsAreKeptUpToTheByteLimit() throws {
        let entryBytes = MemoryLayout<JournalEntry>.stride
        // Room for two journals of one 100-byte text frame each, not three.
        let registry = SessionRegistry(closedLimit: 100, closedByteLimit: 2 * (entryBytes + 100) + 50)
        let control = SessionRegistry.SessionControl(arm: { _ in }, disarm: { _ in })
        for _ in 0..<4 {
            let journal = try #require(
                registry.add(
                    limit: 10,
                    { id in
                        SessionJournal(
                            id: id, protocolName: "p", path: "/", testID: nil, caseID: nil, startedAtMicros: 0,
                            recordWriter: nil, frameLimit: 10)
                    }, control: control, armNow: { _ in }))
            journal.record(.textFrame(t: 1, .in, json: ["type": "x"], byteLength: 100))
            #expect(journal.retainedBytes == entryBytes + 100)
        }
        for id in ["s1", "s2", "s3"] { registry.markClosed(id) }
        #expect(registry.all.map(\.id) == ["s2", "s3", "s4"])
        #expect(registry.closedRetention.sessions == 2 && registry.closedRetention.bytes == 2 * (entryBytes + 100))
        registry.markClosed("s4")
        #expect(registry.all.map(\.id) == ["s3", "s4"])
    }
}
