import CLISupport
import Foundation
import ProtocolModel
import Testing
import WireSocket

@Suite("mock-server command line")
struct MockServerCommandTests {
    @Test func printsTheReadyLineFastAndStopsCleanlyOnSIGTERM() async throws {
        let server = try MockServerTestProcess.start(["--port", "0", "--log-level", "info"])
        let line = server.readyLine
        #expect(line.hasPrefix("listening ws://127.0.0.1:"))
        #expect(server.readyAfter < .seconds(1))
        let port = server.port

        let client = WebSocketClient()
        let connection = try await client.connect("ws://127.0.0.1:\(port)/_mock/echo")
        connection.send(text: "ping")
        #expect(await connection.nextMessage() == .text("ping"))

        server.child.signal(SIGTERM)
        #expect(await connection.next() == .closed(code: .goingAway, reason: "server shutting down"))
        let ended = await server.child.completion()
        let (status, errors) = (ended.status, ended.stderr)
        #expect(status == 0)
        #expect(errors.contains("shutting down"))
        client.shutdown()
    }

    /// Issue 14: once the last session has closed, the binary gives the allocator's free pages
    /// back (`malloc_trim` on its own thread, about a second later) and says so at info level.
    @Test func idleMemoryIsReleasedWhenTheLastSessionCloses() async throws {
        let server = try MockServerTestProcess.start(["--port", "0", "--log-level", "info"])
        let port = server.port
        let client = WebSocketClient()
        defer { client.shutdown() }
        let connection = try await client.connect(
            "ws://127.0.0.1:\(port)/api-ws/v1/realtime?model=qwen3-omni-flash-realtime",
            headers: [("Authorization", "Bearer k")])
        guard case .text(let first)? = await connection.nextMessage() else {
            Issue.record("no session.created")
            return
        }
        #expect(String(decoding: first, as: UTF8.self).contains("session.created"))
        // Open for a while: no release while a session is open.
        try await Task.sleep(for: .milliseconds(1_500))
        connection.close(code: .normal)
        while let event = await connection.next(timeoutMillis: 2_000) {
            if case .closed = event { break }
        }
        try await Task.sleep(for: .milliseconds(2_500))
        server.child.signal(SIGTERM)
        let ended = await server.child.completion()
        let (status, errors) = (ended.status, ended.stderr)
        #expect(status == 0)
        let releases = errors.split(separator: "\n").filter { $0.contains("released idle memory") }
        #expect(releases.count == 1, "\(errors)")
        let opened = errors.range(of: "session s1")?.lowerBound
        let released = errors.range(of: "released idle memory")?.lowerBound
        if let opened, let released { #expect(opened < released) }
    }

    /// Issue 43 item 7: text lines start with the UTC time to the millisecond; `--log-format json`
    /// writes one object per line (session lines with their session and test id), and the ready
    /// line on stdout stays as it was.
    @Test(arguments: ["text", "json"])
    func logLinesAreTimestampedAndJSONOnRequest(format: String) async throws {
        let server = try MockServerTestProcess.start(["--port", "0", "--log-level", "info", "--log-format", format])
        #expect(server.readyLine.hasPrefix("listening ws://127.0.0.1:"))
        let client = WebSocketClient()
        let connection = try await client.connect(
            "ws://127.0.0.1:\(server.port)/api-ws/v1/realtime?model=qwen3-omni-flash-realtime&test_id=t-9",
            headers: [("Authorization", "Bearer k")])
        _ = await connection.nextMessage()
        connection.close(code: .normal)
        client.shutdown()
        server.child.signal(SIGTERM)
        let ended = await server.child.completion()
        #expect(ended.status == 0)
        let lines = ended.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count >= 3, "\(ended.stderr)")
        let stamp = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/#
        for line in lines {
            if format == "text" {
                let parts = line.split(separator: " ", maxSplits: 2)
                #expect(parts.count == 3 && (try? stamp.wholeMatch(in: parts[0])) != nil, "\(line)")
                #expect(
                    ["ERROR", "WARN", "INFO", "DEBUG", "TRACE"].contains(parts.count > 1 ? parts[1] : ""), "\(line)")
            } else {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
                #expect((try? stamp.wholeMatch(in: object?["time"] ?? "")) != nil, "\(line)")
                #expect(["error", "warn", "info", "debug", "trace"].contains(object?["level"] ?? ""), "\(line)")
                #expect(object?["message"] != nil, "\(line)")
            }
        }
        let opened = try #require(lines.first { $0.contains("session s1: qwen-realtime") }, "\(lines)")
        if format == "json" {
            let object = try JSONSerialization.jsonObject(with: Data(opened.utf8)) as? [String: String]
            #expect(object?["session"] == "s1")
            #expect(object?["testId"] == "t-9")
        }
    }

    @Test func sigintAlsoExitsZero() async throws {
        let server = try MockServerTestProcess.start(["--port", "0"])
        #expect(server.port > 0)
        server.child.signal(SIGINT)
        #expect(await server.child.completion().status == 0)
    }

    @Test(arguments: [
        (["--port", "abc"], "mock-server: --port: expected an integer from 0 to 65535, got 'abc'"),
        (["--port", "70000"], "mock-server: --port: expected an integer from 0 to 65535, got '70000'"),
        (
            ["--log-level", "loud"],
            "mock-server: --log-level: expected one of error, warn, info, debug, trace; got 'loud'"
        ),
        (["--log-format", "yaml"], "mock-server: --log-format: expected one of text, json; got 'yaml'"),
        (["--prot", "1"], "mock-server: unknown option '--prot'; did you mean '--port'?"),
        (
            ["record-to-scenaro", "s1.jsonl"],
            "mock-server: unknown subcommand 'record-to-scenaro'; did you mean 'record-to-scenario'?"
        ),
        (["compare-recordings", "a", "b", "--out", "x"], "mock-server compare-recordings: unknown option '--out'"),
        (["--seed", "-1"], "mock-server: --seed: expected a non-negative integer, got '-1'"),
        (["--api-key", ""], "mock-server: --api-key: expected a non-empty key"),
        (["--control-token", "two words"], "mock-server: --control-token: expected a non-empty token without spaces"),
        (["--keep-sessions", "-1"], "mock-server: --keep-sessions: expected an integer from 0 to 10000000, got '-1'"),
        (["--record", "/dev/null/x"], "mock-server: --record: cannot create '/dev/null/x': Not a directory"),
        (
            ["--proxy-upstream", "https://dashscope.aliyuncs.com"],
            "mock-server: --proxy-upstream: expected wss://HOST[:PORT] or ws://HOST[:PORT], got 'https://dashscope.aliyuncs.com'"
        ),
        (
            ["--proxy-upstream", "wss://host/api-ws/v1/inference"],
            "mock-server: --proxy-upstream: expected wss://HOST[:PORT] or ws://HOST[:PORT], got 'wss://host/api-ws/v1/inference'"
        ),
        (
            ["--proxy-upstream", "ws://127.0.0.1:0"],
            "mock-server: --proxy-upstream: expected a port from 1 to 65535 in 'ws://127.0.0.1:0'"
        ),
        (["--proxy-upstream-insecure"], "mock-server: --proxy-upstream-insecure: needs --proxy-upstream"),
        (
            ["--proxy-upstream", "ws://127.0.0.1:9", "--replay", "x.jsonl"],
            "mock-server: --proxy-upstream: cannot be combined with --replay"
        ),
    ])
    func badArgumentsGiveOneClearLineAndExitTwo(arguments: [String], message: String) async throws {
        let result = try await MockServerTestProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == message)
        #expect(result.stdout.isEmpty)
    }

    /// A bad or missing `--scenario`, `--check-scenario` or `--replay` file: one line on stderr
    /// naming the file, the line (and column) and the field, nothing on stdout, exit 2, and no
    /// server started.
    @Test func badScenarioAndReplayFilesNameTheFileLineAndField() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dialogmock-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("bad.json").path
        try Data("{\n  \"name\": \"bad\",\n  \"timing\": {\"events\": {\"*\": \"soon\"}}\n}\n".utf8).write(
            to: URL(fileURLWithPath: scenario))
        let journal = folder.appendingPathComponent("bad.jsonl").path
        try Data("{\"t\":0,\"dir\":\"in\",\"kind\":\"text\"}\n{\"dir\":\"out\"}\n".utf8).write(
            to: URL(fileURLWithPath: journal))
        let missing = folder.appendingPathComponent("missing.json").path
        let badField = "\(scenario):3:30: timing.events.*: expected object; got string \"soon\""
        let cases: [([String], String)] = [
            (["--check-scenario", scenario], badField),
            (["--scenario", scenario, "--port", "0"], badField),
            (["--replay", journal, "--port", "0"], "\(journal):2: missing integer \"t\""),
            (["--check-scenario", missing], "mock-server: --check-scenario: cannot read '\(missing)'"),
            (["--replay", missing, "--port", "0"], "mock-server: --replay: cannot read '\(missing)'"),
            (
                ["--scenario", missing, "--port", "0"],
                "mock-server: --scenario: '\(missing)' is neither a readable file nor a shipped scenario"
            ),
        ]
        for (arguments, message) in cases {
            let result = try await MockServerTestProcess.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments): no ready line")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(result.stderr)")
            #expect(lines.first?.hasPrefix(message) == true, "\(arguments): \(result.stderr)")
        }
    }

    @Test func portInUseIsOneLineAndExitOne() async throws {
        let first = try MockServerTestProcess.start(["--port", "0"])
        let port = first.port
        let second = try await MockServerTestProcess.run(["--port", String(port)])
        #expect(second.status == 1)
        #expect(second.stderr == "mock-server: cannot listen on 127.0.0.1:\(port) (address in use, or not available)\n")
        first.child.signal(SIGTERM)
        #expect(await first.child.completion().status == 0)
    }

    @Test func helpDescribesTheReadyLine() async throws {
        let result = try await MockServerTestProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("listening ws://HOST:PORT"))
        #expect(result.stdout.contains("--port"))
    }

    /// Help is generated from the declarations: each default once, the subcommands as a table and
    /// their synopses.
    @Test func helpShowsDefaultsAndSubcommandsFromTheDeclarations() async throws {
        let result = try await MockServerTestProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Port to bind; 0 picks a free port. (default: 8765)"))
        #expect(result.stdout.contains("SUBCOMMANDS:\n  record-to-scenario"))
        #expect(result.stdout.contains("mock-server record-to-scenario [--out <FILE>] <journal>"))
        #expect(result.stdout.contains("mock-server compare-recordings [--timing-tolerance-ms <N>] <old> <new>"))
        let subcommand = try await MockServerTestProcess.run(["help", "compare-recordings"])
        #expect(subcommand.stdout.contains("(default: 50)"))
    }

    /// `--record DIR` creates DIR and its parents, and the session's journal lands there.
    @Test func recordCreatesItsFolder() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dialogmock-record-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("nested/runs").path
        let server = try MockServerTestProcess.start(["--port", "0", "--record", folder])
        let port = server.port
        let client = WebSocketClient()
        let connection = try await client.connect(
            "ws://127.0.0.1:\(port)/api-ws/v1/realtime?model=qwen3-omni-flash-realtime",
            headers: [("Authorization", "Bearer k")])
        _ = await connection.nextMessage()
        connection.close()
        _ = await connection.next()
        client.shutdown()
        server.child.signal(SIGTERM)
        #expect(await server.child.completion().status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/s1.jsonl"))
    }
}
