import Foundation
import ProtocolModel
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// Every fault family applied by the real server stack and observed by a client.
@Suite("Fault families observed by a client")
struct FaultFamilyTests {
    private func scenario(_ faults: String, extra: String = "") -> String {
        #"{"name": "t", "faults": [\#(faults)]\#(extra)}"#
    }

    private func connect(_ server: MockServer, _ client: WebSocketClient) async throws -> ClientConnection {
        let connection = try await client.connect("\(server.baseURL)/chatter")
        #expect(await connection.nextJSON()?["type"] == "hello")
        return connection
    }

    private func said(_ events: [ClientEvent]) -> [Int64] {
        events.compactMap { $0.json }.filter { $0["type"] == "said" }.compactMap { $0["n"]?.intValue }
    }

    @Test func duplicateSendsMatchingFramesTwice() async throws {
        try await withChatterServer(
            scenario: scenario(#"{"kind": "duplicate", "match": {"type": "said"}, "repeat": "every"}"#)
        ) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":2}"#)
            #expect(said(await connection.collect()) == [0, 0, 1, 1])
        }
    }

    @Test func dropNeverSendsTheMatchingFrame() async throws {
        try await withChatterServer(scenario: scenario(#"{"kind": "drop", "skip": 1, "match": {"type": "said"}}"#)) {
            server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":3}"#)
            #expect(said(await connection.collect()) == [0, 2])
        }
    }

    @Test func delayHoldsTheFrameAndThoseBehindIt() async throws {
        try await withChatterServer(scenario: scenario(#"{"kind": "delay", "ms": 400, "match": {"type": "said"}}"#)) {
            server, client in
            let connection = try await connect(server, client)
            let start = ContinuousClock.now
            connection.send(text: #"{"type":"say","count":2}"#)
            let first = await connection.next()
            #expect(first?.json?["n"] == 0, "\(String(describing: first))")
            #expect(ContinuousClock.now - start >= .milliseconds(390))
            let second = await connection.next()
            #expect(second?.json?["n"] == 1, "\(String(describing: second))")
        }
    }

    @Test func reorderReleasesTheWindowShuffled() async throws {
        try await withChatterServer(
            scenario: scenario(#"{"kind": "reorder", "window": 4, "holdMs": 2000, "match": {"type": "said"}}"#)
        ) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":4}"#)
            let order = said(await connection.collect())
            #expect(order.sorted() == [0, 1, 2, 3])
            #expect(order != [0, 1, 2, 3])
        }
    }

    @Test func truncatedAndMalformedJSONReachTheClient() async throws {
        let faults =
            #"{"kind": "truncateJSON", "keepFraction": 0.5, "match": {"type": "said"}}, {"kind": "malformedJSON", "skip": 1, "match": {"type": "said"}}"#
        try await withChatterServer(scenario: scenario(faults)) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":2,"text":"a fairly long text to cut"}"#)
            let texts = await connection.collect().compactMap(\.text)
            try #require(texts.count == 2, "a second frame is read below")
            #expect(texts.allSatisfy { (try? JSONValue.decode($0)) == nil })
            #expect(texts[1].contains(",}"))
        }
    }

    @Test func unknownEventAndInjectedErrorAreRenderedByTheProtocol() async throws {
        let faults =
            #"{"kind": "unknownEvent", "eventType": "mock.surprise", "match": {"type": "said"}}, {"kind": "injectError", "error": {"code": "E1", "message": "boom"}, "match": {"type": "said"}, "skip": 1}"#
        try await withChatterServer(scenario: scenario(faults)) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":2}"#)
            let types = await connection.collect().compactMap { $0.json?["type"]?.stringValue }
            #expect(types.contains("mock.surprise"))
            #expect(types.contains("error"))
        }
    }

    @Test func closeWithCodeAfterTheMatchingFrame() async throws {
        try await withChatterServer(
            scenario: scenario(#"{"kind": "close", "code": 4000, "reason": "scripted", "match": {"type": "said"}}"#)
        ) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":3}"#)
            let events = await connection.collect()
            #expect(said(events) == [0])
            #expect(events.last == .closed(code: CloseCode(4000), reason: "scripted"))
        }
    }

    @Test func abruptCloseSendsNoCloseFrame() async throws {
        try await withChatterServer(scenario: scenario(#"{"kind": "abruptClose", "match": {"type": "said"}}"#)) {
            server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":1}"#)
            #expect(await connection.collect().last == .closed(code: nil, reason: ""))
        }
    }

    @Test func stallWriteHoldsFramesForItsDuration() async throws {
        try await withChatterServer(
            scenario: scenario(#"{"kind": "stall", "direction": "write", "ms": 300, "match": {"type": "said"}}"#)
        ) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":2}"#)
            let start = ContinuousClock.now
            #expect(await connection.nextJSON()?["n"] == 0)
            #expect(await connection.nextJSON()?["n"] == 1)
            #expect(ContinuousClock.now - start >= .milliseconds(280))
        }
    }

    @Test func halfOpenStallKeepsTheConnectionButSendsNothing() async throws {
        try await withChatterServer(
            scenario: scenario(#"{"kind": "stall", "direction": "both", "forever": true, "match": {"type": "said"}}"#)
        ) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":3}"#)
            let events = await connection.collect(idleMillis: 600)
            #expect(said(events).count <= 1)
            #expect(!events.contains { if case .closed = $0 { true } else { false } })
        }
    }

    @Test func slowCloseSendsTheCloseFrameFirst() async throws {
        try await withChatterServer(scenario: scenario(#"{"kind": "slowClose", "ms": 300, "match": {"type": "said"}}"#))
        { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":1}"#)
            let events = await connection.collect(idleMillis: 1500)
            #expect(events.last == .closed(code: .normal, reason: "slow close"))
        }
    }

    @Test func bandwidthCapSlowsSending() async throws {
        try await withChatterServer(scenario: scenario(#"{"kind": "bandwidthCap", "bytesPerSecond": 40000}"#)) {
            server, client in
            let connection = try await connect(server, client)
            let start = ContinuousClock.now
            for _ in 0..<3 { connection.send(text: #"{"type":"bytes","count":10000}"#) }
            for _ in 0..<3 { #expect(await connection.nextMessage()?.bytes.count == 10000) }
            // 30 kB at 40 kB/s: the last frame cannot leave before ~0.5 s.
            #expect(ContinuousClock.now - start >= .milliseconds(450))
        }
    }

    @Test func fragmentedFramesArriveWhole() async throws {
        try await withChatterServer(
            scenario: scenario(#"{"kind": "fragment", "frameBytes": 7, "match": {"type": "said"}}"#)
        ) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":1,"text":"fragmented into many small pieces"}"#)
            #expect(await connection.nextJSON()?["text"] == "fragmented into many small pieces")
            let journal = Control.request(server, "GET", "/_mock/sessions/s1/journal").body
            #expect(journal.contains("\"kind\":\"fragment\""))
        }
    }

    @Test func sessionExpiryEndsTheSessionTheProtocolWay() async throws {
        try await withChatterServer(scenario: scenario(#"{"kind": "sessionExpiry", "afterMs": 200}"#)) {
            server, client in
            let connection = try await connect(server, client)
            let events = await connection.collect(idleMillis: 1000)
            #expect(events.compactMap { $0.json?["type"] } == ["ended"])
            #expect(events.last == .closed(code: .normal, reason: "ended"))
        }
    }

    @Test func idlePolicyScaledByTimeScale() async throws {
        let text = #"{"name": "idle", "timeScale": 0.01, "policies": {"idleEndMs": 20000}}"#
        try await withChatterServer(scenario: text) { server, client in
            let connection = try await connect(server, client)
            let start = ContinuousClock.now
            // Scaled, the idle end comes after 200 ms; unscaled it would take 20 s. The bound sits
            // between the two so a loaded CI machine cannot fail it (one run took 1.3 s).
            let events = await connection.collect(idleMillis: 8000)
            #expect(events.first?.json?["reason"] == "idle")
            #expect(ContinuousClock.now - start < .seconds(8))
        }
    }

    @Test func triggerOnAClientMessageArmsAFault() async throws {
        let text =
            #"{"name": "trig", "faults": [{"id": "d", "kind": "drop", "armed": false, "repeat": "every", "match": {"type": "said"}}], "triggers": [{"when": {"message": "state", "match": {"pointer": "/state", "equals": "Quiet"}}, "actions": [{"arm": "d"}]}]}"#
        try await withChatterServer(scenario: text) { server, client in
            let connection = try await connect(server, client)
            connection.send(text: #"{"type":"say","count":1}"#)
            #expect(said(await connection.collect()) == [0])
            connection.send(text: #"{"type":"state","state":"Quiet"}"#)
            connection.send(text: #"{"type":"say","count":2}"#)
            #expect(said(await connection.collect()) == [])
        }
    }
}
