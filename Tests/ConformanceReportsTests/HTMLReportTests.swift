import ConformanceChecks
import ConformanceReports
import Foundation
import Testing

/// report.html as a person reads it: worst first, evidence inline, budgets, stderr.
@Suite struct HTMLReportTests {
    @Test func casesComeWorstFirstUnderASummaryBar() throws {
        let html = HTMLReportWriter.text(try ReportFixtures.run())
        let order = [
            "verdict-fail", "verdict-error", "verdict-nonStrict", "verdict-unimplemented", "verdict-informational",
            "verdict-pass",
        ]
        let positions = order.map { html.range(of: "<h3 id=\"\($0)\"")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(!html.contains("id=\"verdict-skipped\""))
        #expect(
            html.contains("<a class=\"fail\" href=\"#verdict-fail\" style=\"flex:1 1 0\" title=\"1 fail\">1 fail</a>"))
        #expect(html.range(of: "<nav class=\"bar\"")!.lowerBound < html.range(of: "<h2>Cases</h2>")!.lowerBound)
    }

    @Test func findingsShowTheCitedJournalEntry() throws {
        let html = HTMLReportWriter.text(try ReportFixtures.run())
        #expect(
            html.contains("#1 · 4 ms · mock → client · text · <b>response.function_call_arguments.done</b> · 3100 B"))
        #expect(html.contains("&quot;arguments&quot;: &quot;xxxx"))
        // The 3 KB argument is cut at about 2 KB.
        #expect(html.contains("more bytes in the case&apos;s JSON)"))
        // The evidence box is cut; only the case's data block (the journal, once) has it all.
        #expect(!HTMLPage.visible(html).contains(String(repeating: "x", count: 2100)))
        // A passing check keeps the bare index.
        #expect(html.contains("<td>#0</td>"))
    }

    @Test func emptyTimelinesAreLeftOut() throws {
        let html = HTMLReportWriter.text(try ReportFixtures.run())
        #expect(html.components(separatedBy: "<svg class=\"timeline\"").count - 1 == 1)
        #expect(!html.contains("<p>qrt.session"))
    }

    @Test func latencyPlotsDrawTheBudget() throws {
        var report = try ReportFixtures.run()
        #expect(!HTMLReportWriter.text(report).contains("class=\"budget\""))
        report.latencyBudgets = [LatencyMetric.sessionCreatedToUpdate: 20]
        let html = HTMLReportWriter.text(report)
        #expect(html.contains("<line class=\"budget\""))
        #expect(html.contains("budget 20 — <span class=\"fail\">1 over</span>"))
    }

    @Test func theClientStderrIsLinkedWithItsTail() throws {
        let html = HTMLReportWriter.text(try ReportFixtures.run())
        #expect(html.contains("<a href=\"cases/qrt.tools.001.stderr.txt\">cases/qrt.tools.001.stderr.txt</a>"))
        #expect(html.contains("log line 11\n") && html.contains("log line 30</pre>"))
        #expect(!html.contains("log line 10\n"))
        #expect(HTMLPage.loadsNothing(html))
    }
}
