import ConformanceChecks
import ConformanceReports
import Foundation
import FoundationXML
import Testing
import WireJSON

/// junit.xml and ctrf.json: stable names, the verdict kept, nonStrict visible but not failing.
@Suite struct CIFormatTests {
    @Test func junitNamesCasesByIDAndCarriesTheVerdict() throws {
        let xml = JUnitWriter.text(try ReportFixtures.run())
        let parser = XMLParser(data: Data(xml.utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse())
        #expect(counter.counts["testcase"] == 6)
        #expect(counter.counts["properties"] == 6)
        #expect(counter.counts["failure"] == 1)
        #expect(counter.counts["error"] == 1)
        #expect(counter.counts["skipped"] == 1)
        #expect(xml.contains("<testsuites tests=\"6\" failures=\"1\" errors=\"1\" skipped=\"1\">"))
        #expect(xml.contains("name=\"qrt.tools.001\" time=\"0.250\">"))
        #expect(xml.contains("<property name=\"title\" value=\"Function call round trip\"/>"))
        #expect(xml.contains("<property name=\"verdict\" value=\"fail\"/>"))
        #expect(xml.contains("<property name=\"rootCause\" value=\"qrt.C11\"/>"))
        #expect(xml.contains("<property name=\"consequences\" value=\"qrt.C13\"/>"))
        #expect(xml.contains("<failure message=\"qrt.C11: no function_call_output for call c1\""))
    }

    @Test func junitShowsNonStrictAsAPassingTestWithAMarkedOutput() throws {
        let xml = JUnitWriter.text(try ReportFixtures.run())
        let testcase = try #require(
            xml.components(separatedBy: "<testcase ").first { $0.contains("name=\"qrt.session.002\"") })
        #expect(testcase.contains("<property name=\"verdict\" value=\"nonStrict\"/>"))
        #expect(testcase.contains("<system-out>NONSTRICT: qrt.C7: session.update resends voice: null\n"))
        #expect(!testcase.contains("<skipped") && !testcase.contains("<failure"))
    }

    @Test func aStrictRunReportsNonStrictAsFailed() throws {
        var report = try ReportFixtures.run()
        report.strict = true
        let xml = JUnitWriter.text(report)
        #expect(xml.contains("<testsuites tests=\"6\" failures=\"2\" errors=\"1\" skipped=\"1\">"))
        #expect(xml.contains("<failure message=\"nonStrict (--strict): qrt.C7: session.update resends voice: null\""))
        let ctrf = CTRFWriter.json(report)
        #expect(ctrf["results"]?["summary"]?["failed"] == 3)
        #expect(ctrf["results"]?["tests"]?[2]?["status"] == "failed")
        #expect(ctrf["results"]?["tests"]?[2]?["rawStatus"] == "nonStrict")
        #expect(IndexWriter.json(report)["strict"] == true)
        try ReportContract.expectConforms(report)
    }

    @Test func junitPutsTheClientStderrInSystemErr() throws {
        let xml = JUnitWriter.text(try ReportFixtures.run())
        #expect(xml.contains("<system-err>log line 1\nlog line 2\n"))
        #expect(xml.components(separatedBy: "<system-err>").count - 1 == 1)
        #expect(xml.contains("<property name=\"stderr\" value=\"cases/qrt.tools.001.stderr.txt\"/>"))
    }

    @Test func ctrfMapsVerdictsAndConformsToTheSchema() throws {
        let report = try ReportFixtures.run()
        try ReportContract.expectConforms(report)
        let ctrf = CTRFWriter.json(report)
        #expect(ctrf["reportFormat"] == "CTRF")
        #expect(ctrf["results"]?["tool"] == ["name": "dialogmock-conformance", "version": "1.2.3"])
        let summary = try #require(ctrf["results"]?["summary"])
        #expect(summary["tests"] == 6)
        #expect(summary["passed"] == 3)
        #expect(summary["failed"] == 2)
        #expect(summary["skipped"] == 1)
        #expect(summary["pending"] == 0 && summary["other"] == 0)
        #expect(summary["start"]?.intValue == 1_700_000_000_000)
        #expect(summary["stop"]?.intValue == 1_700_000_000_650)
        let tests = try #require(ctrf["results"]?["tests"]?.arrayValue)
        let byName = Dictionary(uniqueKeysWithValues: tests.map { ($0["name"]?.stringValue ?? "", $0) })
        #expect(byName["qrt.tools.001"]?["status"] == "failed")
        #expect(byName["qrt.tools.001"]?["duration"] == 250)
        #expect(byName["qrt.tools.001"]?["suite"] == "tools")
        #expect(
            byName["qrt.tools.001"]?["filePath"] == "conformance/suites/qwen-realtime/cases/tools/qrt.tools.001.json")
        #expect(byName["qrt.tools.001"]?["extra"]?["rootCause"] == "qrt.C11")
        #expect(byName["qrt.tools.001"]?["extra"]?["consequences"] == ["qrt.C13"])
        #expect(byName["qrt.tools.001"]?["stderr"]?.arrayValue?.count == 30)
        #expect(byName["qrt.session.002"]?["status"] == "passed")
        #expect(byName["qrt.session.002"]?["rawStatus"] == "nonStrict")
        #expect(byName["qrt.session.002"]?["message"] == "nonStrict: qrt.C7: session.update resends voice: null")
        #expect(byName["qrt.session.003"]?["rawStatus"] == "informational")
        #expect(byName["qrt.audio.001"]?["status"] == "skipped")
        #expect(byName["qrt.audio.002"]?["status"] == "failed")
        #expect(byName["qrt.audio.002"]?["rawStatus"] == "error")
        #expect(byName["qrt.audio.002"]?["message"] == "error: port in use")
        #expect(byName["qrt.session.001"]?["message"] == nil)
        #expect(byName["qrt.session.001"]?["stderr"] == nil)
    }

    @Test func theCTRFSchemaRejectsWhatCTRFDoesNotAllow() throws {
        var document = CTRFWriter.json(try ReportFixtures.run())
        guard case .object(var top) = document, case .object(var results)? = top["results"],
            case .array(var tests)? = results["tests"], case .object(var test)? = tests.first
        else {
            Issue.record("shape")
            return
        }
        test["status"] = "broken"
        tests[0] = .object(test)
        results["tests"] = .array(tests)
        top["results"] = .object(results)
        document = .object(top)
        let problems = ReportSchema.validate(
            document, schemaFile: ReportContract.root.appendingPathComponent(ReportSchema.ctrfSchemaPath))
        #expect(problems.contains { $0.contains("/results/tests/0/status") })
    }

    @Test func theIndexListsStderrAndBudgetsAndConforms() throws {
        var report = try ReportFixtures.run()
        report.latencyBudgets = [LatencyMetric.sessionCreatedToUpdate: 20]
        try ReportContract.expectConforms(report)
        let index = IndexWriter.json(report)
        #expect(index["toolVersion"] == "1.2.3")
        #expect(index["latencyBudgets"] == [LatencyMetric.sessionCreatedToUpdate: 20])
        #expect(index["cases"]?[1]?["stderr"] == "cases/qrt.tools.001.stderr.txt")
        #expect(index["cases"]?[0]?["stderr"] == nil)
    }

    @Test func theIndexSchemaCatchesABrokenContract() throws {
        guard case .object(var index) = IndexWriter.json(try ReportFixtures.run()) else {
            Issue.record("not an object")
            return
        }
        index["summary"] = ["pass": 1]
        index["extra"] = true
        let problems = ReportSchema.validateIndex(.object(index), repositoryRoot: ReportContract.root)
        #expect(problems.contains { $0.contains("/summary") && $0.contains("required") })
        #expect(problems.contains { $0.contains("additionalProperties") || $0.contains("extra") })
    }
}
