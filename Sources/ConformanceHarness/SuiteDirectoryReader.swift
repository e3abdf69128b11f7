package import ConformanceChecks
package import FoundationEssentials

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
            for path in filePaths(under: rootPath + "/" + folder)
            where path.hasSuffix(".json") || (path.hasSuffix("/README.md") && path.contains("/conformance/protocols/"))
            {
                let relative = String(path.dropFirst(rootPath.count + 1))
                files[relative] = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        return SuiteFiles(files: files)
    }

    /// Every file below `folder` (symbolic links to folders followed), as full paths; none for
    /// a missing folder.
    private static func filePaths(under folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var paths: [String] = []
        for name in names {
            let path = folder + "/" + name
            var isFolder = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
                paths += filePaths(under: path)
            } else {
                paths.append(path)
            }
        }
        return paths
    }
}
