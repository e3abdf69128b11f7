import ConformanceReports
import Foundation
import Testing
import WireJSON

/// The published report schemas, checked on every report the tests write: a writer change that
/// breaks the index.json or ctrf.json contract fails here.
enum ReportContract {
    /// The package root: three levels up from this file (`Tests/ConformanceReportsTests/…`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Schema failures of `report`'s index.json and ctrf.json (empty when both conform).
    static func violations(_ report: RunReport) throws -> [String] {
        let index = try JSONValue.decode(IndexWriter.text(report))
        let ctrf = try JSONValue.decode(CTRFWriter.text(report))
        return ReportSchema.validateIndex(index, repositoryRoot: root).map { "index.json \($0)" }
            + ReportSchema.validate(ctrf, schemaFile: root.appendingPathComponent(ReportSchema.ctrfSchemaPath)).map {
                "ctrf.json \($0)"
            }
    }

    /// Expects `report`'s index.json and ctrf.json to conform to their schemas.
    static func expectConforms(_ report: RunReport, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let problems = try violations(report)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// Schema failures of the index.json and ctrf.json files in a written report folder.
    static func folderViolations(_ directory: URL) throws -> [String] {
        let index = try JSONValue.decode(Array(try Data(contentsOf: directory.appendingPathComponent("index.json"))))
        let ctrf = try JSONValue.decode(Array(try Data(contentsOf: directory.appendingPathComponent("ctrf.json"))))
        return ReportSchema.validateIndex(index, repositoryRoot: root)
            + ReportSchema.validate(ctrf, schemaFile: root.appendingPathComponent(ReportSchema.ctrfSchemaPath))
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)")
    }
}
