import WireJSON

/// Loads suites, cases and message schemas from a ``SuiteFiles`` tree. Problems become
/// ``Diagnostic``s (`FILE:LINE:COLUMN: message`); a bad case is left out, the rest still load.
package struct SuiteLoader: Sendable {
    /// The tree.
    package var files: SuiteFiles

    /// Creates a loader.
    package init(files: SuiteFiles) { self.files = files }

    /// Suite folders (`conformance/suites/<name>`) that hold a `suite.json`.
    package var suiteDirectories: [String] {
        files.paths(under: "conformance/suites/", suffix: "/suite.json").map {
            String($0.dropLast("/suite.json".count))
        }
    }

    /// Every suite, with the diagnostics met while loading.
    package func loadAll() -> (suites: [LoadedSuite], diagnostics: [Diagnostic]) {
        var suites: [LoadedSuite] = []
        var diagnostics: [Diagnostic] = []
        for directory in suiteDirectories {
            let result = load(directory: directory)
            if let suite = result.suite { suites.append(suite) }
            diagnostics += result.diagnostics
        }
        return (suites, diagnostics)
    }

    /// The suite of one protocol (`multimodal-dialog`, `qwen-realtime`).
    package func load(protocolName: String) -> (suite: LoadedSuite?, diagnostics: [Diagnostic]) {
        load(directory: "conformance/suites/\(protocolName)")
    }

    /// One suite folder.
    package func load(directory: String) -> (suite: LoadedSuite?, diagnostics: [Diagnostic]) {
        let suitePath = "\(directory)/suite.json"
        guard let bytes = files.files[suitePath] else {
            return (nil, [Diagnostic(file: suitePath, message: "suite.json is missing")])
        }
        let document = SourceDocument(path: suitePath, bytes: bytes)
        guard let value = document.value else { return (nil, [document.syntaxError].compactMap { $0 }) }
        let definition: SuiteDefinition
        do {
            definition = try SuiteDefinition(jsonValue: value)
        } catch {
            return (nil, [document.diagnostic(error.tokens, error.message, atKey: error.atKey)])
        }
        var diagnostics: [Diagnostic] = []
        var cases: [ConformanceCase] = []
        var caseFiles: [String: String] = [:]
        for path in files.paths(under: "\(directory)/cases/") {
            let caseDocument = SourceDocument(path: path, bytes: files.files[path] ?? [])
            guard let caseValue = caseDocument.value else {
                diagnostics += [caseDocument.syntaxError].compactMap { $0 }
                continue
            }
            do {
                let conformanceCase = try ConformanceCase(jsonValue: caseValue)
                if caseFiles[conformanceCase.id] == nil { caseFiles[conformanceCase.id] = path }
                cases.append(conformanceCase)
            } catch {
                diagnostics.append(caseDocument.diagnostic(error.tokens, error.message, atKey: error.atKey))
            }
        }
        let order = Dictionary(uniqueKeysWithValues: definition.sections.enumerated().map { ($1.id, $0) })
        cases.sort { (order[$0.section] ?? .max, $0.id) < (order[$1.section] ?? .max, $1.id) }
        return (
            LoadedSuite(directory: directory, definition: definition, cases: cases, caseFiles: caseFiles), diagnostics
        )
    }

    /// Message schemas under `conformance/protocols/<protocol>/{client,server}/<type>.json`.
    package func messageSchemas() -> MessageSchemaCatalog {
        var documents: [String: JSONValue] = [:]
        let prefix = "conformance/protocols/"
        for path in files.paths(under: prefix) {
            let key = String(path.dropFirst(prefix.count).dropLast(5))
            let depth = key.split(separator: "/").count
            // <protocol>/<side>/<type>, and <protocol>/common that the message schemas $ref.
            guard depth == 3 || (depth == 2 && key.hasSuffix("/common")), let bytes = files.files[path],
                let value = try? JSONValue.decode(bytes)
            else { continue }
            documents[key] = value
        }
        return MessageSchemaCatalog(documents: documents)
    }

    /// Reads an example transcript of a case.
    /// - Throws: ``TranscriptDecodingError`` when it is missing or malformed.
    package func example(
        _ suite: LoadedSuite, caseID: String, kind: String
    ) throws(TranscriptDecodingError) -> Transcript {
        let path = suite.examplePath(caseID: caseID, kind: kind)
        guard let text = files.text(path) else { throw TranscriptDecodingError("\(path): missing") }
        do {
            return try Transcript(exampleText: text)
        } catch {
            throw TranscriptDecodingError("\(path): \(error.message)")
        }
    }
}
