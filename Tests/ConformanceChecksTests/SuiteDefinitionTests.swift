import ConformanceChecks
import Testing
import WireJSON

/// `suite.json` decoding: the latency budgets a suite holds clients to.
@Suite struct SuiteDefinitionTests {
    private func suite(budgets: String) throws -> SuiteDefinition {
        let text = """
            {"prefix": "qrt", "title": "t", "protocol": "qwen-realtime", "spec": {"doc": "qwen-realtime", "path": "p.md"},
             "obligations": ["qrt.C1"], "latencyBudgets": \(budgets), "sections": [{"id": "s", "title": "S"}]}
            """
        return try SuiteDefinition(jsonValue: try JSONValue.decode(Array(text.utf8)))
    }

    @Test func budgetsAreDecodedByMetric() throws {
        #expect(
            try suite(budgets: #"{"bargeIn.speechStarted.cancel": 500}"#).latencyBudgets == [
                "bargeIn.speechStarted.cancel": 500
            ])
    }

    @Test func anUnknownMetricOrABadValueIsNamed() {
        #expect { try suite(budgets: #"{"bargeIn.cancel": 500}"#) } throws: { error in
            (error as? CaseDecodingError)?.message.contains("unknown latency metric bargeIn.cancel") ?? false
        }
        #expect(throws: CaseDecodingError.self) { try suite(budgets: #"{"bargeIn.speechStarted.cancel": -1}"#) }
    }

    /// The shipped suites carry the budgets their playback cases use.
    @Test func shippedSuitesCarryTheirBudgets() throws {
        let loader = SuiteLoader(files: RepositoryFiles.files)
        #expect(
            loader.load(protocolName: "qwen-realtime").suite?.definition.latencyBudgets["bargeIn.speechStarted.cancel"]
                == 500)
        #expect(
            loader.load(protocolName: "multimodal-dialog").suite?.definition.latencyBudgets[
                "requestAccepted.downlinkStop"] == 500)
    }
}
