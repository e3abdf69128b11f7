import Testing

@testable import MockCapture

/// `--proxy-upstream` values, the upstream URL of a request, and the headers that go upstream.
@Suite struct ProxyUpstreamTests {
    @Test(arguments: [
        ("wss://dashscope.aliyuncs.com", "wss://dashscope.aliyuncs.com:443", true),
        ("wss://dashscope.aliyuncs.com/", "wss://dashscope.aliyuncs.com:443", true),
        ("ws://127.0.0.1:8765", "ws://127.0.0.1:8765", false),
        ("ws://localhost", "ws://localhost:80", false),
    ])
    func goodValuesNameTheOrigin(text: String, origin: String, secure: Bool) throws {
        let upstream = try ProxyUpstream(parsing: text)
        #expect(upstream.origin == origin)
        #expect(upstream.secure == secure)
    }

    @Test(arguments: [
        "https://dashscope.aliyuncs.com", "dashscope.aliyuncs.com", "wss://", "wss://host/path", "wss://host?x=1",
        "wss://user@host", "ws://host:0", "ws://host:65536", "ws://host:port", "ws://[::1]:80", "ws://a b",
    ])
    func badValuesAreErrors(text: String) {
        #expect(throws: ProxyUpstream.ParseError.self) { try ProxyUpstream(parsing: text) }
    }

    @Test func theRequestsPathAndQueryGoUpstreamReEncoded() throws {
        let upstream = try ProxyUpstream(parsing: "ws://127.0.0.1:9")
        #expect(upstream.url(path: "/api-ws/v1/inference", queryItems: []) == "ws://127.0.0.1:9/api-ws/v1/inference")
        #expect(
            upstream.url(
                path: "/api-ws/v1/realtime", queryItems: [("model", "qwen3-omni-flash-realtime"), ("x", "a b&c")])
                == "ws://127.0.0.1:9/api-ws/v1/realtime?model=qwen3-omni-flash-realtime&x=a%20b%26c")
    }

    @Test func everyHeaderButThePerHopOnesGoesUpstream() {
        let forwarded = ProxyHeaders.forwarded([
            "authorization": "Bearer sk-1", "x-dashscope-workspace": "ws", "user-agent": "dashscope/2.0.2",
            "host": "127.0.0.1:1", "origin": "x", "connection": "Upgrade", "upgrade": "websocket",
            "sec-websocket-key": "k", "sec-websocket-version": "13", "sec-websocket-extensions": "permessage-deflate",
            "x-test-id": "t1",
        ])
        #expect(forwarded.map(\.0) == ["authorization", "user-agent", "x-dashscope-workspace", "x-test-id"])
        #expect(forwarded.first?.1 == "Bearer sk-1")
    }
}
