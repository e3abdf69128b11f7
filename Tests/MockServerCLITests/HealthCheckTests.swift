import CLISupport
import Foundation
import Testing

/// Issue 43 item 7: `mock-server --health-check [HOST:]PORT` probes a running server's health
/// route (the container image has no curl), and the Dockerfile's HEALTHCHECK runs exactly that.
@Suite("mock-server --health-check")
struct HealthCheckTests {
    /// A port nothing listens on: one the kernel handed out and that was closed again.
    private func closedPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(fd, $0, length) == 0)
                try #require(getsockname(fd, $0, &length) == 0)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    @Test func nothingListeningIsUnhealthyAndABadTargetIsAUsageError() async throws {
        let port = try closedPort()
        let refused = try await MockServerTestProcess.run(["--health-check", "127.0.0.1:\(port)"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "mock-server: --health-check 127.0.0.1:\(port): cannot connect: Connection refused\n")
        #expect(refused.stdout.isEmpty)
        for bad in ["abc", "host:", ":0", "1:2:3", "127.0.0.1:70000"] {
            let result = try await MockServerTestProcess.run(["--health-check", bad])
            #expect(result.status == 2, "\(bad)")
            #expect(
                result.stderr.split(separator: "\n").first == "mock-server: --health-check: expected PORT or HOST:PORT",
                "\(bad)")
        }
    }

    @Test func aRunningServerIsHealthyAlsoWithAControlToken() async throws {
        let server = try MockServerTestProcess.start(["--port", "0", "--control-token", "secret"])
        defer { server.stop() }
        for target in ["\(server.port)", "127.0.0.1:\(server.port)", "localhost:\(server.port)"] {
            let result = try await MockServerTestProcess.run(["--health-check", target])
            #expect(result.status == 0, "\(target): \(result.stderr)")
            #expect(result.stdout.contains(#""status":"ok""#), "\(target)")
        }
    }

    /// Something else answering on the port (503, or 200 without `"status":"ok"`) is unhealthy.
    @Test(arguments: [
        ("HTTP/1.1 503 Service Unavailable", "{}", "answered HTTP/1.1 503 Service Unavailable"),
        ("HTTP/1.1 200 OK", "hello", "answered 200 without \"status\":\"ok\": hello"),
    ])
    func anotherAnswerIsUnhealthy(status: String, body: String, problem: String) async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(listener, $0, length) == 0)
                try #require(getsockname(listener, $0, &length) == 0)
            }
        }
        try #require(listen(listener, 1) == 0)
        let port = UInt16(bigEndian: address.sin_port)
        let answer = "\(status)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let answering = Thread {
            let connection = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &buffer, buffer.count, 0)
            _ = answer.withCString { send(connection, $0, strlen($0), 0) }
            close(connection)
        }
        answering.start()
        let result = try await MockServerTestProcess.run(["--health-check", "\(port)"])
        #expect(result.status == 1)
        #expect(result.stderr == "mock-server: --health-check \(port): \(problem)\n")
    }

    /// The Dockerfile's HEALTHCHECK is `mock-server --health-check 127.0.0.1:PORT` for the
    /// ENTRYPOINT's port, and that command, run against a server, passes.
    @Test func theDockerfileHealthcheckRunsTheProbeOnTheEntrypointsPort() async throws {
        let dockerfile = try String(
            contentsOf: ArchitectureGraphTests.root.appendingPathComponent(".ci/container/Dockerfile"), encoding: .utf8)
        let instructions = dockerfile.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
        let healthcheck = try #require(instructions.first { $0.hasPrefix("HEALTHCHECK ") })
        let entrypoint = try #require(instructions.first { $0.hasPrefix("ENTRYPOINT ") })
        func execForm(_ line: Substring, after keyword: String) throws -> [String] {
            let start = try #require(line.range(of: keyword + " ["))
            let json = line[line.index(before: start.upperBound)...]
            return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
        }
        let probe = try execForm(healthcheck, after: "CMD")
        let served = try execForm(entrypoint, after: "ENTRYPOINT")
        let servedPort = try #require(served.firstIndex(of: "--port").map { served[$0 + 1] })
        #expect(probe == ["mock-server", "--health-check", "127.0.0.1:\(servedPort)"])

        let server = try MockServerTestProcess.start(["--port", "0"])
        let arguments = probe.dropFirst().map { $0.replacingOccurrences(of: ":\(servedPort)", with: ":\(server.port)") }
        let healthy = try await MockServerTestProcess.run(Array(arguments))
        #expect(healthy.status == 0, "\(healthy.stderr)")
        server.stop()
        let stopped = try await MockServerTestProcess.run(Array(arguments))
        #expect(stopped.status == 1)
    }
}
