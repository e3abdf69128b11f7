import ConformanceChecks
import Foundation
import ProtocolModel
import Testing
import WireJSON

/// Issue 40 point 1: every rule carries its source. The suite's obligation table holds the
/// reference's source tail, lint refuses a rule without one, reports carry it, and an
/// obligation whose only source is inferred can never fail a client.
@Suite struct ProvenanceTests {
    // MARK: tails and the suite's table

    @Test func aTailListsKeysDetailsAndTheInferredReason() throws {
        let provenance = try Provenance.parse(
            tail: " DOC-MMWS (key-flow note, §3), PY-MMD; inferred (the ordering, mostly)."
        ).get()
        #expect(provenance.sources == ["DOC-MMWS", "PY-MMD"])
        #expect(provenance.inferred == "the ordering, mostly")
        #expect(!provenance.isInferredOnly)
        #expect(provenance.description == "DOC-MMWS, PY-MMD; inferred (the ordering, mostly)")
        #expect(try Provenance.parse(tail: "inferred (no source)").get().isInferredOnly)
        #expect(throws: Provenance.TailError(entry: "sdk PY-OMNI")) { try Provenance.parse(tail: "sdk PY-OMNI").get() }
    }

    private func suite(_ obligations: String) throws -> SuiteDefinition {
        let text = """
            {"prefix": "qrt", "title": "t", "protocol": "qwen-realtime", "spec": {"doc": "qwen-realtime", "path": "p.md"},
             "obligations": \(obligations), "sections": [{"id": "s", "title": "S"}]}
            """
        return try SuiteDefinition(jsonValue: try JSONValue.decode(Array(text.utf8)))
    }

    @Test func theSuiteReadsObligationObjectsAndTheOldIdForm() throws {
        let definition = try suite(
            #"[{"id": "qrt.C1", "level": "MUST", "sources": ["DOC-QA-WS"]}, "qrt.C2", "#
                + #"{"id": "qrt.C3", "level": "MUST+SHOULD", "sources": [], "inferred": "why"}]"#)
        #expect(definition.obligations == ["qrt.C1", "qrt.C2", "qrt.C3"])
        #expect(definition.provenanceByID["qrt.C1"] == Provenance(sources: ["DOC-QA-WS"]))
        #expect(definition.provenanceByID["qrt.C2"] == nil)
        #expect(definition.provenanceByID["qrt.C3"]?.isInferredOnly == true)
        #expect(definition.sourcesText(of: ["qrt.C1", "qrt.C3"]) == "qrt.C1: DOC-QA-WS | qrt.C3: inferred (why)")
        #expect { try suite(#"[{"id": "qrt.C1", "level": "MAY", "sources": []}]"#) } throws: { error in
            (error as? CaseDecodingError)?.message.hasPrefix("level must be one of") ?? false
        }
        #expect { try suite(#"[{"id": "qrt.C1", "level": "MUST", "sources": ["sdk"]}]"#) } throws: { error in
            (error as? CaseDecodingError)?.message.contains("source keys") ?? false
        }
    }

    /// Every obligation of the shipped suites has a source; the list still inferred is known.
    @Test func shippedObligationsAllHaveSources() {
        for suite in SuiteLoader(files: RepositoryFiles.files).loadAll().suites {
            for obligation in suite.definition.obligationTable {
                #expect(obligation.provenance.map { !$0.isEmpty } == true, "\(obligation.id)")
                #expect(obligation.provenance?.isInferredOnly == false, "\(obligation.id) is inferred only")
            }
        }
    }

    // MARK: lint

    static let qrtSuite = "conformance/suites/qwen-realtime/suite.json"
    static let qrtReference = "conformance/protocols/qwen-realtime/README.md"

    /// Lint errors of the real tree with `path`'s text edited by `edit`.
    static func lint(_ path: String, _ edit: (String) -> String) -> [String] {
        var files = RepositoryFiles.files
        let text = files.text(path) ?? ""
        let edited = edit(text)
        #expect(edited != text, "the edit changed nothing")
        files.files[path] = Array(edited.utf8)
        return SuiteLinter(files: files).errors().map(\.description)
    }

    static func line(of needle: String, in path: String) -> Int {
        let lines = (RepositoryFiles.files.text(path) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    @Test func anObligationWithoutSourcesFails() {
        let errors = Self.lint(Self.qrtSuite) {
            $0.replacingOccurrences(
                of: #"""
                    {
                          "id": "qrt.C2",
                          "level": "MUST",
                          "sources": [
                            "DOC-QA-WS",
                            "PY-OMNI"
                          ]
                        }
                    """#, with: #""qrt.C2""#)
        }
        #expect(
            errors.contains { $0.hasPrefix(Self.qrtSuite + ":") && $0.contains("qrt.C2 has no sources") }, "\(errors)")
        let empty = Self.lint(Self.qrtSuite) {
            $0.replacingOccurrences(of: "\"DOC-QA-WS\",\n        \"PY-OMNI\"\n", with: "\n")
        }
        #expect(empty.contains { $0.contains("has no source: name a key or give \"inferred\"") }, "\(empty)")
    }

    @Test func anUnknownKeyFailsInTheSuiteAndInTheReference() {
        let inSuite = Self.lint(Self.qrtSuite) { $0.replacingOccurrences(of: "\"PY-OMNI\"", with: "\"PY-NOPE\"") }
        #expect(inSuite.contains { $0.hasPrefix(Self.qrtSuite + ":") && $0.contains("unknown source key PY-NOPE") })
        let line = Self.line(of: "— Sources: DOC-QA-WS, PY-OMNI.", in: Self.qrtReference)
        let inReference = Self.lint(Self.qrtReference) {
            $0.replacingOccurrences(of: "— Sources: DOC-QA-WS, PY-OMNI.", with: "— Sources: DOC-QA-WS, PY-NOPE.")
        }
        #expect(
            inReference.contains {
                $0 == "\(Self.qrtReference):\(line):1: unknown source key PY-NOPE (not in the §0 table)"
            },
            "\(inReference)")
        let badEntry = Self.lint(Self.qrtReference) {
            $0.replacingOccurrences(of: "— Sources: DOC-QA-WS, PY-OMNI.", with: "— Sources: DOC-QA-WS; sdk PY-OMNI.")
        }
        #expect(
            badEntry.contains { $0.contains("source tail entry \"sdk PY-OMNI\" is neither a key nor inferred (why)") })
    }

    @Test func suiteSourcesThatDisagreeWithTheReferenceFail() {
        let errors = Self.lint(Self.qrtSuite) {
            $0.replacingOccurrences(of: "\"DOC-QA-WS\",\n        \"PY-OMNI\"\n", with: "\"DOC-QA-WS\"\n")
        }
        #expect(
            errors.contains {
                $0.hasPrefix(Self.qrtSuite + ":")
                    && $0.contains("the sources of qrt.C2 (DOC-QA-WS) disagree with \(Self.qrtReference):")
            }, "\(errors)")
        let level = Self.lint(Self.qrtSuite) {
            $0.replacingOccurrences(
                of: "\"id\": \"qrt.C9\",\n      \"level\": \"SHOULD\"",
                with: "\"id\": \"qrt.C9\",\n      \"level\": \"MUST\"")
        }
        #expect(level.contains { $0.contains("level MUST of qrt.C9 disagrees with") }, "\(level)")
    }

    @Test func anItemWithoutATailFails() {
        let line = Self.line(of: "* **S6**", in: Self.qrtReference)
        let errors = Self.lint(Self.qrtReference) {
            $0.replacingOccurrences(of: "checks.\n  — Sources: DOC-QA-CE.\n", with: "checks.\n")
        }
        #expect(errors.contains { $0.hasPrefix("\(Self.qrtReference):\(line):1: S6 has no source tail") }, "\(errors)")
    }

    // MARK: the cap

    /// The shipped suite's provenance with `id` made inferred only.
    static func inferredOnly(_ id: String, in suite: LoadedSuite) -> [String: Provenance] {
        var table = suite.definition.provenanceByID
        table[id] = Provenance(sources: [], inferred: "no source states it (test)")
        return table
    }

    /// A client breaking an inferred-only MUST rule (qrt.C21: an adapter `error` after an
    /// unknown event) is nonStrict, not fail, with the reason; the same break under the sourced
    /// rule fails.
    @Test func anInferredRuleCanNeverFailAClient() throws {
        let subject = try #require(CaseExampleTests.subjects.first { $0.conformanceCase.id == "qrt.events.001" })
        let transcript = try SuiteLoader(files: RepositoryFiles.files).example(
            subject.suite, caseID: "qrt.events.001", kind: "fail")
        var evaluator = CaseEvaluator(protocolName: "qwen-realtime", schemas: RepositoryFiles.schemas, strict: true)
        evaluator.provenance = subject.suite.definition.provenanceByID
        let sourced = evaluator.evaluate(subject.conformanceCase, transcript: transcript)
        #expect(sourced.verdict == .fail)
        let finding = try #require(sourced.checks.first { $0.obligation == "qrt.C21" && $0.isFinding })
        #expect(finding.provenance?.sources == ["PY-OMNI"])
        evaluator.provenance = Self.inferredOnly("qrt.C21", in: subject.suite)
        let inferred = evaluator.evaluate(subject.conformanceCase, transcript: transcript)
        #expect(inferred.verdict == .nonStrict)
        let capped = try #require(inferred.checks.first { $0.obligation == "qrt.C21" && $0.isFinding })
        #expect(capped.verdict == .nonStrict)
        #expect(capped.actual.hasSuffix(InferredRules.marker + "no source states it (test)"))
        #expect(inferred.failedChecks.contains("qrt.C21"))
    }

    /// A MUST violation the mock journaled under an inferred-only obligation is nonStrict too.
    @Test func aJournaledMustUnderAnInferredRuleIsNonStrict() throws {
        let subject = try #require(CaseExampleTests.subjects.first { $0.conformanceCase.id == "qrt.events.001" })
        var transcript = try SuiteLoader(files: RepositoryFiles.files).example(
            subject.suite, caseID: "qrt.events.001", kind: "pass")
        let at = transcript.journal.last?.t ?? 0
        transcript.journal.append(
            JournalEntry(t: at, kind: .violation, violation: Violation(obligation: "qrt.C12", message: "MUST: cancel")))
        var evaluator = CaseEvaluator(protocolName: "qwen-realtime", schemas: RepositoryFiles.schemas, strict: true)
        evaluator.provenance = subject.suite.definition.provenanceByID
        #expect(evaluator.evaluate(subject.conformanceCase, transcript: transcript).verdict == .fail)
        evaluator.provenance = Self.inferredOnly("qrt.C12", in: subject.suite)
        let evaluation = evaluator.evaluate(subject.conformanceCase, transcript: transcript)
        #expect(evaluation.verdict == .nonStrict)
        let journaled = try #require(evaluation.checks.first { $0.kind == JournaledViolations.kind })
        #expect(journaled.verdict == .nonStrict && journaled.actual.contains("inferred rule"))
        #expect(evaluation.rootCause == "qrt.C12")
    }
}
