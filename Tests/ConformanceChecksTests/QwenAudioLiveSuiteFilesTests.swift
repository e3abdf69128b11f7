import ConformanceChecks
import ProtocolModel
import Testing
import WireJSON

/// The Qwen-Audio-Live suite and schemas (issue 42): the suite loads with the shared design's
/// obligations and their sources, every Live event has a schema the checks use, the
/// `session.update` schema encodes the documented rules, and lint holds the suite's case models
/// to live service models.
@Suite struct QwenAudioLiveSuiteFilesTests {
    static let live = DialogProtocol.qwenAudioLive

    @Test func theSuiteLoadsWithTheDesignedObligationsAndSections() throws {
        let (suite, diagnostics) = SuiteLoader(files: RepositoryFiles.files).load(protocolName: Self.live.rawValue)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let loaded = try #require(suite)
        #expect(loaded.definition.prefix == Self.live.descriptor.obligationPrefix)
        #expect(loaded.definition.obligations == (1...10).map { "qal.C\($0)" })
        #expect(loaded.definition.obligations.contains(Self.live.connectObligation))
        #expect(loaded.definition.obligations.contains(Self.live.audioFormatObligation))
        let provenance = loaded.definition.provenanceByID
        // Every obligation has an official page behind it; the borrowed parts are named inferred.
        #expect(provenance.count == 10)
        #expect(provenance.values.allSatisfy { !$0.sources.isEmpty && !$0.isInferredOnly })
        #expect(provenance["qal.C3"]?.sources == ["DOC-QAL-CE", "OA-LIVE"])
        #expect(provenance["qal.C3"]?.inferred?.isEmpty == false)
        #expect(provenance["qal.C5"] == Provenance(sources: ["DOC-QAL-CE"]))
        #expect(
            Set(loaded.cases.map(\.section)) == [
                "connect", "framing", "session", "audio", "turns", "tools", "delegation", "transport", "ending",
            ])
        for obligation in loaded.definition.obligations {
            #expect(loaded.cases.contains { $0.obligations.contains(obligation) }, "no case for \(obligation)")
        }
        // The AOQ case and the duplex case need the adapter's drive; the rest run on any client's own flow.
        #expect(Set(loaded.cases.filter(\.needsDriving).map(\.id)) == ["qal.transport.001", "qal.turns.002"])
    }

    @Test func everyLiveEventHasASchema() {
        for event in QwenAudioLiveClientEvent.allCases {
            #expect(
                RepositoryFiles.schemas.contains(
                    protocolName: Self.live.rawValue, side: "client", type: event.rawValue),
                "client \(event.rawValue)")
        }
        for event in QwenAudioLiveServerEvent.allCases {
            #expect(
                RepositoryFiles.schemas.contains(
                    protocolName: Self.live.rawValue, side: "server", type: event.rawValue),
                "server \(event.rawValue)")
        }
    }

    /// One `session.update` to validate and the keyword that must fail ("" = valid).
    struct Update: Sendable, CustomTestStringConvertible {
        var eventID: String? = "u1"
        var model: String? = "qwen-audio-3.1-realtime-flash"
        var turnDetection: String?
        var delegation: String? = "client"
        var keyword = ""
        var testDescription: String { keyword.isEmpty ? "valid \(model ?? "-")/\(turnDetection ?? "-")" : keyword }

        var event: JSONValue {
            var session: JSONObject = ["x_future_field": 1]
            session["model"] = model.map(JSONValue.string)
            session["turn_detection"] = turnDetection.map { ["type": .string($0)] }
            session["delegation"] = delegation.map { ["type": .string($0)] }
            var object: JSONObject = ["type": "session.update", "session": .object(session)]
            object["event_id"] = eventID.map(JSONValue.string)
            return .object(object)
        }
    }

    /// `session.update` needs its `event_id` (1–128 characters), a frontend model, a delegation,
    /// and duplex only on the 4.0 preview (qal.C3, qal.C5); unknown keys pass.
    @Test(arguments: [
        Update(),
        Update(model: "qwen-audio-4.0-realtime-preview", turnDetection: "duplex", delegation: "responses"),
        Update(eventID: nil, keyword: "required"),
        Update(eventID: "", keyword: "minLength"),
        Update(eventID: String(repeating: "e", count: 129), keyword: "maxLength"),
        Update(model: nil, keyword: "required"),
        Update(model: "qwen-audio-3.1-live", keyword: "enum"),
        Update(delegation: nil, keyword: "required"),
        Update(turnDetection: "duplex", keyword: "const"),
    ])
    func theSessionUpdateSchemaHoldsTheDocumentedRules(update: Update) throws {
        let failures = try #require(
            RepositoryFiles.schemas.validate(
                update.event, protocolName: Self.live.rawValue, side: "client",
                type: QwenAudioLiveClientEvent.sessionUpdate.rawValue))
        // The failures' text names each failing keyword (this target does not import JSONSchema).
        let text = String(describing: failures)
        if update.keyword.isEmpty {
            #expect(failures.isEmpty, "\(text)")
        } else {
            #expect(failures.count == 1 && text.contains(update.keyword), "\(text)")
        }
    }

    /// A Live case names the service model of the URL, never a frontend model.
    @Test func lintRefusesAFrontendModelAsACaseModel() throws {
        let path = "conformance/suites/qwen-audio-live/cases/connect/qal.connect.001.json"
        var files = RepositoryFiles.files
        guard case .object(var object) = try JSONValue.decode(try #require(files.files[path])) else {
            throw SchemaTestError()
        }
        object["model"] = .string("qwen-audio-4.0-realtime-preview")
        files.files[path] = JSONValue.object(object).encoded()
        let errors = SuiteLinter(files: files).errors().map(\.description).filter { $0.hasPrefix(path) }
        #expect(errors.contains { $0.contains("is not a Qwen-Audio-Live service model") }, "\(errors)")
        object["model"] = .string(QwenAudioLive.serviceModel)
        files.files[path] = JSONValue.object(object).encoded()
        #expect(SuiteLinter(files: files).errors().filter { $0.description.hasPrefix(path) }.isEmpty)
    }
}

private struct SchemaTestError: Error {}
