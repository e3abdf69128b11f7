import MockSessions
import ScenarioEngine
import WireJSON
import WireSocket

/// The scenario routes: `PUT /_mock/scenario` and the per-test scenarios under `/_mock/tests`.
extension ControlAPI {
    /// `PUT /_mock/scenario`: the body is a scenario file; it serves every session opened after.
    func putScenario(_ body: [UInt8]) -> HTTPResponse {
        let scenario: Scenario
        do throws(Refusal) {
            scenario = try loadScenario(body)
        } catch {
            return error.response
        }
        scenarios.replace(with: scenario)
        scenarioInstalled(scenario)
        return .json(status: 200, ["status": "ok", "scenario": .string(scenario.name)])
    }

    /// `PUT /_mock/tests/{testId}/scenario`: the body is a scenario file; it serves the sessions
    /// opened afterwards with that test id (``ScenarioStore/TestLimits`` bound how many and how big).
    func putTestScenario(_ body: [UInt8], testID: String) -> HTTPResponse {
        guard !testID.isEmpty else {
            return .error(400, "InvalidRequest", "the test id in /_mock/tests/{testId}/scenario is empty")
        }
        // Checked before parsing too, which is long for a large file.
        let limit = scenarios.testLimits.fileBytes
        guard body.count <= limit else { return tooLarge(bytes: body.count, limit: limit) }
        let loaded: Scenario
        do throws(Refusal) {
            loaded = try loadScenario(body)
        } catch {
            return error.response
        }
        let armed: Scenario
        do throws(ScenarioStore.TestLimitError) {
            armed = try scenarios.arm(loaded, bytes: body.count, forTest: testID)
        } catch {
            switch error {
            case .fileTooLarge(let bytes, let limit): return tooLarge(bytes: bytes, limit: limit)
            case .full(let count, let bytes, let limits):
                return .error(
                    409, "TooManyTestScenarios",
                    "\(count) per-test scenarios of \(bytes) bytes are armed; at most \(limits.count) of "
                        + "\(limits.totalBytes) bytes together: DELETE /_mock/tests/{testId}/scenario or POST /_mock/reset first"
                )
            }
        }
        scenarioInstalled(armed)
        return .json(status: 200, ["testId": .string(testID), "scenario": ScenarioStore.description(armed)])
    }

    /// 413 for a per-test scenario file over ``ScenarioStore/TestLimits/fileBytes``.
    func tooLarge(bytes: Int, limit: Int) -> HTTPResponse {
        .error(413, "PayloadTooLarge", "a per-test scenario file holds at most \(limit) bytes; this one has \(bytes)")
    }

    /// A scenario file from a request body, or the 400 that says what is wrong with it.
    func loadScenario(_ body: [UInt8]) throws(Refusal) -> Scenario {
        let scenario: Scenario
        do {
            scenario = try Scenario.load(bytes: body, file: "request body")
        } catch {
            throw Refusal(response: .error(400, "InvalidScenario", error.description))
        }
        if let step = scenario.replay?.firstIndex(where: { $0.audioFile != nil }) {
            // Audio files are read when the server starts (--scenario), never on a service thread.
            throw Refusal(
                response: .error(
                    400, "InvalidScenario",
                    "request body: replay.steps[\(step)].audioFile: audio files are read at start-up only; serve this scenario with --scenario"
                ))
        }
        return scenario
    }

    /// An error response, thrown.
    struct Refusal: Error {
        let response: HTTPResponse
    }

    func noTestScenario(_ testID: String) -> HTTPResponse {
        .error(404, "NotFound", "no scenario armed for test \(testID); PUT /_mock/tests/\(testID)/scenario arms one")
    }

    /// `GET /_mock/tests`: every test id with a per-test scenario or an armed fault, sorted.
    func testSummaries() -> [JSONValue] {
        let names = scenarios.testScenarioNames
        var faults: [String: Int] = [:]
        for fault in sessions.faults {
            if case .testID(let testID) = fault.target { faults[testID, default: 0] += 1 }
        }
        var counts: [String: Int] = [:]
        for journal in sessions.all {
            if let testID = journal.testID, names[testID] != nil || faults[testID] != nil {
                counts[testID, default: 0] += 1
            }
        }
        return Set(names.keys).union(faults.keys).sorted().map { testID in
            [
                "testId": .string(testID), "scenario": names[testID].map(JSONValue.string) ?? .null,
                "faults": .int(Int64(faults[testID] ?? 0)), "sessions": .int(Int64(counts[testID] ?? 0)),
            ]
        }
    }
}
