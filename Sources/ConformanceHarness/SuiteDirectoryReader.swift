package import ConformanceChecks
package import Foundation

/// Reads the conformance tree of a checkout into ``SuiteFiles``: every JSON file under
/// `conformance/`, the protocol references (`conformance/protocols/*/README.md`, which cases
/// cite) and the shipped scenarios in `mock-server/scenarios/`.
package enum SuiteDirectoryReader {
    /// Reads from the repository `root`.
    /// - Throws: the file system's error for an unreadable file.
    package static func read(root: URL) throws -> SuiteFiles {
        var files: [String: [UInt8]] = [:]
        let rootPath = root.standardizedFileURL.path
        for folder in ["conformance", "mock-server/scenarios"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker
            where url.pathExtension == "json"
                || (url.lastPathComponent == "README.md" && url.path.contains("/conformance/protocols/"))
            {
                let path = url.standardizedFileURL.path
                let relative = path.hasPrefix(rootPath + "/") ? String(path.dropFirst(rootPath.count + 1)) : path
                files[relative] = Array(try Data(contentsOf: url))
            }
        }
        return SuiteFiles(files: files)
    }
}
