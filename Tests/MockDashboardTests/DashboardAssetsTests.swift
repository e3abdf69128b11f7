import Foundation
import MockDashboard
import Testing

/// The Swift copies of the dashboard's files equal their sources (.ci/embed-web), and the page
/// loads nothing from elsewhere (no CDN: it works offline).
@Suite("Dashboard assets")
struct DashboardAssetsTests {
    static func source(_ file: String) throws -> String {
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MockDashboard/web")
        var text = try String(contentsOf: web.appendingPathComponent(file), encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    @Test func theAssetsEqualTheirSources() throws {
        #expect(DashboardAssets.page == (try Self.source("index.html")), "run .ci/embed-web")
        #expect(DashboardAssets.script == (try Self.source("dashboard.js")), "run .ci/embed-web")
        #expect(DashboardAssets.style == (try Self.source("dashboard.css")), "run .ci/embed-web")
    }

    @Test func thePageLoadsOnlyTheServersOwnFiles() throws {
        #expect(!DashboardAssets.page.contains("http://") && !DashboardAssets.page.contains("https://"))
        let sources = DashboardAssets.page.matches(of: /(?:src|href)="([^"]*)"/).map { String($0.1) }
        #expect(
            Set(sources)
                == [
                    "/_mock/ui/timeline.css", "/_mock/ui/dashboard.css", "/_mock/ui/timeline.js",
                    "/_mock/ui/dashboard.js",
                ])
        #expect(!DashboardAssets.style.contains("@import") && !DashboardAssets.style.contains("url("))
        #expect(!DashboardAssets.script.contains("http://") && !DashboardAssets.script.contains("https://"))
    }
}
