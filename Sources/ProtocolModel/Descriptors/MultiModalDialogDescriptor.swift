package import WireJSON

/// Alibaba Model Studio's multimodal dialog: the DashScope run-task envelope, PCM or Opus
/// uplink in binary frames, directives and dialog events in `payload`.
package struct MultiModalDialogDescriptor: ProtocolDescriptor {
    package init() {}

    /// The model Start names (mmd.C3): the protocol's own name.
    package static let model = DialogProtocol.multimodalDialog.rawValue

    package var servicePath: String { "/api-ws/v1/inference" }
    package var modelRoutedPath: String? { nil }
    package func claims(model: String) -> Bool { false }
    package var defaultModel: String? { nil }
    package var obligationPrefix: String { "mmd" }
    package var connectObligation: String { "mmd.C1" }
    package var audioFormatObligation: String { "mmd.C9" }
    package var uplinkAudioSource: String { "binary" }

    package func query(model: String?) -> String { "" }

    /// Start carries model `multimodal-dialog` (mmd.C3) unless the case names another.
    package func clientModel(caseModel: String?, runModel: String) -> String {
        caseModel ?? Self.model
    }

    package func clientMessageName(of frame: JSONValue?) -> String? {
        DashScopeEnvelope.clientMessageName(of: frame)
    }

    package func serverMessageName(of frame: JSONValue?) -> String? {
        DashScopeEnvelope.serverMessageName(of: frame)
    }

    package var errorFrameNeedsTaskID: Bool { true }
    package var notJSONFirstFrameEndsTheSession: Bool { true }

    /// `task-failed` under the client's task id (empty when it sent none).
    package func errorFrame(code: String, message: String, taskID: String?) -> JSONValue {
        DashScopeEnvelope.serverFrame(
            .taskFailed, taskID: taskID ?? "",
            header: ["error_code": .string(code), "error_message": .string(message)])
    }
}
