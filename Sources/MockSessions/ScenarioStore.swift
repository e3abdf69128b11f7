package import ScenarioEngine
import Synchronization
package import WireJSON

/// The scenarios new sessions get: the global one (the embedded default, `--scenario`, or the
/// last `PUT /_mock/scenario`) and the per-test ones (`PUT /_mock/tests/{testId}/scenario`),
/// which serve the sessions opened with that test id instead. Shared by every service thread
/// (a mutex guards each).
package final class ScenarioStore: Sendable {
    private let scenario: Mutex<Scenario>
    private let perTest = Mutex(PerTest())
    /// `--time-scale`, applied to every scenario that comes in, global or per test.
    package let timeScaleOverride: Double?
    /// The scenario the server started with (`POST /_mock/reset` restores it).
    package let initial: Scenario
    /// How many per-test scenarios, and how many bytes of their files together, may be armed at
    /// once: a client that arms one per test and never removes them cannot exhaust memory.
    package let testLimits: TestLimits

    /// The bounds on per-test scenarios; beyond them arming is refused with a 4xx.
    package struct TestLimits: Sendable, Equatable {
        /// Per-test scenarios armed at once.
        package var count = 4096
        /// Bytes of one per-test scenario file (checked before the file is parsed, so this bounds
        /// that work too).
        package var fileBytes = 1 << 20
        /// Bytes of all armed per-test scenario files together.
        package var totalBytes = 32 << 20

        package init() {}
    }

    /// A per-test scenario could not be armed: one of ``TestLimits`` would be exceeded.
    package enum TestLimitError: Error, Equatable {
        /// The file alone is larger than `fileBytes`.
        case fileTooLarge(bytes: Int, limit: Int)
        /// `count` scenarios or `totalBytes` bytes are armed already.
        case full(count: Int, bytes: Int, limits: TestLimits)
    }

    private struct PerTest {
        var scenarios: [String: (scenario: Scenario, bytes: Int)] = [:]
        var bytes = 0
    }

    package init(initial: Scenario, timeScaleOverride: Double?, testLimits: TestLimits = TestLimits()) {
        self.timeScaleOverride = timeScaleOverride
        self.testLimits = testLimits
        let current = Self.scaled(initial, timeScaleOverride)
        self.initial = current
        scenario = Mutex(current)
    }

    package var current: Scenario { scenario.withLock { $0 } }

    package func replace(with new: Scenario) {
        let new = scaled(new)
        scenario.withLock { $0 = new }
    }

    /// The scenario a new session with `testID` gets: its per-test one, else the global one.
    package func scenario(forTest testID: String?) -> Scenario {
        if let testID, let own = perTest.withLock({ $0.scenarios[testID]?.scenario }) { return own }
        return current
    }

    /// The per-test scenario of `testID`, if one is armed.
    package func testScenario(_ testID: String) -> Scenario? { perTest.withLock { $0.scenarios[testID]?.scenario } }

    /// Arms `new` (loaded from a file of `bytes` bytes) for the sessions opened later with
    /// `testID`, replacing the one it had; `--time-scale` applies. Returns the scenario as armed.
    @discardableResult
    package func arm(_ new: Scenario, bytes: Int, forTest testID: String) throws(TestLimitError) -> Scenario {
        guard bytes <= testLimits.fileBytes else { throw .fileTooLarge(bytes: bytes, limit: testLimits.fileBytes) }
        let new = scaled(new)
        let limits = testLimits
        try perTest.withLock { state throws(TestLimitError) in
            let replaced = state.scenarios[testID]?.bytes
            let count = state.scenarios.count + (replaced == nil ? 1 : 0)
            let total = state.bytes - (replaced ?? 0) + bytes
            guard count <= limits.count, total <= limits.totalBytes else {
                throw .full(count: state.scenarios.count, bytes: state.bytes, limits: limits)
            }
            state.scenarios[testID] = (new, bytes)
            state.bytes = total
        }
        return new
    }

    /// Removes `testID`'s scenario; false when it had none.
    package func removeTestScenario(_ testID: String) -> Bool {
        perTest.withLock { state in
            guard let removed = state.scenarios.removeValue(forKey: testID) else { return false }
            state.bytes -= removed.bytes
            return true
        }
    }

    /// Removes every per-test scenario; returns how many there were.
    package func removeAllTestScenarios() -> Int {
        perTest.withLock { state in
            defer { state = PerTest() }
            return state.scenarios.count
        }
    }

    /// The per-test scenarios' names by test id.
    package var testScenarioNames: [String: String] {
        perTest.withLock { state in state.scenarios.mapValues(\.scenario.name) }
    }

    /// The armed per-test scenarios and their files' bytes.
    package var testScenarioUsage: (count: Int, bytes: Int) {
        perTest.withLock { ($0.scenarios.count, $0.bytes) }
    }

    /// The per-test scenarios' part of `GET /_mock/metrics`.
    package var prometheusText: String {
        let (count, bytes) = testScenarioUsage
        return "# HELP dialogmock_test_scenarios Per-test scenarios armed (at most \(testLimits.count)).\n"
            + "# TYPE dialogmock_test_scenarios gauge\ndialogmock_test_scenarios \(count)\n"
            + "# HELP dialogmock_test_scenario_bytes Bytes of the armed per-test scenario files "
            + "(at most \(testLimits.totalBytes)).\n"
            + "# TYPE dialogmock_test_scenario_bytes gauge\ndialogmock_test_scenario_bytes \(bytes)\n"
    }

    /// `GET /_mock/scenario`: the global scenario's description.
    package var currentDescription: JSONValue { Self.description(current) }

    /// `{"name", "description", "seed", "timeScale"}` of a scenario, as `GET /_mock/scenario` gives it.
    package static func description(_ scenario: Scenario) -> JSONValue {
        [
            "name": .string(scenario.name), "description": .string(scenario.description),
            "seed": .int(Int64(clamping: scenario.seed)),
            "timeScale": .double(scenario.timeScale),
        ]
    }

    private func scaled(_ scenario: Scenario) -> Scenario { Self.scaled(scenario, timeScaleOverride) }

    private static func scaled(_ scenario: Scenario, _ timeScaleOverride: Double?) -> Scenario {
        var scenario = scenario
        if let timeScaleOverride { scenario.timeScale = timeScaleOverride }
        return scenario
    }
}
