package import ConformanceChecks
package import Foundation
import MockServer
import WireJSON

/// The scenario a case's mock session runs: its shipped or suite-local scenario with the
/// case's faults appended.
package enum CaseScenarioBuilder {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func scenario(for conformanceCase: ConformanceCase, suite: LoadedSuite, root: URL) throws(Failure)
        -> (name: String, bytes: [UInt8])
    {
        let name = conformanceCase.scenario
        let localPath = root.appendingPathComponent(suite.scenarioPath(name)).path
        var base: JSONValue
        var source: String
        do {
            if FileManager.default.fileExists(atPath: localPath) {
                base = try JSONValue.decode(Array(try Data(contentsOf: URL(fileURLWithPath: localPath))))
                source = localPath
            } else if let text = MockServer.shippedScenario(named: name) {
                base = try JSONValue.decode(text)
                source = "mock-server/scenarios/\(name).json"
            } else {
                throw Failure(description: "\(conformanceCase.id): scenario \"\(name)\" is neither in \(suite.directory)/scenarios nor shipped")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(conformanceCase.id): scenario \(name): \(error)")
        }
        guard case .object(var object) = base else { throw Failure(description: "\(source): a scenario is a JSON object") }
        if !conformanceCase.faults.isEmpty {
            object["faults"] = .array((object["faults"]?.arrayValue ?? []) + conformanceCase.faults)
        }
        object["name"] = .string("\(conformanceCase.id) (\(name))")
        return ("\(conformanceCase.id) scenario (\(source) + case faults)", JSONValue.object(object).encoded())
    }
}
