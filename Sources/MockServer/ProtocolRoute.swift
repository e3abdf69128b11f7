import SessionCore

/// Which protocol a WebSocket path asks for, and which conformance case, if any.
///
/// `/api-ws/v1/inference[/]` and `/case/<case-id>/api-ws/v1/inference[/]` → multimodal dialog;
/// `/api-ws/v1/realtime[/]` and `/case/<case-id>/api-ws/v1/realtime[/]` → Qwen realtime.
/// Case ids may contain `/` (``CaseRoute``: matrix variants, repeated runs).
struct ProtocolRoute: Equatable {
    enum Kind: String {
        case multimodalDialog = "multimodal-dialog"
        case qwenRealtime = "qwen-realtime"
    }

    let kind: Kind
    let caseID: String?

    init(kind: Kind, caseID: String?) {
        self.kind = kind
        self.caseID = caseID
    }

    init?(path: String) {
        var rest = Substring(path)
        var caseID: String?
        if rest.hasPrefix(CaseRoute.prefix) {
            guard let route = CaseRoute.split(rest) else { return nil }
            caseID = String(route.caseID)
            rest = route.servicePath
        }
        if rest.hasSuffix("/") && rest.count > 1 { rest = rest.dropLast() }
        switch rest {
        case "/api-ws/v1/inference": kind = .multimodalDialog
        case "/api-ws/v1/realtime": kind = .qwenRealtime
        default: return nil
        }
        self.caseID = caseID
    }
}
