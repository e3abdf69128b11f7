import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Foundation
import ScenarioEngine
import Testing
import WireJSON

/// A case can run on a recorded session (`"scenario": "recorded:PATH"`, a file from
/// `mock-server record-to-scenario` in the suite's folder): the harness loads it with its audio.
@Suite struct RecordedCaseScenarioTests {
    @Test func aRecordedScenarioIsLoadedWithItsAudioAndTheCaseFaults() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dialogmock-recorded-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("conformance/suites/qwen-realtime/recordings")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("call.audio"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("call.audio/0001.pcm"))
        try Data(
            #"{"replay":{"clientFrames":["session.update"],"steps":[{"after":1,"delayUs":5,"json":{"type":"response.audio.delta","delta":""},"audioFile":"call.audio/0001.pcm","audioPointer":"/delta"}]}}"#
                .utf8
        ).write(to: folder.appendingPathComponent("call.json"))
        let conformanceCase = try ConformanceCase(
            jsonValue: try JSONValue.decode(
                """
                {"id":"qrt.recorded.001","title":"t","spec":{"doc":"qwen-realtime","section":"1","level":"MUST","quote":"q"},
                 "obligations":["qrt.C1"],"description":"d","scenario":"recorded:recordings/call.json","timeoutMs":1000,
                 "faults":[{"kind":"delay","ms":10}],"checks":[{"kind":"firstMessage","type":"session.update"}]}
                """))
        let suite = LoadedSuite(
            directory: "conformance/suites/qwen-realtime",
            definition: try SuiteDefinition(
                jsonValue: try JSONValue.decode(
                    Array(
                        try Data(
                            contentsOf: ConformanceRunnerTests.root.appendingPathComponent(
                                "conformance/suites/qwen-realtime/suite.json"))))),
            cases: [conformanceCase], caseFiles: [:])
        let scenario = try CaseScenarioBuilder.scenario(for: conformanceCase, suite: suite, root: root)
        #expect(scenario.replayClientFrames == ["session.update"])
        #expect(scenario.replay?.first?.frame == .json(["type": "response.audio.delta", "delta": "AQID"]))
        #expect(scenario.faults.count == 1)
        #expect(
            suite.scenarioPath("recorded:recordings/call.json")
                == "conformance/suites/qwen-realtime/recordings/call.json")
    }
}

/// Issue 16 item 3/4 through the whole harness: a case on a recorded session whose client stops
/// early leaves recorded frames unused — nonStrict by default, a failure with `--strict-replay`.
@Suite struct RecordedCaseRunTests {
    /// A copy of the repository's conformance tree and scenarios with one recorded Qwen case.
    static func repositoryWithRecordedCase() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dialogmock-replay-run-\(UUID())")
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("mock-server"), withIntermediateDirectories: true)
        for folder in ["conformance", "mock-server/scenarios"] {
            try manager.copyItem(
                at: ConformanceRunnerTests.root.appendingPathComponent(folder),
                to: root.appendingPathComponent(folder))
        }
        let suite = root.appendingPathComponent("conformance/suites/qwen-realtime")
        try manager.createDirectory(at: suite.appendingPathComponent("recordings"), withIntermediateDirectories: true)
        // The recording: session.created at connect, session.updated after the client's
        // session.update, then a response after its response.create (which this client never sends).
        try Data(
            #"""
            {"name":"recorded","replay":{"clientFrames":["session.update","response.create"],"steps":[
             {"after":0,"delayUs":1000,"json":{"type":"session.created","event_id":"event_r1","session":{"id":"sess_r1","object":"realtime.session","model":"qwen3-omni-flash-realtime","modalities":["text"]}}},
             {"after":1,"delayUs":2000,"json":{"type":"session.updated","event_id":"event_r2","session":{"id":"sess_r1","object":"realtime.session","model":"qwen3-omni-flash-realtime","modalities":["text"]}}},
             {"after":2,"delayUs":3000,"json":{"type":"response.created","event_id":"event_r3","response":{"id":"resp_r1","object":"realtime.response","status":"in_progress","modalities":["text"],"voice":"Cherry","output":[]}}}
            ]}}
            """#.utf8
        ).write(to: suite.appendingPathComponent("recordings/call.json"))
        try manager.createDirectory(
            at: suite.appendingPathComponent("cases/recorded"), withIntermediateDirectories: true)
        try Data(
            #"""
            {"id":"qrt.recorded.001","title":"A client replays the recorded call",
             "spec":{"doc":"qwen-realtime","section":"12. CLIENT OBLIGATIONS","level":"MUST","quote":"MUST send session.update first."},
             "obligations":["qrt.C4"],"description":"The recorded call, replayed to the client.",
             "scenario":"recorded:recordings/call.json","faults":[],
             "checks":[{"kind":"firstMessage","type":"session.update"}],"timeoutMs":15000}
            """#.utf8
        ).write(to: suite.appendingPathComponent("cases/recorded/qrt.recorded.001.json"))
        return root
    }

    /// The client: the SDK venv's websocket-client sends session.update, reads session.updated,
    /// and leaves (the recording's response.create never comes).
    static let client = """
        \(ConformanceRunnerTests.root.path)/.cache/sdk-venv/bin/python3 -c '
        import json, os, websocket
        ws = websocket.create_connection(os.environ["MOCK_URL"], header=["Authorization: Bearer " + os.environ["MOCK_API_KEY"]])
        ws.recv()
        ws.send(json.dumps({"type": "session.update", "event_id": "event_c1", "session": {"modalities": ["text"]}}))
        ws.recv()
        ws.close()
        '
        """

    private func run(strictReplay: Bool) async throws -> (verdict: String, checks: [String: String]) {
        let root = try Self.repositoryWithRecordedCase()
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = RunConfiguration(
            protocolName: "qwen-realtime", clientCommand: Self.client, repositoryRoot: root)
        configuration.includes = ["qrt.recorded.001"]
        configuration.strictReplay = strictReplay
        configuration.reportDirectory = root.appendingPathComponent("report")
        configuration.progress = { _ in }
        let outcome = try await ConformanceRunner(configuration: configuration).run()
        let evaluation = try #require(outcome.report.evaluations.first)
        let checks = Dictionary(
            evaluation.checks.map { ($0.obligation, $0.verdict.rawValue) }, uniquingKeysWith: { first, _ in first })
        return (evaluation.verdict.rawValue, checks)
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(
                atPath: ConformanceRunnerTests.root.path + "/.cache/sdk-venv/bin/python3")))
    func unusedRecordedFramesAreNonStrictOrFailWithStrictReplay() async throws {
        let lenient = try await run(strictReplay: false)
        #expect(lenient.checks["qrt.C4"] == "pass", "\(lenient)")
        #expect(lenient.checks["replay.unused"] == "nonStrict", "\(lenient)")
        #expect(lenient.verdict == "nonStrict")
        let strict = try await run(strictReplay: true)
        #expect(strict.checks["replay.unused"] == "fail", "\(strict)")
        #expect(strict.verdict == "fail")
    }
}
