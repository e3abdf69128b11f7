import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Foundation
import ProtocolModel
import Testing
import WireJSON

/// The Qwen-Audio-Live suite (issue 42) against a client that does nothing, the Swift reference
/// client (the adapter) and every faulty client of `dialogmock-adapter --fault` for
/// qwen-audio-live. The fault → obligation table is the adapter's `--list-faults`; each fault
/// runs on the cases that name its obligation.
@Suite("Qwen-Audio-Live conformance suite")
struct QwenAudioLiveSuiteTests {
    static let protocolName = DialogProtocol.qwenAudioLive.rawValue

    /// A faulty client of the catalogue.
    struct LiveFault: Sendable, CustomTestStringConvertible {
        let name: String
        let obligation: String
        var testDescription: String { "\(name) → \(obligation)" }
    }

    /// The qwen-audio-live faults of `dialogmock-adapter --list-faults`.
    static let catalog: [LiveFault] = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SuiteRun.adapter)
        process.arguments = ["--list-faults"]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return [] }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let json = try? JSONValue.decode(String(line)), json["protocol"]?.stringValue == protocolName,
                let name = json["name"]?.stringValue, let obligation = json["obligation"]?.stringValue
            else { return nil }
            return LiveFault(name: name, obligation: obligation)
        }
    }()

    /// Case id → the obligations the case names, from the suite's case files.
    static func caseObligations() throws -> [String: [String]] {
        let folder = SuiteRun.root.appendingPathComponent("conformance/suites/\(protocolName)/cases")
        var cases: [String: [String]] = [:]
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "json" else { continue }
            let json = try JSONValue.decode(String(decoding: try Data(contentsOf: file), as: UTF8.self))
            guard let id = json["id"]?.stringValue else { continue }
            cases[id] = (json["obligations"]?.arrayValue ?? []).compactMap(\.stringValue)
        }
        return cases
    }

    /// Findings the same breach may also show through another lens (a message schema).
    static let alsoSeenAs: Set<String> = ["schema"]

    @Test("A client that does nothing passes no case")
    func aClientThatDoesNothingPassesNothing() async throws {
        let result = try await SuiteRun.run(protocolName: Self.protocolName, client: "true", jobs: 4)
        let judged = result.outcome.report.evaluations.filter { $0.verdict != .skipped }
        #expect(judged.count >= Self.catalog.count / 2, "only \(judged.count) cases ran")
        #expect(result.outcome.report.exitCode(strict: false) == 1)
        for evaluation in judged {
            #expect(evaluation.verdict == .fail, "\(evaluation.caseID): \(evaluation.verdict)")
        }
    }

    @Test("The Swift reference client passes the whole suite (no fail, error or nonStrict)")
    func referenceClientPasses() async throws {
        let result = try await SuiteRun.run(protocolName: Self.protocolName, client: SuiteRun.adapter, jobs: 4)
        let bad = result.verdicts.filter { !["pass", "skipped"].contains($0.value) }
        #expect(bad.isEmpty, "not passing:\n\(result.problems.joined(separator: "\n"))")
        #expect(result.verdicts.count >= 10, "only \(result.verdicts.count) cases ran")
    }

    @Test("The catalogue has every Live fault of the design, each under a qal obligation a case names")
    func catalogCoversTheObligations() throws {
        #expect(Self.catalog.count >= 15, "\(Self.catalog.map(\.name))")
        let named = Set(try Self.caseObligations().values.flatMap { $0 })
        for fault in Self.catalog {
            #expect(fault.obligation.hasPrefix("qal.C"), "\(fault.name)")
            #expect(named.contains(fault.obligation), "no case names \(fault.obligation) (\(fault.name))")
        }
    }

    @Test("Every faulty client is caught under its own obligation", arguments: catalog)
    func faultyClientIsCaught(_ fault: LiveFault) async throws {
        let cases = try Self.caseObligations().filter { $0.value.contains(fault.obligation) }.keys.sorted()
        try #require(!cases.isEmpty, "no case names \(fault.obligation)")
        let result = try await SuiteRun.run(
            protocolName: Self.protocolName, client: "\(SuiteRun.adapter) --fault \(fault.name)", cases: cases,
            jobs: 4)
        let context = "\(fault.name) on \(cases): \(result.verdicts)\n\(result.problems.joined(separator: "\n"))"
        let catching = cases.filter { Set(result.failed[$0] ?? []).contains(fault.obligation) }
        #expect(!catching.isEmpty, "\(context)")
        for id in cases {
            let unexplained = Set(result.failed[id] ?? []).subtracting([fault.obligation]).subtracting(
                Self.alsoSeenAs)
            #expect(unexplained.isEmpty, "unexplained findings \(unexplained.sorted()) in \(id): \(context)")
        }
    }
}
