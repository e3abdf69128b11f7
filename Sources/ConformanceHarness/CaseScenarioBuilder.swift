package import ConformanceChecks
package import FoundationEssentials
import MockCapture
import MockServer
package import ScenarioEngine
import WireJSON

/// The scenario a case's mock session runs: its shipped or suite-local scenario (or a recorded
/// one, `recorded:PATH`) with the case's faults appended.
package enum CaseScenarioBuilder {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The parsed scenario, handed to the mock as a value: errors name the scenario file, line
    /// and column (or the case and the fault's member path).
    package static func scenario(
        for conformanceCase: ConformanceCase, suite: LoadedSuite, root: URL
    ) throws(Failure) -> Scenario {
        let name = conformanceCase.scenario
        let localURL = root.appendingPathComponent(suite.scenarioPath(name))
        let localPath = localURL.path
        var scenario: Scenario
        do {
            if FileManager.default.fileExists(atPath: localPath) {
                scenario = try Scenario.load(
                    bytes: Array(try Data(contentsOf: URL(fileURLWithPath: localPath))), file: localPath)
                // A recorded scenario's audio lives in files beside it.
                scenario = try Recordings.resolvingRecordedAudio(
                    scenario, file: localPath, directory: localURL.deletingLastPathComponent().path)
            } else if let text = MockServer.shippedScenario(named: name) {
                scenario = try Scenario.load(text: text, file: "mock-server/scenarios/\(name).json")
            } else {
                throw Failure(
                    description:
                        "\(conformanceCase.id): scenario \"\(name)\" is neither in \(suite.directory)/scenarios nor shipped"
                )
            }
            for (index, fault) in conformanceCase.faults.enumerated() {
                scenario.faults.append(try FaultSpec.parse(fault, file: "\(conformanceCase.id) faults[\(index)]"))
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(conformanceCase.id): scenario \(name): \(error)")
        }
        scenario.name = "\(conformanceCase.id) (\(name))"
        return scenario
    }
}
