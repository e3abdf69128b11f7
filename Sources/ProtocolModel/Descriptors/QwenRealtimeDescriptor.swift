package import WireJSON

/// Qwen realtime: OpenAI-realtime-style JSON events named by `type`, base64 audio in
/// `input_audio_buffer.append`, the model in the URL's query.
package struct QwenRealtimeDescriptor: ProtocolDescriptor {
    package init() {}

    package var servicePath: String { "/api-ws/v1/realtime" }
    package var modelRoutedPath: String? { nil }
    package func claims(model: String) -> Bool { false }
    package var defaultModel: String? { "qwen3-omni-flash-realtime" }
    package var obligationPrefix: String { "qrt" }
    package var connectObligation: String { "qrt.C1" }
    package var audioFormatObligation: String { "qrt.C8" }
    package var uplinkAudioSource: String { "base64" }

    package func query(model: String?) -> String { model.map { "?model=" + $0 } ?? "" }

    /// The dialect is chosen by model name: the case's model, else the run's.
    package func clientModel(caseModel: String?, runModel: String) -> String { caseModel ?? runModel }

    package func clientMessageName(of frame: JSONValue?) -> String? { frame?["type"]?.stringValue }

    package func serverMessageName(of frame: JSONValue?) -> String? { frame?["type"]?.stringValue }

    package var errorFrameNeedsTaskID: Bool { false }
    package var notJSONFirstFrameEndsTheSession: Bool { false }

    /// An `error` event of type `server_error`.
    package func errorFrame(code: String, message: String, taskID: String?) -> JSONValue {
        [
            "event_id": "event_mock_error", "type": .string(QwenServerEvent.error.rawValue),
            "error": ["type": "server_error", "code": .string(code), "message": .string(message)],
        ]
    }
}
