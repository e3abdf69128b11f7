import Glibc
import Synchronization
import Testing
import WireSocket

/// Runs `body` against a fresh echo server on 127.0.0.1:0 and a fresh client, then stops both.
func withEchoServer(
    cap: Int? = nil, eventLoop: WebSocketServer.EventLoop = .poll,
    _ body: (WebSocketServer, EchoDelegate, WebSocketClient) async throws -> Void
) async throws {
    let delegate = EchoDelegate(cap: cap)
    var configuration = WebSocketServer.Configuration()
    configuration.eventLoop = eventLoop
    let server = WebSocketServer(configuration: configuration, delegate: delegate)
    let port = try server.start()
    #expect(port > 0)
    let client = WebSocketClient()
    try await body(server, delegate, client)
    client.shutdown()
    server.stop()
}

@Suite("WebSocketServer over loopback")
struct WebSocketServerTests {
    @Test(arguments: WebSocketServer.EventLoop.allCases)
    func echoesTextAndBinaryAndSeesUpgradeHeaders(eventLoop: WebSocketServer.EventLoop) async throws {
        try await withEchoServer(eventLoop: eventLoop) { server, delegate, client in
            let connection = try await client.connect(
                "ws://127.0.0.1:\(server.port)/echo?model=qwen&x=%41",
                headers: [("Authorization", "Bearer sk-test"), ("X-Test-Id", "t1")])
            connection.send(text: "héllo")
            #expect(await connection.nextMessage() == .text("héllo"))
            connection.send(.binary([0, 1, 2, 255]))
            #expect(await connection.nextMessage() == .binary([0, 1, 2, 255]))
            let upgrade = delegate.events.withLock { $0.first { $0.hasPrefix("upgrade") } }
            #expect(upgrade == "upgrade /echo?model=qwen&x=A auth=Bearer sk-test test=t1")
        }
    }

    @Test func reassemblesFragmentedAndLargeMessages() async throws {
        try await withEchoServer { server, _, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            connection.sendFragments([Array("frag".utf8), Array("men".utf8), Array("ted".utf8)], binary: false)
            #expect(await connection.nextMessage() == .text("fragmented"))
            let large = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            connection.send(.binary(large))
            #expect(await connection.nextMessage(timeoutMillis: 10_000) == .binary(large))
            let text = String(repeating: "ü", count: 200_000)
            connection.send(text: text)
            #expect(await connection.nextMessage() == .text(text))
        }
    }

    /// permessage-deflate: messages whose compressed form takes lws several writes come back
    /// whole and in order, each side writing one while lws still drains the one before. lws
    /// reads a message's buffer until its drain ends, so freeing it earlier was a use after free
    /// (AddressSanitizer reports it; a release build crashed in Autobahn 12.2.15).
    @Test func compressedMessagesLargerThanOneWriteComeBackWholeAndInOrder() async throws {
        let delegate = EchoDelegate(cap: nil)
        let server = WebSocketServer(configuration: WebSocketServer.Configuration(), delegate: delegate)
        let port = try server.start()
        let client = WebSocketClient(perMessageDeflate: true)
        defer {
            client.shutdown()
            server.stop()
        }
        let connection = try await client.connect("ws://127.0.0.1:\(port)/echo")
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        // Random base64 text compresses to about 3/4: many times lws' deflate output buffer. More
        // than 64 messages, so the queue compacts its written entries (which freed the one
        // still draining).
        let messages = (0..<100).map { index in
            WebSocketMessage.text((0..<(20_000 + index * 500)).map { _ in alphabet.randomElement(using: &random)! })
        }
        for message in messages { connection.send(message) }
        for message in messages {
            #expect(await connection.nextMessage(timeoutMillis: 10_000) == message)
        }
    }

    /// A ping that arrives before a message is answered before the reply to that message, even
    /// though replies are otherwise written at once: whole, and between the fragments of a
    /// fragmented message (Autobahn 5.6 checks this order).
    @Test func aPongGoesOutBeforeTheReplyToTheMessageAfterThePing() async throws {
        try await withEchoServer { server, _, _ in
            typealias Frame = RawHTTP.Frame
            let whole = RawHTTP.frames(
                port: server.port, path: "/echo",
                send: [
                    Frame(opcode: 9, final: true, payload: Array("p1".utf8)),
                    Frame(opcode: 1, final: true, payload: Array("hello".utf8)),
                ], count: 2)
            #expect(whole.map(\.opcode) == [10, 1])
            #expect(whole.map { String(decoding: $0.payload, as: UTF8.self) } == ["p1", "hello"])
            let fragmented = RawHTTP.frames(
                port: server.port, path: "/echo",
                send: [
                    Frame(opcode: 1, final: false, payload: Array("hel".utf8)),
                    Frame(opcode: 9, final: true, payload: Array("p2".utf8)),
                    Frame(opcode: 0, final: true, payload: Array("lo".utf8)),
                ], count: 2)
            #expect(fragmented.map(\.opcode) == [10, 1])
            #expect(fragmented.map { String(decoding: $0.payload, as: UTF8.self) } == ["p2", "hello"])
        }
    }

    /// A close frame whose reason is UTF-8 is answered with a close; one whose reason is not
    /// fails the connection without an answer (RFC 6455 §7.1.7; Autobahn 7.5.1).
    @Test func aCloseReasonThatIsNotUTF8FailsTheConnection() async throws {
        try await withEchoServer { server, _, _ in
            typealias Frame = RawHTTP.Frame
            let answered = RawHTTP.frames(
                port: server.port, path: "/echo",
                send: [Frame(opcode: 8, final: true, payload: [0x03, 0xE8] + Array("bye".utf8))], count: 1)
            #expect(answered.map(\.opcode) == [8])
            #expect(answered.first?.payload.prefix(2).elementsEqual([0x03, 0xE8]) == true)
            let failed = RawHTTP.frames(
                port: server.port, path: "/echo",
                send: [Frame(opcode: 8, final: true, payload: [0x03, 0xE8, 0xCE, 0xBA, 0xFF])], count: 1)
            #expect(failed.isEmpty, "no close answered: \(failed.map(\.opcode))")
        }
    }

    @Test func serverSendsFragmentsWhenAsked() async throws {
        try await withEchoServer { server, _, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            connection.send(text: "cmd:fragments")
            #expect(await connection.nextMessage() == .text(EchoDelegate.fragmentedReply))
        }
    }

    /// On the wire: ten frames of at most 10 bytes (text, then continuations, FIN on the last
    /// only) carrying the reply's bytes in order.
    @Test func fragmentsAreSeparateFramesOnTheWire() async throws {
        try await withEchoServer { server, _, _ in
            let frames = RawHTTP.frames(port: server.port, path: "/echo", sendText: "cmd:fragments", count: 10)
            #expect(frames.count == 10)
            #expect(frames.map(\.opcode) == [1] + Array(repeating: 0, count: 9))
            #expect(frames.map(\.final) == Array(repeating: false, count: 9) + [true])
            #expect(frames.map(\.payload.count) == Array(repeating: 10, count: 9) + [5])
            #expect(String(decoding: frames.flatMap(\.payload), as: UTF8.self) == EchoDelegate.fragmentedReply)
        }
    }

    @Test func oversizedMessageClosesWith1009() async throws {
        try await withEchoServer(cap: 1000) { server, _, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            connection.send(.binary([UInt8](repeating: 7, count: 999)))
            #expect(await connection.nextMessage() == .binary([UInt8](repeating: 7, count: 999)))
            connection.send(.binary([UInt8](repeating: 7, count: 1001)))
            #expect(await connection.next() == .closed(code: .messageTooBig, reason: "message exceeds 1000 bytes"))
        }
    }

    @Test func invalidUTF8TextClosesWith1007() async throws {
        try await withEchoServer { server, _, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            connection.send(.text([0x68, 0xC3, 0x28]))
            guard case .closed(let code, _)? = await connection.next() else {
                Issue.record("expected a close")
                return
            }
            #expect(code == .invalidPayload)
        }
    }

    @Test func closesWithTheRequestedCodeOrAbruptly() async throws {
        try await withEchoServer { server, _, client in
            let polite = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            polite.send(text: "cmd:close:4001")
            #expect(await polite.next() == .closed(code: CloseCode(4001), reason: "bye"))
            let abrupt = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            abrupt.send(text: "cmd:abort")
            #expect(await abrupt.next() == .closed(code: nil, reason: ""))
        }
    }

    @Test func clientCloseCodeReachesTheHandler() async throws {
        try await withEchoServer { server, delegate, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            connection.close(code: CloseCode(4321))
            _ = await connection.next()
            try await Task.sleep(for: .milliseconds(50))
            #expect(delegate.events.withLock { $0.contains("closed 1 4321") })
        }
    }

    @Test func refusedUpgradeGetsStatusAndJSONBody() async throws {
        try await withEchoServer { server, _, client in
            let response = RawHTTP.upgrade(port: server.port, path: "/refuse")
            #expect(response?.status == 401)
            // HTTP/1.1 with a reason phrase: Python's websockets refuses to parse HTTP/1.0 here.
            #expect(response?.statusLine == "HTTP/1.1 401 Unauthorized")
            #expect(response?.body == #"{"code":"InvalidApiKey"}"#)
            #expect(response?.headers["content-type"] == "application/json")
            await #expect(throws: WebSocketError.self) {
                _ = try await client.connect("ws://127.0.0.1:\(server.port)/refuse")
            }
        }
    }

    @Test func plainHTTPRoutesWithBodies() async throws {
        try await withEchoServer { server, _, _ in
            #expect(RawHTTP.get(port: server.port, path: "/x?y=1")?.body == #"{"method":"GET","path":"/x","bytes":0}"#)
            let body = String(repeating: "b", count: 100_000)
            let put = RawHTTP.send(port: server.port, method: "PUT", path: "/scenario", body: body)
            #expect(put?.status == 200)
            #expect(put?.body == #"{"method":"PUT","path":"/scenario","bytes":100000}"#)
            #expect(
                RawHTTP.send(port: server.port, method: "POST", path: "/faults", body: "{}")?.body
                    == #"{"method":"POST","path":"/faults","bytes":2}"#)
            // An empty POST is answered once (lws also reports a body completion for it).
            #expect(
                RawHTTP.send(port: server.port, method: "POST", path: "/reset", body: "")?.body
                    == #"{"method":"POST","path":"/reset","bytes":0}"#)
            // lws 4.1 does not deliver chunked request bodies: 411, not an empty body.
            let chunked = RawHTTP.exchange(
                port: server.port,
                request: "POST /faults HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
            #expect(chunked?.status == 411)
            #expect(chunked?.body.contains("LengthRequired") == true)
            // A declared body over the cap is refused before it is read: 413 with a JSON body.
            let cap = WebSocketServer.Configuration().maxHTTPBodyBytes
            let tooLarge = RawHTTP.exchange(
                port: server.port,
                request: "PUT /scenario HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(cap + 1)\r\n\r\n{}")
            #expect(tooLarge?.status == 413)
            #expect(tooLarge?.headers["content-type"] == "application/json")
            #expect(tooLarge?.body == #"{"code":"PayloadTooLarge","message":"request body exceeds \#(cap) bytes"}"#)
            // The server goes on serving requests after the refusal.
            #expect(RawHTTP.get(port: server.port, path: "/x")?.status == 200)
        }
    }

    @Test func timersFireInOrderAndOnTime() async throws {
        try await withEchoServer { server, _, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            connection.send(text: "cmd:later:200000")
            connection.send(text: "cmd:later:100000")
            var lateness: [Int64] = []
            for expected: Int64 in [100_000, 200_000] {
                let message = await connection.nextMessage()
                let text = message.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
                let elapsed = Int64(text.dropFirst(5)) ?? -1
                #expect(elapsed >= expected)
                lateness.append(elapsed - expected)
            }
            // A sanity bound only: the test runner shares 2 cores with the rest of the suite, so
            // precision is measured by `dialogmock-bench scenario`, not here.
            #expect(lateness.allSatisfy { $0 < 1_000_000 })
        }
    }

    @Test func sendsFromOtherThreadsArriveInOrder() async throws {
        try await withEchoServer { server, _, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo")
            let opened = Mutex<[Connection]>([])
            try await Task.sleep(for: .milliseconds(20))
            server.execute { opened.withLock { $0 = server.openConnections } }
            try await Task.sleep(for: .milliseconds(20))
            #expect(opened.withLock { $0.count } == 1)
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for index in 0..<25 {
                            server.execute {
                                server.openConnections.first?.send(.text("\(worker):\(index)"))
                            }
                        }
                    }
                }
            }
            var perWorker = [Int](repeating: 0, count: 4)
            for _ in 0..<100 {
                guard let message = await connection.nextMessage() else { break }
                let parts = String(decoding: message.bytes, as: UTF8.self).split(separator: ":").compactMap { Int($0) }
                #expect(parts[1] == perWorker[parts[0]])
                perWorker[parts[0]] += 1
            }
            #expect(perWorker == [25, 25, 25, 25])
        }
    }

    @Test func twoHundredConcurrentClients() async throws {
        try await withEchoServer { server, _, client in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let connection = try await client.connect(
                            "ws://127.0.0.1:\(server.port)/echo", timeoutMillis: 10_000)
                        connection.send(text: "client \(index)")
                        let ok = await connection.nextMessage(timeoutMillis: 10_000) == .text("client \(index)")
                        connection.close()
                        return ok
                    }
                }
                var passed = 0
                for try await ok in group where ok { passed += 1 }
                #expect(passed == 200)
            }
        }
    }

    @Test(arguments: WebSocketServer.EventLoop.allCases)
    func stopClosesSessionsWith1001AndLeavesNothingBehind(eventLoop: WebSocketServer.EventLoop) async throws {
        let delegate = EchoDelegate()
        var configuration = WebSocketServer.Configuration()
        configuration.eventLoop = eventLoop
        let server = WebSocketServer(configuration: configuration, delegate: delegate)
        let port = try server.start()
        #expect(threadCount(named: server.serviceThreadName) == 1)
        let client = WebSocketClient()
        let connection = try await client.connect("ws://127.0.0.1:\(port)/echo")
        connection.send(text: "x")
        _ = await connection.nextMessage()
        // The listening socket, the accepted one, and the client's own (local port = ephemeral).
        #expect(openSocketCount(localPort: port) == 2)
        server.stop()
        let event = await connection.next()
        #expect(event == .closed(code: .goingAway, reason: "server shutting down"), "\(String(describing: event))")
        #expect(threadCount(named: server.serviceThreadName) == 0)
        #expect(openSocketCount(localPort: port) == 0)
        #expect(!isListening(port: port))
        client.shutdown()
    }

    @Test func portInUseIsAClearError() async throws {
        try await withEchoServer { server, delegate, _ in
            var configuration = WebSocketServer.Configuration()
            configuration.port = server.port
            let second = WebSocketServer(configuration: configuration, delegate: delegate)
            #expect(
                throws: WebSocketError("cannot listen on 127.0.0.1:\(server.port) (address in use, or not available)")
            ) {
                try second.start()
            }
        }
    }
}
