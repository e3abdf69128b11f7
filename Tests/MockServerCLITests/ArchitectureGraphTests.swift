import Foundation
import Testing

/// The README's module graph ("Architecture") is the package's: every edge it draws is a
/// dependency in Package.swift and every dependency of a library or executable target is drawn.
@Suite struct ArchitectureGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Target → dependencies of every non-test target, read from Package.swift's
    /// `.target(name: "X", dependencies: ["A", …])` / `.executableTarget(…)` declarations.
    static func packageGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var graph: [String: Set<String>] = [:]
        let declarations = text.components(separatedBy: ".target(name: \"").dropFirst()
            + text.components(separatedBy: ".executableTarget(name: \"").dropFirst()
        for declaration in declarations {
            let name = String(declaration.prefix { $0 != "\"" })
            // This declaration only: up to the next declaration of any kind.
            let own = declaration.components(separatedBy: "(name: ").first ?? ""
            var dependencies: Set<String> = []
            if let list = own.range(of: "dependencies: [") {
                let inside = own[list.upperBound...].prefix { $0 != "]" }
                dependencies = Set(inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines.union(["\""])) })
            }
            graph[name] = dependencies
        }
        return graph
    }

    /// Module → dependencies as the README's graph block draws them (`A, B → C, D` per group).
    static func readmeGraph() throws -> [String: Set<String>] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let architecture = try #require(readme.components(separatedBy: "## Architecture").dropFirst().first)
        let block = try #require(architecture.components(separatedBy: "```").dropFirst().first)
        var graph: [String: Set<String>] = [:]
        for line in block.split(separator: "\n") {
            for group in line.components(separatedBy: "   ") where group.contains("→") {
                let sides = group.components(separatedBy: "→")
                let targets = sides[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                for module in sides[0].split(separator: ",") {
                    graph[module.trimmingCharacters(in: .whitespaces), default: []].formUnion(targets)
                }
            }
        }
        return graph
    }

    /// "Only the Wire* modules import C libraries": no other target depends on a system library.
    @Test func onlyWireModulesDependOnSystemLibraries() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let systemLibraries = Set(text.components(separatedBy: ".systemLibrary(name: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        #expect(systemLibraries.isSuperset(of: ["CLibWebSockets", "CLibev", "CJansson", "COpus", "COgg", "CLame"]), "\(systemLibraries)")
        for (module, dependencies) in try Self.packageGraph() where !dependencies.isDisjoint(with: systemLibraries) {
            #expect(module.hasPrefix("Wire"), "\(module) depends on \(dependencies.intersection(systemLibraries).sorted())")
        }
    }

    @Test func theReadmeDrawsExactlyThePackagesDependencies() throws {
        let package = try Self.packageGraph()
        let readme = try Self.readmeGraph()
        #expect(package.count >= 20, "Package.swift parsed: \(package.keys.sorted())")
        for module in Set(package.keys).union(readme.keys).sorted() {
            let declared = package[module] ?? [], drawn = readme[module] ?? []
            #expect(declared.subtracting(drawn).isEmpty, "README omits \(module) → \(declared.subtracting(drawn).sorted())")
            #expect(drawn.subtracting(declared).isEmpty, "README draws \(module) → \(drawn.subtracting(declared).sorted()), not in Package.swift")
        }
    }
}
