import ConformanceChecks
import Foundation
import ProtocolModel
import Testing

/// `conformance lint` over the real suite is clean, and each rule fires on a small bad input.
@Suite struct SuiteLintTests {
    @Test func realSuiteIsClean() {
        let errors = SuiteLinter(files: RepositoryFiles.files).errors()
        #expect(errors.isEmpty, "\(errors.prefix(10).map(\.description))")
    }

    /// The real tree with `cases/start/<name>.json` replaced or added.
    static func lint(_ path: String, _ text: String, examples: Bool = true) -> [String] {
        var files = RepositoryFiles.files
        let full = "conformance/suites/multimodal-dialog/cases/\(path)"
        files.files[full] = Array(text.utf8)
        let id = SuiteFiles.baseName(full)
        if examples {
            for kind in ["pass", "fail"] {
                files.files["conformance/suites/multimodal-dialog/examples/\(id).\(kind).json"] = Array(
                    #"{"journal": []}"#.utf8)
            }
        }
        return SuiteLinter(files: files).errors().map(\.description).filter {
            $0.hasPrefix(full) || $0.contains("/examples/\(id)")
        }
    }

    static func caseText(
        id: String = "mmd.start.900", scenario: String = "default", obligation: String = "mmd.C2",
        check: String = #"{ "kind": "firstMessage", "type": "Start" }"#,
        section: String = "12. CLIENT OBLIGATIONS",
        quote: String =
            #"The first frame MUST be a text frame with header.action=\"run-task\", header.streaming=\"duplex\","#
    )
        -> String
    {
        """
        {
          "id": "\(id)",
          "title": "t",
          "spec": { "doc": "multimodal-dialog", "section": "\(section)", "level": "MUST", "quote": "\(quote)" },
          "obligations": ["\(obligation)"],
          "description": "d",
          "scenario": "\(scenario)",
          "checks": [
            \(check)
          ],
          "timeoutMs": 1000
        }
        """
    }

    /// Every citation must be readable in the repository's protocol reference.
    @Test func specSectionAndQuoteMustBeInTheProtocolReference() {
        let badQuote = Self.lint("start/mmd.start.900.json", Self.caseText(quote: "Clients MUST dance."))
        #expect(
            badQuote.contains {
                $0.contains("spec.quote")
                    || $0.contains("the quote is not in conformance/protocols/multimodal-dialog/README.md")
            },
            "\(badQuote)")
        let badSection = Self.lint("start/mmd.start.900.json", Self.caseText(section: "99. NOWHERE"))
        #expect(badSection.contains { $0.contains("has no heading \"99. NOWHERE\"") }, "\(badSection)")
        #expect(Self.lint("start/mmd.start.900.json", Self.caseText()).isEmpty)
    }

    @Test func syntaxErrorsAreLocated() {
        #expect(
            Self.lint("start/mmd.start.900.json", "{\n  \"id\": \"x\",,\n}") == [
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:2:13: string or '}' expected near ','"
            ])
    }

    @Test func schemaViolationsNameTheMember() {
        let text = Self.caseText().replacingOccurrences(
            of: "\"timeoutMs\": 1000", with: "\"timeoutMs\": 1000, \"colour\": 1")
        let messages = Self.lint("start/mmd.start.900.json", text)
        #expect(
            messages == [
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:11:22: unknown member \"colour\"",
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:11:32: schema: /colour: additionalProperties: property \"colour\" is not allowed",
            ])
    }

    @Test func idMustMatchFileNameAndBeUnique() {
        let messages = Self.lint("start/mmd.start.900.json", Self.caseText(id: "mmd.start.001"))
        #expect(
            messages.contains(
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:2:9: id mmd.start.001 does not match the file name mmd.start.900.json"
            ))
        #expect(
            messages.contains {
                $0.hasSuffix(
                    "duplicate case id mmd.start.001 (also in conformance/suites/multimodal-dialog/cases/start/mmd.start.001.json)"
                ) || $0.contains("duplicate case id")
            })
    }

    @Test func unknownCheckKindAndBadParameters() {
        let unknown = Self.lint(
            "start/mmd.start.900.json", Self.caseText(check: #"{ "kind": "firstMesage", "type": "Start" }"#))
        #expect(
            unknown.contains {
                $0.hasPrefix(
                    "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:9:15: checks[0].kind: unknown check kind \"firstMesage\"; known: adapterEvent,"
                )
            }, "\(unknown)")
        let bad = Self.lint(
            "start/mmd.start.900.json",
            Self.caseText(
                check:
                    #"{ "kind": "respondsWithin", "trigger": { "server": "Started" }, "reaction": { "client": "Stop" }, "withinMs": "soon" }"#
            ))
        #expect(
            bad == [
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:9:115: checks[0].withinMs: expected a number ≥ 0"
            ])
    }

    @Test func scenarioAndObligationReferencesResolve() {
        let scenario = Self.lint("start/mmd.start.900.json", Self.caseText(scenario: "no-such-scenario"))
        #expect(
            scenario.contains(
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:7:15: scenario no-such-scenario is neither shipped (mock-server/scenarios) nor in conformance/suites/multimodal-dialog/scenarios"
            ))
        let obligation = Self.lint("start/mmd.start.900.json", Self.caseText(obligation: "mmd.C99"))
        #expect(
            obligation.contains(
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:5:19: unknown obligation id mmd.C99"
            ))
    }

    @Test func examplesMustExist() {
        let messages = Self.lint("start/mmd.start.900.json", Self.caseText(), examples: false)
        #expect(
            messages.contains(
                "conformance/suites/multimodal-dialog/cases/start/mmd.start.900.json:2:9: missing example conformance/suites/multimodal-dialog/examples/mmd.start.900.pass.json"
            ))
    }

    @Test func sectionMustMatchFolder() {
        let messages = Self.lint("stop/mmd.start.900.json", Self.caseText())
        #expect(
            messages.contains(
                "conformance/suites/multimodal-dialog/cases/stop/mmd.start.900.json:2:9: case of section start is in folder stop"
            ))
    }
}
