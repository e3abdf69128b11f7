import ConformanceChecks
import ConformanceReports
import Testing

/// The recap `conformance run` ends with: counts, each obligation broken in its own right once
/// with its cases and first evidence, and the GitHub annotations, escaped.
@Suite struct RunRecapTests {
    @Test func theRecapCountsVerdictsInReadingOrderAndListsEachBrokenObligationOnce() throws {
        let text = RunRecap.text(try ReportFixtures.run())
        #expect(
            text == """
                conformance recap: 1 fail, 1 error, 1 nonStrict, 1 unimplemented, 1 informational, 1 pass
                  fail qrt.C11 in qrt.tools.001: no function_call_output for call c1
                  nonStrict qrt.C7 in qrt.session.002: session.update resends voice: null
                """)
        // qrt.C13 is only a consequence, qrt.C9 only informational: neither is listed.
        #expect(!text.contains("qrt.C13") && !text.contains("qrt.C9"))
    }

    @Test func anObligationNamesItsOwnCasesAndQuotesItsFirstEvidenceOnOneLine() throws {
        let longEvidence = "frame 1 was wrong\n" + String(repeating: "y", count: 400)
        // c0 has qrt.C1 only as a consequence: its text is not the evidence quoted.
        let consequence = try ReportFixtures.evaluation(
            "c0", .fail, obligations: ["qrt.C2"],
            checks: [
                ReportFixtures.finding("qrt.C2", .fail, actual: "root", evidence: [0]),
                ReportFixtures.finding(
                    "qrt.C1", .fail, actual: "as a consequence", evidence: [], consequenceOf: "qrt.C2"),
            ], rootCause: "qrt.C2")
        var evaluations = [consequence]
        for index in 1...12 {
            evaluations.append(
                try ReportFixtures.evaluation(
                    "c\(index)", .fail,
                    checks: [
                        ReportFixtures.finding(
                            "qrt.C1", .fail, actual: index == 1 ? longEvidence : "later \(index)", evidence: [0])
                    ]))
        }
        let report = RunReport(
            protocolName: "qwen-realtime", client: "c", started: ReportFixtures.started, evaluations: evaluations)
        let lines = RunRecap.text(report).split(separator: "\n").map(String.init)
        #expect(lines[0] == "conformance recap: 13 fail")
        #expect(lines.count == 3)
        let line = lines[1]
        #expect(
            line.hasPrefix("  fail qrt.C1 in c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 and 2 more: frame 1 was wrong yyy")
        )
        #expect(line.hasSuffix("y…"))
        #expect(line.contains(String(repeating: "y", count: 150)) && !line.contains(String(repeating: "y", count: 200)))
        #expect(!line.contains("later") && !line.contains("as a consequence"))
        #expect(lines[2] == "  fail qrt.C2 in c0: root")
    }

    @Test func anEmptyRunSaysSo() {
        let report = RunReport(
            protocolName: "qwen-realtime", client: "c", started: ReportFixtures.started, evaluations: [])
        #expect(RunRecap.text(report) == "conformance recap: no case")
        #expect(RunRecap.githubAnnotations(report).isEmpty)
    }

    @Test func annotationsAreErrorsForWhatFailsTheRunAndWarningsForNonStrict() throws {
        var report = try ReportFixtures.run()
        #expect(
            RunRecap.githubAnnotations(report) == [
                "::error title=qrt.C11::qrt.tools.001: no function_call_output for call c1",
                "::warning title=qrt.C7::qrt.session.002: session.update resends voice: null",
            ])
        report.strict = true
        #expect(
            RunRecap.githubAnnotations(report).last
                == "::error title=qrt.C7::qrt.session.002: session.update resends voice: null")
    }

    @Test func annotationsEscapeAsGitHubRequires() throws {
        #expect(RunRecap.escapedData("50% done\r\nnext: a, b") == "50%25 done%0D%0Anext: a, b")
        #expect(RunRecap.escapedProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
        let evaluation = try ReportFixtures.evaluation(
            "c1", .fail, checks: [ReportFixtures.finding("x:y,z", .fail, actual: "100% broken", evidence: [])])
        let report = RunReport(
            protocolName: "qwen-realtime", client: "c", started: ReportFixtures.started, evaluations: [evaluation])
        #expect(RunRecap.githubAnnotations(report) == ["::error title=x%3Ay%2Cz::c1: 100%25 broken"])
    }

    @Test func oneLineJoinsLinesAndCuts() {
        #expect(OneLine.text("a\r\nb\n\nc") == "a b c")
        #expect(OneLine.text(String(repeating: "x", count: 10), limit: 5) == "xxxx…")
        #expect(OneLine.text("short", limit: 5) == "short")
    }
}
