import ConformanceChecks
import ConformanceReports
import Foundation
import Testing
import WireJSON

/// `conformance matrix`: runs side by side from their index.json files.
@Suite struct ClientMatrixTests {
    /// A temporary folder with two runs of one protocol (a real report folder and a hand-written
    /// index of an older run without `repeat`) and one run of the other.
    private static func runs() throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString)")
        var report = try ReportWriterTests.report()
        report.repeatCount = 2
        report.evaluations[0].repeats = CaseRepeats(runs: [
            .init(verdict: .pass, durationMs: 10), .init(verdict: .fail, durationMs: 12),
        ])
        try ReportFolderWriter.write(report, to: base.appendingPathComponent("runs/swift"))
        let older: JSONValue = [
            "protocol": "multimodal-dialog", "client": "conformance/adapters/dashscope-python/run",
            "started": "2026-11-30T10:00:00Z",
            "summary": ["pass": 1, "nonStrict": 1],
            "cases": [
                [
                    "id": "mmd.stop.900", "verdict": "nonStrict", "failedChecks": ["mmd.C23"],
                    "report": "cases/mmd.stop.900.json",
                ],
                ["id": "mmd.stop.999", "verdict": "pass", "failedChecks": [], "report": "cases/mmd.stop.999.json"],
            ],
            "latency": ["connect.firstFrame": ["count": 2, "p50": 40, "p95": 50, "p99": 50, "max": 50]],
            "latencyBudgets": ["connect.firstFrame": 30],
        ]
        let olderFolder = base.appendingPathComponent("runs/sdk")
        try FileManager.default.createDirectory(at: olderFolder, withIntermediateDirectories: true)
        try Data(older.encodedString().utf8).write(to: olderFolder.appendingPathComponent("index.json"))
        let qwen: JSONValue = [
            "protocol": "qwen-realtime", "client": "python3 openai_flow.py", "started": "2026-11-30T10:00:00Z",
            "cases": [["id": "qrt.connect.001", "verdict": "pass"]],
        ]
        let qwenFolder = base.appendingPathComponent("runs/openai")
        try FileManager.default.createDirectory(at: qwenFolder, withIntermediateDirectories: true)
        try Data(qwen.encodedString().utf8).write(to: qwenFolder.appendingPathComponent("index.json"))
        return base
    }

    @Test func runsSideBySideWithVerdictsLinksAndLatency() throws {
        let base = try Self.runs()
        defer { try? FileManager.default.removeItem(at: base) }
        let runs = base.appendingPathComponent("runs")
        let matrix = try ClientMatrix.read([
            (nil, runs.appendingPathComponent("swift").path), (nil, runs.appendingPathComponent("sdk").path),
            ("openai", runs.appendingPathComponent("openai").path),
        ])
        #expect(matrix.columns.map(\.label) == ["client", "dashscope-python", "openai"])
        #expect(matrix.protocols == ["multimodal-dialog", "qwen-realtime"])
        // Union of the cases, in the order the runs list them; a case one run lacks has no cell.
        #expect(
            matrix.rows.map(\.id) == [
                "mmd.stop.900", "mmd.stop.902", "mmd.stop.901", "mmd.stop.903", "mmd.stop.999", "qrt.connect.001",
            ])
        let first = try #require(matrix.rows.first)
        #expect(first.cells["client"]?.verdict == .pass && first.cells["client"]?.flaky == true)
        #expect(first.cells["dashscope-python"]?.verdict == .nonStrict)
        #expect(matrix.rows[1].cells["dashscope-python"] == nil)

        let out = base.appendingPathComponent("matrix")
        try MatrixWriter.write(matrix, to: out, generated: Date(timeIntervalSince1970: 1_800_000_000))
        let json = try JSONValue.decode(Array(try Data(contentsOf: out.appendingPathComponent("matrix.json"))))
        #expect(
            json["columns"]?.arrayValue?.map { $0["label"]?.stringValue ?? "" } == [
                "client", "dashscope-python", "openai",
            ])
        #expect(json["columns"]?[1]?["folder"] == "../runs/sdk")
        let cell = json["rows"]?[0]?["cells"]?["dashscope-python"]
        #expect(cell?["verdict"] == "nonStrict" && cell?["report"] == "../runs/sdk/cases/mmd.stop.900.json")
        #expect(json["rows"]?[0]?["cells"]?["client"]?["flaky"] == true)
        #expect(json["latencyP50"]?["multimodal-dialog"]?["connect.firstFrame"]?["dashscope-python"] == 40)
        let html = try String(contentsOf: out.appendingPathComponent("matrix.html"), encoding: .utf8)
        #expect(html.contains("<h2>multimodal-dialog</h2>") && html.contains("<h2>qwen-realtime</h2>"))
        #expect(html.contains(#"href="../runs/sdk/cases/mmd.stop.900.json">nonStrict</a>"#))
        #expect(html.contains(#"<span class="flaky">flaky 50 %</span>"#))
        // The p50 over its budget is marked.
        #expect(html.contains(#"<td class="fail">40 <small>/ 30</small></td>"#))
        #expect(!html.contains("<script"))
    }

    @Test func aFolderWithoutAnIndexIsNamed() throws {
        #expect(throws: ClientMatrix.Failure.self) { try ClientMatrix.read([(nil, "/nonexistent/run")]) }
        do {
            _ = try ClientMatrix.read([(nil, "/nonexistent/run")])
        } catch {
            #expect(error.description.contains("/nonexistent/run/index.json"))
        }
    }

    @Test(arguments: [
        ("conformance/adapters/dashscope-python/run", "dashscope-python"),
        (".build/debug/dialogmock-adapter --fault late-cancel", "dialogmock-adapter --fault late-cancel"),
        ("python3 clients/openai_flow.py --x", "openai_flow --x"),
        ("./client", "client"),
        ("", "client"),
    ])
    func defaultLabels(client: String, label: String) {
        #expect(ClientMatrix.defaultLabel(client: client) == label)
    }
}
