import Foundation
import Testing
import TimelineView

/// The Swift copies of the timeline component equal its sources (.ci/embed-web).
@Suite("Timeline component assets")
struct TimelineAssetsTests {
    /// The text of `Sources/<module>/web/<file>` as the generated raw string literal holds it
    /// (without the final newline).
    static func source(_ module: String, _ file: String) throws -> String {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var text = try String(
            contentsOf: sources.appendingPathComponent(module).appendingPathComponent("web").appendingPathComponent(
                file),
            encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    @Test func theAssetsEqualTheirSources() throws {
        #expect(TimelineAssets.script == (try Self.source("TimelineView", "timeline.js")), "run .ci/embed-web")
        #expect(TimelineAssets.style == (try Self.source("TimelineView", "timeline.css")), "run .ci/embed-web")
    }

    /// The component needs nothing but the page it is in: no module import, no request.
    @Test func theScriptDefinesTheComponentAndLoadsNothing() {
        #expect(TimelineAssets.script.contains("window.DialogTimeline = {"))
        #expect(TimelineAssets.script.contains("render(element, data)"))
        for network in ["http://", "https://", "fetch(", "XMLHttpRequest", "import ", "WebSocket"] {
            #expect(!TimelineAssets.script.contains(network), "timeline.js must not use the network: \(network)")
        }
        #expect(!TimelineAssets.style.contains("@import") && !TimelineAssets.style.contains("url("))
    }
}
