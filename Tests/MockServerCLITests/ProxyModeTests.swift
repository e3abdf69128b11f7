import CLISupport
import Foundation
import Testing
import WireJSON
import WireSocket

/// `mock-server --proxy-upstream` in front of a second `mock-server`: frames and close codes pass
/// both ways, the upstream's faults (close, stall) reach the client as they happen, a refused or
/// failed upstream is a protocol error and close 1011, a TLS upstream with a self-signed
/// certificate works with `--proxy-upstream-insecure`, and the API key is in no output.
@Suite(.serialized) struct ProxyModeTests {
    static let key = "sk-proxy-cli-canary-93d1"
    static let realtime = "/api-ws/v1/realtime?model=qwen3-omni-flash-realtime"
    static let start =
        #"{"header":{"action":"run-task","task_id":"task-proxy-1","streaming":"duplex"},"payload":{"task_group":"aigc","task":"multimodal-generation","function":"generation","model":"multimodal-dialog","input":{"directive":"Start","workspace_id":"w","app_id":"a"},"parameters":{"upstream":{"type":"AudioOnly","mode":"tap2talk"}}}}"#

    static func headers(key: String = key, testID: String? = nil) -> [(String, String)] {
        [("Authorization", "Bearer \(key)")] + (testID.map { [("X-Test-Id", $0)] } ?? [])
    }

    /// A text message's `type`.
    static func type(_ message: WebSocketMessage?) -> String? {
        message.flatMap { try? JSONValue.decode($0.bytes) }?["type"]?.stringValue
    }

    /// Arms `fault` (a fault object's JSON) on the upstream for test id `testID`, then connects a
    /// client through the proxy with that id; the caller shuts the client down.
    static func connect(
        through chain: ProxyChain, arming fault: String, testID: String
    ) async throws -> (WebSocketClient, ClientConnection) {
        let body = #"{"testId":"\#(testID)","fault":\#(fault)}"#
        #expect(ProxyChain.post(port: chain.upstream.port, path: "/_mock/faults", body: body) == 200)
        let client = WebSocketClient()
        do {
            let connection = try await client.connect(
                chain.proxyURL + Self.realtime, headers: Self.headers(testID: testID))
            return (client, connection)
        } catch {
            client.shutdown()
            throw error
        }
    }

    /// Messages until the close (or `timeoutMillis` without an event).
    static func rest(
        of connection: ClientConnection, timeoutMillis: Int = 5000
    ) async -> (
        messages: [JSONValue], close: CloseCode?, reason: String
    ) {
        var messages: [JSONValue] = []
        while let event = await connection.next(timeoutMillis: timeoutMillis) {
            switch event {
            case .message(let message):
                messages.append((try? JSONValue.decode(message.bytes)) ?? .string("binary \(message.bytes.count)"))
            case .closed(let code, let reason):
                return (messages, code, reason)
            }
        }
        return (messages, nil, "no close within \(timeoutMillis) ms")
    }

    @Test func framesAndCloseCodesPassBothWaysAndTheKeyStaysOut() async throws {
        let chain = try ProxyChain(upstreamArguments: ["--api-key", Self.key])
        let client = WebSocketClient()
        let connection = try await client.connect(chain.proxyURL + Self.realtime, headers: Self.headers())
        #expect(Self.type(await connection.nextMessage()) == "session.created")
        connection.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
        #expect(Self.type(await connection.nextMessage()) == "session.updated")
        connection.send(.binary([1, 2, 3, 4]))
        connection.close(code: CloseCode(4001), reason: "client done")
        _ = await Self.rest(of: connection)
        try await Task.sleep(for: .milliseconds(200))
        let upstream = ProxyChain.journal(port: chain.upstream.port)
        let proxied = ProxyChain.journal(port: chain.proxy.port)
        // The client's close code reached the upstream; its binary frame too.
        #expect(upstream.contains { $0["kind"]?.stringValue == "close" && $0["code"]?.intValue == 4001 })
        #expect(upstream.contains { $0["kind"]?.stringValue == "binary" && $0["bytes"]?.intValue == 4 })
        let frames = { (journal: [JSONValue]) in
            journal.filter { ["text", "binary"].contains($0["kind"]?.stringValue) }.map {
                "\($0["dir"]?.stringValue ?? "") \($0["event"]?.stringValue ?? "-") \($0["bytes"]?.intValue ?? 0)"
            }
        }
        #expect(frames(proxied) == frames(upstream))
        #expect(
            frames(proxied).prefix(4).map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                "out session.created", "in session.update", "out session.updated", "in -",
            ])
        // The upstream's `error` for the binary frame (qrt.C2) may come before or after it reads
        // the client's close; after it, the proxy journals it undelivered.
        #expect(frames(proxied).dropFirst(4).allSatisfy { $0.hasPrefix("out error ") })
        #expect(frames(proxied).count <= 5)
        let list = String(
            decoding: RawWebSocket.get(port: chain.proxy.port, path: "/_mock/sessions") ?? [], as: UTF8.self)
        #expect(list.contains(#""upstream":"ws://127.0.0.1:\#(chain.upstream.port)""#))
        client.shutdown()
        let outputs = chain.stop()
        #expect(outputs.contains("proxied to ws://127.0.0.1:\(chain.upstream.port)/api-ws/v1/realtime"))
        #expect(!outputs.contains(Self.key))
    }

    @Test func anUpstreamCloseFaultReachesTheClientWithItsCode() async throws {
        let chain = try ProxyChain(upstreamArguments: [])
        defer { _ = chain.stop() }
        let (client, connection) = try await Self.connect(
            through: chain, arming: #"{"kind":"close","code":4000,"reason":"bye"}"#, testID: "t-close")
        defer { client.shutdown() }
        let (_, close, reason) = await Self.rest(of: connection)
        #expect(close == CloseCode(4000) && reason == "bye")
        try await Task.sleep(for: .milliseconds(100))
        let proxied = ProxyChain.journal(port: chain.proxy.port)
        #expect(
            proxied.contains {
                $0["dir"]?.stringValue == "out" && $0["kind"]?.stringValue == "close" && $0["code"]?.intValue == 4000
            })
    }

    @Test func anUpstreamStallHoldsOnlyItsOwnSession() async throws {
        let chain = try ProxyChain(upstreamArguments: [])
        defer { _ = chain.stop() }
        let fault = #"{"testId":"t-stall","fault":{"kind":"stall","direction":"write","ms":1500}}"#
        #expect(ProxyChain.post(port: chain.upstream.port, path: "/_mock/faults", body: fault) == 200)
        let client = WebSocketClient()
        defer { client.shutdown() }
        let clock = ContinuousClock()
        let began = clock.now
        let stalled = try await client.connect(chain.proxyURL + Self.realtime, headers: Self.headers(testID: "t-stall"))
        // Another session through the same proxy is served at once meanwhile.
        let other = try await client.connect(chain.proxyURL + Self.realtime, headers: Self.headers())
        #expect(Self.type(await other.nextMessage(timeoutMillis: 1000)) == "session.created")
        #expect(clock.now - began < .milliseconds(1000))
        #expect(Self.type(await stalled.nextMessage(timeoutMillis: 4000)) == "session.created")
        #expect(clock.now - began >= .milliseconds(1300))
        stalled.close()
        other.close()
        _ = await Self.rest(of: stalled)
        _ = await Self.rest(of: other)
        try await Task.sleep(for: .milliseconds(100))
        // The proxy journaled the stalled frame when it passed it on, after the stall.
        let created = ProxyChain.journal(port: chain.proxy.port).first { $0["event"]?.stringValue == "session.created" }
        #expect((created?["t"]?.intValue ?? 0) >= 1_300_000)
    }

    /// A client that closes while the upstream is still sending (the dashscope SDK closes on
    /// `Stopped`, a `task-finished` behind it): the proxied session ends when the upstream's
    /// close arrives, and what the upstream sent meanwhile is in the journal and the record file,
    /// marked undelivered, not counted as sent.
    @Test func upstreamFramesAfterTheClientClosedAreJournaledUndelivered() async throws {
        let chain = try ProxyChain(upstreamArguments: [])
        // The upstream stops reading once the answer starts: the proxy's close waits 1.5 s while
        // the answer streams on.
        let (client, connection) = try await Self.connect(
            through: chain,
            arming: #"{"kind":"stall","direction":"read","ms":1500,"match":{"type":"response.created"}}"#,
            testID: "t-late")
        defer { client.shutdown() }
        #expect(Self.type(await connection.nextMessage()) == "session.created")
        // A user message first: the service refuses a response.create without one.
        connection.send(
            text:
                #"{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}"#
        )
        connection.send(text: #"{"type":"response.create"}"#)
        var received = 1
        while let message = await connection.nextMessage() {
            received += 1
            if Self.type(message) == "response.created" { break }
        }
        connection.close(code: CloseCode(4002), reason: "client gone early")
        // What the proxy sent before our close reached it; the client's socket drops frames
        // that arrive after it sent its close, so this is at most what the proxy counts as sent.
        received += await Self.rest(of: connection).messages.count
        // Open while the upstream has not closed; closed once it has.
        try await Task.sleep(for: .milliseconds(500))
        let open = {
            RawWebSocket.get(port: chain.proxy.port, path: "/_mock/sessions").map {
                String(decoding: $0, as: UTF8.self)
            } ?? ""
        }
        #expect(open().contains(#""open":true"#))
        for _ in 0..<100 where !open().contains(#""open":false"#) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(open().contains(#""open":false"#))
        let framesOut = try JSONValue.decode(Array(open().utf8))["sessions"]?[0]?["framesOut"]?.intValue

        let proxied = ProxyChain.journal(port: chain.proxy.port)
        let upstream = ProxyChain.journal(port: chain.upstream.port)
        let clientClose = try #require(
            proxied.first { $0["kind"]?.stringValue == "close" && $0["dir"]?.stringValue == "in" })
        let late = proxied.filter { $0["undelivered"]?.boolValue == true }
        #expect(late.count >= 2, "the upstream kept streaming after the client closed")
        #expect(
            late.allSatisfy {
                $0["dir"]?.stringValue == "out" && ($0["t"]?.intValue ?? 0) >= clientClose["t"]?.intValue ?? 0
            })
        let outFrames = { (journal: [JSONValue]) in
            journal.filter { $0["dir"]?.stringValue == "out" && ["text", "binary"].contains($0["kind"]?.stringValue) }
                .map {
                    "\($0["event"]?.stringValue ?? "-") \($0["bytes"]?.intValue ?? 0)"
                }
        }
        // Everything the upstream sent, delivered or not, in its order.
        #expect(outFrames(proxied) == outFrames(upstream))
        // Sent frames are counted; undelivered ones are not.
        #expect(framesOut.map { Int($0) } == outFrames(proxied).count - late.count)
        #expect(received <= outFrames(proxied).count - late.count)
        let outputs = chain.stop()
        #expect(outputs.components(separatedBy: #""undelivered":true"#).count - 1 == late.count)
    }

    /// An upstream that stops reading cannot hold a proxied session open: the client's frames
    /// and close queue up behind a full socket, and 3 s after the client closed the upstream
    /// connection is cut and the session ends.
    @Test func anUpstreamThatNeverTakesTheCloseIsCutAfterThreeSeconds() async throws {
        let chain = try ProxyChain(upstreamArguments: [])
        defer { _ = chain.stop() }
        let (client, connection) = try await Self.connect(
            through: chain, arming: #"{"kind":"stall","direction":"read","forever":true}"#, testID: "t-deaf")
        defer { client.shutdown() }
        #expect(Self.type(await connection.nextMessage()) == "session.created")
        // 32 MiB the upstream never reads: more than the loopback socket buffers hold.
        for _ in 0..<32 { connection.send(.binary([UInt8](repeating: 0, count: 1 << 20))) }
        let sessions = {
            String(decoding: RawWebSocket.get(port: chain.proxy.port, path: "/_mock/sessions") ?? [], as: UTF8.self)
        }
        // The proxy has taken every client frame (its journal counts them) before the client closes.
        for _ in 0..<500 where !sessions().contains(#""framesIn":32"#) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(sessions().contains(#""framesIn":32"#))
        let clock = ContinuousClock()
        let closed = clock.now
        connection.close()
        _ = await Self.rest(of: connection)
        try await Task.sleep(for: .milliseconds(2000))
        #expect(sessions().contains(#""open":true"#), "the close is still queued behind the client's frames")
        while clock.now - closed < .seconds(10) && !sessions().contains(#""open":false"#) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(sessions().contains(#""open":false"#))
        #expect(clock.now - closed < .milliseconds(5000), "cut about 3 s after the client's close")
    }

    @Test func aRefusedUpgradeIsAProtocolErrorAndClose1011() async throws {
        let chain = try ProxyChain(upstreamArguments: ["--api-key", Self.key])
        let client = WebSocketClient()
        let wrong = "sk-proxy-wrong-key-77ab"
        let qwen = try await client.connect(chain.proxyURL + Self.realtime, headers: Self.headers(key: wrong))
        let (messages, close, reason) = await Self.rest(of: qwen)
        #expect(messages.first?["type"]?.stringValue == "error")
        #expect(messages.first?["error"]?["code"]?.stringValue == "UpstreamRefused")
        #expect(messages.first?["error"]?["message"]?.stringValue?.contains("HTTP 401") == true)
        #expect(close == CloseCode(1011) && reason.contains("HTTP 401"))
        let dialog = try await client.connect(
            chain.proxyURL + "/api-ws/v1/inference", headers: Self.headers(key: wrong))
        dialog.send(text: Self.start)
        let failed = await Self.rest(of: dialog)
        #expect(failed.messages.first?["header"]?["event"]?.stringValue == "task-failed")
        #expect(failed.messages.first?["header"]?["task_id"]?.stringValue == "task-proxy-1")
        #expect(failed.messages.first?["header"]?["error_code"]?.stringValue == "UpstreamRefused")
        #expect(failed.close == CloseCode(1011))
        client.shutdown()
        let outputs = chain.stop()
        #expect(!outputs.contains(wrong) && !outputs.contains(Self.key))
    }

    @Test func aTLSUpstreamWithASelfSignedCertificate() async throws {
        let upstream = try MockServerTestProcess.start(["--port", "0", "--api-key", Self.key])
        defer { upstream.stop() }
        let relay = try await SelfSignedTLSRelay(forwardingTo: upstream.port)
        defer { relay.stop() }
        let secure = "wss://127.0.0.1:\(relay.port)"
        let client = WebSocketClient()
        defer { client.shutdown() }
        // Trusted with --proxy-upstream-insecure: a whole exchange through TLS.
        let trusting = try ProxyChain(
            upstreamArguments: [], upstreamURL: secure, proxyArguments: ["--proxy-upstream-insecure"])
        let connection = try await client.connect(trusting.proxyURL + Self.realtime, headers: Self.headers())
        #expect(Self.type(await connection.nextMessage()) == "session.created")
        connection.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
        #expect(Self.type(await connection.nextMessage()) == "session.updated")
        connection.close()
        _ = await Self.rest(of: connection)
        #expect(!trusting.stop().contains(Self.key))
        // Without it the self-signed certificate is refused: a protocol error, then 1011.
        let checking = try ProxyChain(upstreamArguments: [], upstreamURL: secure)
        let refused = try await client.connect(checking.proxyURL + Self.realtime, headers: Self.headers())
        let (messages, close, _) = await Self.rest(of: refused)
        #expect(messages.first?["error"]?["code"]?.stringValue == "UpstreamUnavailable")
        #expect(close == CloseCode(1011))
        #expect(!checking.stop().contains(Self.key))
    }
}

extension ProxyModeTests {
    /// `mock-server record-to-scenario`: a proxied session's record file becomes a scenario the
    /// server loads and replays; a missing or bad journal is one line and exit 2.
    @Test func recordToScenarioWritesAScenarioTheServerReplays() async throws {
        let chain = try ProxyChain(upstreamArguments: [])
        let client = WebSocketClient()
        defer { client.shutdown() }
        let connection = try await client.connect(chain.proxyURL + Self.realtime, headers: Self.headers())
        #expect(Self.type(await connection.nextMessage()) == "session.created")
        connection.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
        #expect(Self.type(await connection.nextMessage()) == "session.updated")
        connection.close()
        _ = await Self.rest(of: connection)
        try await Task.sleep(for: .milliseconds(200))
        let folder = NSTemporaryDirectory() + "dialogmock-recorded-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: chain.record + "/s1.jsonl", toPath: folder + "/s1.jsonl")
        _ = chain.stop()

        let made = try await MockServerTestProcess.run(["record-to-scenario", folder + "/s1.jsonl"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "\(folder)/s1.scenario.json: 2 server frames, 0 audio files\n")
        let replay = try MockServerTestProcess.start(["--port", "0", "--scenario", folder + "/s1.scenario.json"])
        defer { replay.stop() }
        let replayed = try await client.connect(
            "ws://127.0.0.1:\(replay.port)" + Self.realtime, headers: Self.headers())
        #expect(Self.type(await replayed.nextMessage()) == "session.created")
        replayed.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
        let updated = try JSONValue.decode(try #require(await replayed.nextMessage()).bytes)
        #expect(updated["type"]?.stringValue == "session.updated")
        #expect(updated["event_id"]?.stringValue == "event_rec3")  // ids rewritten deterministically
        replayed.close()
        _ = await Self.rest(of: replayed)
        // Consumption: everything recorded was sent, so no replay.unused; a client that stops
        // after the first frame of a second session leaves one frame unused.
        let early = try await client.connect("ws://127.0.0.1:\(replay.port)" + Self.realtime, headers: Self.headers())
        #expect(Self.type(await early.nextMessage()) == "session.created")
        early.close()
        _ = await Self.rest(of: early)
        try await Task.sleep(for: .milliseconds(100))
        let violations = { (session: String) in
            ProxyChain.journal(port: replay.port, session: session).filter { $0["kind"]?.stringValue == "violation" }
        }
        #expect(violations("s1").isEmpty)
        #expect(
            violations("s2").first?["violation"]?["message"]?.stringValue
                == "SHOULD: 1 of 2 recorded server frames were not sent (the client sent 0 frames, the recording 1)")

        let usage = try await MockServerTestProcess.run(["record-to-scenario"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("mock-server record-to-scenario: missing argument <journal>\n"))
        let missing = try await MockServerTestProcess.run(["record-to-scenario", folder + "/none.jsonl"])
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(missing.stderr == "mock-server record-to-scenario: cannot read '\(folder)/none.jsonl'\n")
        try "{\"t\":1,\"kind\":\"state\"}\n{\"kind\":\"text\"}\n".write(
            toFile: folder + "/bad.jsonl", atomically: true, encoding: .utf8)
        let bad = try await MockServerTestProcess.run(["record-to-scenario", folder + "/bad.jsonl"])
        #expect(bad.status == 2 && bad.stdout.isEmpty)
        #expect(bad.stderr == "\(folder)/bad.jsonl:2: missing integer \"t\"\n")
    }
}

extension ProxyModeTests {
    /// `mock-server compare-recordings`: two recordings of one flow through the proxy are no drift
    /// (exit 0); after the upstream changed (a dropped event, a delayed one) the report names the
    /// event and the delay, exit 1; a missing recording is one line and exit 2.
    @Test func compareRecordingsReportsWhatTheUpstreamNowSendsDifferently() async throws {
        let chain = try ProxyChain(upstreamArguments: [])
        let client = WebSocketClient()
        defer { client.shutdown() }
        func flow(testID: String) async throws {
            let connection = try await client.connect(
                chain.proxyURL + Self.realtime, headers: Self.headers(testID: testID))
            #expect(Self.type(await connection.nextMessage()) == "session.created")
            connection.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
            _ = await connection.nextMessage(timeoutMillis: 1500)
            connection.send(text: #"{"type":"no.such.event"}"#)
            _ = await connection.nextMessage(timeoutMillis: 1500)
            connection.close()
            _ = await Self.rest(of: connection)
        }
        try await flow(testID: "a")
        try await flow(testID: "b")
        let delay = #"{"testId":"c","fault":{"kind":"delay","ms":800,"match":{"type":"session.updated"}}}"#
        let drop = #"{"testId":"c","fault":{"kind":"drop","match":{"type":"error"}}}"#
        #expect(ProxyChain.post(port: chain.upstream.port, path: "/_mock/faults", body: delay) == 200)
        #expect(ProxyChain.post(port: chain.upstream.port, path: "/_mock/faults", body: drop) == 200)
        try await flow(testID: "c")
        try await Task.sleep(for: .milliseconds(200))
        let record = chain.record
        defer { _ = chain.stop() }

        // 250 ms of timing tolerance: the machine's own jitter under a parallel test run (seen up to
        // 150 ms on session.created) is not drift; the 800 ms delay the upstream gained is, with
        // room to spare.
        let tolerance = ["--timing-tolerance-ms", "250"]
        let same = try await MockServerTestProcess.run(
            ["compare-recordings", record + "/s1.jsonl", record + "/s2.jsonl"] + tolerance)
        #expect(same.status == 0, "\(same.stdout)")
        #expect(try JSONValue.decode(same.stdout)["drifted"] == false)
        let changed = try await MockServerTestProcess.run(
            ["compare-recordings", record + "/s1.jsonl", record + "/s3.jsonl"] + tolerance)
        #expect(changed.status == 1)
        let report = try JSONValue.decode(changed.stdout)
        #expect(report["order"]?["removed"] == ["error": 1])
        #expect(report["timing"]?["events"]?[0]?["event"]?.stringValue == "session.updated")
        #expect((report["timing"]?["events"]?[0]?["newMedianUs"]?.intValue ?? 0) >= 800_000)
        let missing = try await MockServerTestProcess.run([
            "compare-recordings", record + "/s1.jsonl", "/nowhere.jsonl",
        ])
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(missing.stderr == "mock-server compare-recordings: cannot read '/nowhere.jsonl'\n")
    }
}
