import ConformanceChecks
import ConformanceHarness
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
