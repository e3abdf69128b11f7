/// Which protocol a WebSocket path asks for, and which conformance case, if any.
///
/// `/api-ws/v1/inference[/]` and `/case/<case-id>/api-ws/v1/inference[/]` → multimodal dialog;
/// `/api-ws/v1/realtime[/]` and `/case/<case-id>/api-ws/v1/realtime[/]` → Qwen realtime.
/// Case ids may contain `/` (matrix variants: `<case-id>/<variant>`).
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
        if rest.hasPrefix("/case/") {
            rest = rest.dropFirst("/case".count)
            guard let api = rest.firstRange(of: "/api-ws/") else { return nil }
            let id = rest[rest.index(after: rest.startIndex)..<api.lowerBound]
            guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || "._-/".contains($0) }) else { return nil }
            caseID = String(id)
            rest = rest[api.lowerBound...]
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
