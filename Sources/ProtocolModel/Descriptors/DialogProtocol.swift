/// The protocols the mock serves, by the names the command line, reports and suite files use:
/// the one list. Each names its ``ProtocolDescriptor``, which everything asks instead of
/// branching on the protocol.
package enum DialogProtocol: String, Sendable, Hashable, CaseIterable {
    /// Alibaba Model Studio's multimodal dialog: the DashScope run-task envelope.
    case multimodalDialog = "multimodal-dialog"
    /// Qwen realtime: OpenAI-realtime-style events.
    case qwenRealtime = "qwen-realtime"
    /// Qwen-Audio-Live: OpenAI-Live-style `session.*` events (a Qwen realtime dialect whose
    /// events differ, so a protocol of its own to the harness).
    case qwenAudioLive = "qwen-audio-live"

    /// The protocol's facts and rules: the one registration point of a protocol.
    package var descriptor: any ProtocolDescriptor {
        switch self {
        case .multimodalDialog: MultiModalDialogDescriptor()
        case .qwenRealtime: QwenRealtimeDescriptor()
        case .qwenAudioLive: QwenAudioLiveDescriptor()
        }
    }

    /// The real service's host (DashScope, mainland China region).
    package static let serviceHost = "wss://dashscope.aliyuncs.com"

    /// Every protocol name for help and error texts: `a, b or c`.
    package static var namesText: String {
        let names = allCases.map(\.rawValue)
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// The service path (§2.1 of each protocol reference); see ``ProtocolDescriptor/servicePath``.
    package var servicePath: String { descriptor.servicePath }

    /// The client obligation a refused connect breaks (C1 of each protocol): engines journal
    /// their upgrade refusals under it, and the mock's refusal log files every refusal on this
    /// protocol's path under it.
    package var connectObligation: String { descriptor.connectObligation }

    /// The client obligation on the uplink audio's format: the mock and the harness file a rate
    /// mislabel under it.
    package var audioFormatObligation: String { descriptor.audioFormatObligation }

    /// The path a client connects to: the service path, behind `/case/<case-id>` for a
    /// conformance case, with the protocol's model query (Qwen's `?model=`) when `model` is given.
    package func path(caseID: String? = nil, model: String? = nil) -> String {
        var path = servicePath
        if let caseID { path = CaseRoute.prefix + caseID + path }
        return path + descriptor.query(model: model)
    }

    /// The protocol and case id a request path asks for (``CaseRoute/match(_:service:)``), or nil:
    /// a protocol that claims the URL's `model` on a path it shares (``ProtocolDescriptor/
    /// modelRoutedPath``) first, then the path's own protocol. `model` defaults to the path's
    /// `model` query parameter.
    package static func route(_ path: String, model: String? = nil) -> (protocol: DialogProtocol, caseID: String?)? {
        if let model = model ?? queryModel(of: path) {
            for candidate in allCases {
                guard let shared = candidate.descriptor.modelRoutedPath, candidate.descriptor.claims(model: model),
                    let match = CaseRoute.match(Substring(path), service: shared)
                else { continue }
                return (candidate, match.caseID.map(String.init))
            }
        }
        for candidate in allCases {
            if let match = CaseRoute.match(Substring(path), service: candidate.servicePath) {
                return (candidate, match.caseID.map(String.init))
            }
        }
        return nil
    }

    /// The `model` query parameter of a request target, or nil.
    static func queryModel(of target: String) -> String? {
        guard let question = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == "model", !parts[1].isEmpty { return String(parts[1]) }
        }
        return nil
    }
}
