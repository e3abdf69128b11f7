import JSONSchema
import ProtocolModel
import WireJSON

/// `conformance lint`: every case file schema-valid (`case.schema.json` through the
/// validator) and decodable, unique ids that match their file names and sections, known check
/// kinds with valid parameters, scenario and fault references that resolve, obligation ids the
/// suite lists, and pass/fail examples for every active case; every obligation and server
/// behaviour with a known source, the same in the reference and in `suite.json`
/// (``ReferenceSources``). Custom checks are listed as notes.
package struct SuiteLinter: Sendable {
    /// The tree to lint.
    package var files: SuiteFiles

    /// Creates a linter.
    package init(files: SuiteFiles) { self.files = files }

    /// Every problem, sorted by file and position; notes included.
    package func lint() -> [Diagnostic] {
        let loader = SuiteLoader(files: files)
        var diagnostics = loader.loadAll().diagnostics
        let caseSchema = validator("conformance/schema/case.schema.json", &diagnostics)
        let suiteSchema = validator("conformance/schema/suite.schema.json", &diagnostics)
        if loader.suiteDirectories.isEmpty {
            diagnostics.append(Diagnostic(file: "conformance/suites", message: "no suite.json found"))
        }
        var seenIDs: [String: String] = [:]
        for directory in loader.suiteDirectories {
            let suitePath = "\(directory)/suite.json"
            let suiteDocument = SourceDocument(path: suitePath, bytes: files.files[suitePath] ?? [])
            if let suiteSchema { diagnostics += schemaFailures(suiteDocument, suiteSchema) }
            guard let suite = loader.load(directory: directory).suite else { continue }
            let specText = files.text(suite.definition.specPath)
            let spec = specText.map(SpecIndex.init(text:))
            if let text = specText {
                // Provenance (issue 40): the reference's sources and the suite's obligation table.
                let reference = ReferenceSources(path: suite.definition.specPath, text: text)
                diagnostics += reference.diagnostics + reference.check(suite.definition, document: suiteDocument)
            }
            for path in files.paths(under: "\(directory)/cases/") {
                let document = SourceDocument(path: path, bytes: files.files[path] ?? [])
                guard document.value != nil else { continue }
                if let caseSchema { diagnostics += schemaFailures(document, caseSchema) }
                diagnostics += CaseRules(files: files, suite: suite, document: document, spec: spec).check(
                    seenIDs: &seenIDs)
            }
        }
        return diagnostics.sorted {
            ($0.file, $0.line, $0.column, $0.message) < ($1.file, $1.line, $1.column, $1.message)
        }
    }

    /// Only the errors of ``lint()``.
    package func errors() -> [Diagnostic] { lint().filter { $0.severity == .error } }

    private func validator(_ path: String, _ diagnostics: inout [Diagnostic]) -> JSONSchemaValidator? {
        guard let bytes = files.files[path] else {
            diagnostics.append(Diagnostic(file: path, message: "schema file is missing"))
            return nil
        }
        let document = SourceDocument(path: path, bytes: bytes)
        guard let value = document.value else {
            diagnostics += [document.syntaxError].compactMap { $0 }
            return nil
        }
        do {
            return try JSONSchemaValidator(schema: value, baseURI: "file:///" + path)
        } catch {
            diagnostics.append(Diagnostic(file: path, message: "schema does not compile: \(error)"))
            return nil
        }
    }

    private func schemaFailures(_ document: SourceDocument, _ validator: JSONSchemaValidator) -> [Diagnostic] {
        guard let value = document.value else { return [] }
        return validator.validate(value).prefix(5).map { failure in
            let pointer = failure.instancePointer.description.isEmpty ? "/" : failure.instancePointer.description
            return document.diagnostic(
                failure.instancePointer.tokens, "schema: \(pointer): \(failure.keyword): \(failure.message)")
        }
    }
}
