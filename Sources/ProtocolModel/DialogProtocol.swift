/// The two protocols the mock serves, by the names the command line, reports and suite files use,
/// with the WebSocket path each is served on.
package enum DialogProtocol: String, Sendable, Hashable, CaseIterable {
    /// Alibaba Model Studio's multimodal dialog: the DashScope run-task envelope.
    case multimodalDialog = "multimodal-dialog"
    /// Qwen realtime: OpenAI-realtime-style events.
    case qwenRealtime = "qwen-realtime"

    /// The real service's host (DashScope, mainland China region).
    package static let serviceHost = "wss://dashscope.aliyuncs.com"

    /// The service path (§2.1 of each protocol reference). Qwen realtime adds `?model=<model>`.
    package var servicePath: String {
        switch self {
        case .multimodalDialog: "/api-ws/v1/inference"
        case .qwenRealtime: "/api-ws/v1/realtime"
        }
    }

    /// The client obligation a refused connect breaks (C1 of each protocol: the endpoint, the
    /// API key, Qwen's model): engines journal their upgrade refusals under it, and the mock's
    /// refusal log files every refusal on this protocol's path under it.
    package var connectObligation: String {
        switch self {
        case .multimodalDialog: "mmd.C1"
        case .qwenRealtime: "qrt.C1"
        }
    }

    /// The client obligation on the uplink audio's format (raw audio in the declared codec,
    /// rate and channels): the mock and the harness file a rate mislabel under it.
    package var audioFormatObligation: String {
        switch self {
        case .multimodalDialog: "mmd.C9"
        case .qwenRealtime: "qrt.C8"
        }
    }

    /// The path a client connects to: the service path, behind `/case/<case-id>` for a
    /// conformance case, with `?model=` for Qwen realtime when `model` is given.
    package func path(caseID: String? = nil, model: String? = nil) -> String {
        var path = servicePath
        if let caseID { path = CaseRoute.prefix + caseID + path }
        if self == .qwenRealtime, let model { path += "?model=" + model }
        return path
    }

    /// The protocol and case id a request path asks for (``CaseRoute/match(_:service:)``), or nil.
    package static func route(_ path: String) -> (protocol: DialogProtocol, caseID: String?)? {
        for candidate in allCases {
            if let match = CaseRoute.match(Substring(path), service: candidate.servicePath) {
                return (candidate, match.caseID.map(String.init))
            }
        }
        return nil
    }
}
