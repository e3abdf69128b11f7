import CLISupport
import Testing

/// No binary of the package links Foundation's ICU part (issue 41): FoundationEssentials and
/// the standard library's `Regex` only. `Foundation`, `FoundationInternationalization` or an
/// ICU library in a binary's `ldd` output means an `import Foundation` (or a Foundation-only
/// API) came back into a module the binary uses; the static release build would then carry
/// about 38 MB of ICU data again.
@Suite struct NoICULinkTests {
    static let binaries = ["mock-server", "conformance", "dialogmock-adapter", "dialogmock-bench"]
    static let forbidden = [
        "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libicu",
    ]

    @Test(arguments: binaries) func linksNoICU(_ name: String) async throws {
        let binary = try #require(ExecutablePath.sibling(name), "\(name) is not built beside the tests")
        let ldd = try await ChildProcess.run("/usr/bin/ldd", [binary])
        try #require(ldd.status == 0, "ldd \(binary): \(ldd.stderr)")
        let linked = ldd.stdout.split(separator: "\n").filter { line in forbiddenLibrary(in: line) != nil }
        #expect(linked.isEmpty, "\(name) links ICU through Foundation:\n\(linked.joined(separator: "\n"))")
    }

    /// The lines a binary built with `import Foundation` has in its `ldd` output are caught.
    @Test func recognisesFoundationLines() {
        let lines = [
            "\tlibFoundation.so => /opt/swift/usr/lib/swift/linux/libFoundation.so (0x00007f8007e00000)",
            "\tlib_FoundationICU.so => /opt/swift/usr/lib/swift/linux/lib_FoundationICU.so (0x00007f8004200000)",
        ]
        #expect(lines.allSatisfy { forbiddenLibrary(in: $0[...]) != nil })
        let essentials =
            "\tlibFoundationEssentials.so => /opt/swift/usr/lib/swift/linux/libFoundationEssentials.so (0x00007f)"
        #expect(forbiddenLibrary(in: essentials[...]) == nil)
    }

    private func forbiddenLibrary(in lddLine: Substring) -> String? {
        let library = lddLine.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        return Self.forbidden.first { library.hasPrefix($0) }
    }
}
