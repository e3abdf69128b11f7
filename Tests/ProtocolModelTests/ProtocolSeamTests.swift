import Foundation
import Testing

/// A protocol is one unit that everything asks (``ProtocolDescriptor`` and the per-module
/// registration switches): no two-way protocol branches may grow back in `Sources`.
@Suite struct ProtocolSeamTests {
    /// The package root, from this file's path (`Tests/ProtocolModelTests/…`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Code that decides by comparing with one protocol instead of asking a descriptor (comparing
    /// two names, as grouping by protocol does, is no decision).
    static let protocolBranches = [
        "== .multimodalDialog", "== .qwenRealtime", "!= .multimodalDialog", "!= .qwenRealtime",
        "== DialogProtocol.", "!= DialogProtocol.", "protocol ==", "protocol !=", "== \"multimodal-dialog\"",
        "== \"qwen-realtime\"", "!= \"multimodal-dialog\"", "!= \"qwen-realtime\"", "multimodal ?", "isMultimodal",
    ]

    /// Code that decides by comparing with one Qwen profile instead of asking the dialect's room
    /// (looking a dialect up by its profile is no decision).
    static let profileBranches = ["profile == .", "profile != ."]

    /// `file:line: text` of every line under `Sources` holding one of `needles`, outside `exempt`.
    static func occurrences(of needles: [String], exempt: [String]) throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = "Sources/" + relative
            guard path.hasSuffix(".swift") || path.hasSuffix(".c"), !exempt.contains(where: path.hasPrefix) else {
                continue
            }
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where needles.contains(where: line.contains) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found.sorted()
    }

    @Test func theSourcesTreeIsFound() {
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Package.swift").path))
    }

    @Test func noProtocolIsDecidedByComparison() throws {
        let found = try Self.occurrences(of: Self.protocolBranches, exempt: [])
        #expect(found.isEmpty, "ask the protocol's descriptor instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func noQwenDialectIsDecidedByComparison() throws {
        let found = try Self.occurrences(of: Self.profileBranches, exempt: [])
        #expect(found.isEmpty, "give the dialect its own room instead:\n\(found.joined(separator: "\n"))")
    }

    /// The check itself finds what it looks for (so an empty result means something).
    @Test func theCheckFindsABranch() throws {
        let found = try Self.occurrences(of: ["package enum DialogProtocol"], exempt: [])
        #expect(found.count == 1)
    }
}
