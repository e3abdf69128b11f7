package import WireJSON

/// Qwen-Audio-Live: `session.*` events of the OpenAI Live family on `/api-ws/v1/live`, and on the
/// realtime path when the URL's model is a live model (the Qwen engine's `AudioLive` dialect).
package struct QwenAudioLiveDescriptor: ProtocolDescriptor {
    package init() {}

    package var servicePath: String { QwenAudioLive.livePath }
    /// The realtime path serves the dialect too, chosen by the URL's model.
    package var modelRoutedPath: String? { QwenRealtimeDescriptor().servicePath }
    package func claims(model: String) -> Bool { QwenAudioLive.isServiceModel(model) }
    package var defaultModel: String? { QwenAudioLive.serviceModel }
    package var obligationPrefix: String { "qal" }
    package var connectObligation: String { "qal.C1" }
    package var audioFormatObligation: String { "qal.C6" }
    package var uplinkAudioSource: String { "base64" }

    package func query(model: String?) -> String { model.map { "?model=" + $0 } ?? "" }

    /// The case's model, else the run's when it is a live model, else the documented one.
    package func clientModel(caseModel: String?, runModel: String) -> String {
        caseModel ?? (claims(model: runModel) ? runModel : QwenAudioLive.serviceModel)
    }

    package func clientMessageName(of frame: JSONValue?) -> String? { frame?["type"]?.stringValue }

    package func serverMessageName(of frame: JSONValue?) -> String? { frame?["type"]?.stringValue }

    package var errorFrameNeedsTaskID: Bool { false }
    package var notJSONFirstFrameEndsTheSession: Bool { false }

    /// An `error` event (the OpenAI Live shape, inferred: `error{code, message}`).
    package func errorFrame(code: String, message: String, taskID: String?) -> JSONValue {
        [
            "event_id": "event_mock_error", "type": .string(QwenAudioLiveServerEvent.error.rawValue),
            "error": ["code": .string(code), "message": .string(message)],
        ]
    }
}
