import Foundation
import Testing

/// The README's module graph ("Architecture") is the package's: every edge it draws is a
/// dependency in Package.swift and every dependency of a library or executable target is drawn.
@Suite struct ArchitectureGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Package.swift with every run of whitespace made one space and none after `(` or `[`, so
    /// a declaration reads `.target(name: "X", dependencies: ["A", …]` however it is wrapped.
    static func packageText() throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: "[ ", with: "[")
    }

    /// Target → dependencies of every non-test target (libraries and executables).
    static func packageGraph() throws -> [String: Set<String>] {
        try allTargets().filter { $0.value.kind == "target" || $0.value.kind == "executableTarget" }
            .mapValues(\.dependencies)
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
        let text = try Self.packageText()
        let systemLibraries = Set(
            text.components(separatedBy: ".systemLibrary(name: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        )
        #expect(
            systemLibraries.isSuperset(of: ["CLibWebSockets", "CLibev", "CJansson", "COpus", "COgg", "CLame"]),
            "\(systemLibraries)")
        for (module, dependencies) in try Self.packageGraph() where !dependencies.isDisjoint(with: systemLibraries) {
            #expect(
                module.hasPrefix("Wire"), "\(module) depends on \(dependencies.intersection(systemLibraries).sorted())")
        }
    }

    @Test func theReadmeDrawsExactlyThePackagesDependencies() throws {
        let package = try Self.packageGraph()
        let readme = try Self.readmeGraph()
        #expect(package.count >= 20, "Package.swift parsed: \(package.keys.sorted())")
        for module in Set(package.keys).union(readme.keys).sorted() {
            let declared = package[module] ?? []
            let drawn = readme[module] ?? []
            #expect(
                declared.subtracting(drawn).isEmpty, "README omits \(module) → \(declared.subtracting(drawn).sorted())")
            #expect(
                drawn.subtracting(declared).isEmpty,
                "README draws \(module) → \(drawn.subtracting(declared).sorted()), not in Package.swift")
        }
    }

    /// Target → (declaration kind, directory, dependencies) of every target, test targets and
    /// system libraries included, read from the `.target(name: "X", dependencies: ["A", …])`
    /// declarations (any kind).
    static func allTargets() throws -> [String: (kind: String, directory: String, dependencies: Set<String>)] {
        let text = try packageText()
        var targets: [String: (kind: String, directory: String, dependencies: Set<String>)] = [:]
        for kind in ["target", "executableTarget", "testTarget", "systemLibrary"] {
            for declaration in text.components(separatedBy: ".\(kind)(name: \"").dropFirst() {
                let name = String(declaration.prefix { $0 != "\"" })
                // This declaration only: up to the next declaration of any kind.
                let own = declaration.components(separatedBy: "(name: ").first ?? ""
                var dependencies: Set<String> = []
                if let list = own.range(of: "dependencies: [") {
                    let inside = own[list.upperBound...].prefix { $0 != "]" }
                    dependencies = Set(
                        inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces.union(["\""])) })
                }
                dependencies.remove("")  // after a trailing comma
                targets[name] = (kind, kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)", dependencies)
            }
        }
        return targets
    }

    /// The package modules the Swift files under `directory` import (`import X`, `package import X`,
    /// `@testable import X`, …).
    static func imports(under directory: String, among modules: Set<String>) -> Set<String> {
        let base = root.appendingPathComponent(directory)
        guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var found: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({
                        ["@testable", "package", "public", "internal", "@_exported"].contains($0)
                    })
                else { continue }
                let module = String(words[index + 1])
                if modules.contains(module) { found.insert(module) }
            }
        }
        return found
    }

    /// Each target declares exactly the package modules its files import: no module reached
    /// only through another's dependencies, no declared edge nothing uses (so the graph above,
    /// held equal to Package.swift, is the code's). A test target may declare an executable
    /// target it does not import: SwiftPM then builds the binary the test runs.
    @Test func targetsDeclareExactlyWhatTheyImport() throws {
        let targets = try Self.allTargets()
        #expect(targets.count >= 40, "Package.swift parsed: \(targets.keys.sorted())")
        let modules = Set(targets.keys)
        let text = try Self.packageText()
        let executables = Set(
            text.components(separatedBy: ".executableTarget(name: \"").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            })
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
            let imported = Self.imports(under: target.directory, among: modules).subtracting([name])
            // C targets (system libraries, EchoFloor, LoadGenerator) have no Swift files.
            guard !imported.isEmpty || !target.dependencies.isEmpty else { continue }
            let declared = target.dependencies
            let mayGoUnimported = target.directory.hasPrefix("Tests/") ? executables : []
            #expect(
                imported.subtracting(declared).isEmpty,
                "\(name) imports \(imported.subtracting(declared).sorted()) without declaring it")
            #expect(
                declared.subtracting(imported).subtracting(mayGoUnimported).isEmpty,
                "\(name) declares \(declared.subtracting(imported).sorted()) but no file imports it")
        }
    }

    /// Every Swift library module has its own test target, `<Module>Tests` (executables are
    /// tested through their binaries: see the README's Layout).
    @Test func everyLibraryModuleHasATestTarget() throws {
        let targets = try Self.allTargets()
        let text = try Self.packageText()
        let libraries = text.components(separatedBy: ".target(name: \"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        for library in libraries {
            let hasSwift =
                FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources/\(library)").path)?
                .contains { ($0 as? String)?.hasSuffix(".swift") == true } ?? false
            guard hasSwift else { continue }  // the benchmark's C code
            #expect(targets["\(library)Tests"] != nil, "\(library) has no test target \(library)Tests")
        }
    }
}
