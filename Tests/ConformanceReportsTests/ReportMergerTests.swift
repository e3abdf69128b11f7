import ConformanceChecks
import ConformanceReports
import Foundation
import Testing
import WireJSON

/// Shard folders joined into one report equal to the unsharded run's.
@Suite struct ReportMergerTests {
    /// Writes `evaluations` of the fixture run as one shard's folder.
    static func shard(_ report: RunReport, _ ids: [String], in parent: URL, name: String) throws -> URL {
        var part = report
        part.evaluations = report.evaluations.filter { ids.contains($0.caseID) }
        part.clientStderr = report.clientStderr.filter { ids.contains($0.key) }
        let folder = parent.appendingPathComponent(name)
        try ReportFolderWriter.write(part, to: folder)
        return folder
    }

    static func read(_ folder: URL, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func mergedShardsEqualTheUnshardedRun() throws {
        let parent = ReportContract.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        var whole = try ReportFixtures.run()
        whole.caseFiles = [:]
        let ids = whole.evaluations.map(\.caseID)
        let first = try Self.shard(whole, [ids[0], ids[2], ids[4]], in: parent, name: "shard-1")
        let second = try Self.shard(whole, [ids[1], ids[3], ids[5]], in: parent, name: "shard-2")
        let unsharded = parent.appendingPathComponent("whole")
        try ReportFolderWriter.write(whole, to: unsharded)
        let merged = parent.appendingPathComponent("merged")
        // The shards' order does not matter; the suite order does.
        let report = try ReportMerger.write([second, first], to: merged, caseOrder: ids)

        #expect(report.evaluations.map(\.caseID) == ids)
        let expected = try JSONValue.decode(Self.read(unsharded, "index.json"))
        let actual = try JSONValue.decode(Self.read(merged, "index.json"))
        for key in ["summary", "cases", "latency", "findings", "protocol", "client", "started", "toolVersion"] {
            #expect(actual[key] == expected[key], "\(key)")
        }
        for name in [
            "index.json", "junit.xml", "ctrf.json", "summary.md", "report.html",
            "cases/qrt.tools.001.json", "cases/qrt.audio.002.json", "cases/qrt.tools.001.stderr.txt",
        ] {
            #expect(try Self.read(merged, name) == Self.read(unsharded, name), "\(name)")
        }
        let problems = try ReportContract.folderViolations(merged)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func latencyPercentilesAreRecomputedOverEverySample() throws {
        let parent = ReportContract.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let whole = try ReportFixtures.run()
        let ids = whole.evaluations.map(\.caseID)
        // Samples 8 and 30 in one shard, 12.5 in the other: p50 over all three is 12.5.
        let first = try Self.shard(whole, [ids[0], ids[2]], in: parent, name: "a")
        let second = try Self.shard(whole, [ids[1]], in: parent, name: "b")
        let report = try ReportMerger.merge([first, second], caseOrder: ids)
        let statistics = try #require(report.latency[LatencyMetric.sessionCreatedToUpdate])
        #expect(statistics.count == 3)
        #expect(statistics.p50 == 12.5)
        #expect(statistics.max == 30)
    }

    @Test func errorsNameTheFolder() throws {
        let parent = ReportContract.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let whole = try ReportFixtures.run()
        let ids = whole.evaluations.map(\.caseID)
        let first = try Self.shard(whole, [ids[0], ids[1]], in: parent, name: "a")
        let overlapping = try Self.shard(whole, [ids[1], ids[2]], in: parent, name: "b")
        var other = whole
        other.protocolName = "multimodal-dialog"
        let otherProtocol = try Self.shard(other, [ids[3]], in: parent, name: "c")
        let empty = parent.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)

        func failure(_ folders: [URL]) -> String? {
            do {
                _ = try ReportMerger.merge(folders)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(failure([first, empty]) == "\(empty.path): no index.json (not a conformance report folder)")
        #expect(
            failure([first, otherProtocol])
                == "\(otherProtocol.path): protocol multimodal-dialog, but \(first.path) is qwen-realtime")
        #expect(failure([first, overlapping]) == "case \(ids[1]) is in both \(first.path) and \(overlapping.path)")
        #expect(failure([]) == "no report folders to merge")
        try FileManager.default.removeItem(at: first.appendingPathComponent("cases/\(ids[0]).json"))
        #expect(failure([first])?.hasPrefix("\(first.path)/cases/\(ids[0]).json: cannot read") == true)
    }

    @Test func withoutAnOrderCasesFollowTheirIDs() throws {
        let report = try ReportFixtures.run()
        let sorted = ReportMerger.sorted(report.evaluations.reversed(), order: nil).map(\.caseID)
        #expect(
            sorted == [
                "qrt.audio.001", "qrt.audio.002", "qrt.session.001", "qrt.session.002", "qrt.session.003",
                "qrt.tools.001",
            ])
    }
}
