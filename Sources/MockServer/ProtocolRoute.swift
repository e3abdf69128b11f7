import MultiModalDialogEngine
import QwenRealtimeEngine
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
        if let match = CaseRoute.match(Substring(path), service: MultiModalDialogUpgrade.servicePath) {
            self.init(kind: .multimodalDialog, caseID: match.caseID.map(String.init))
        } else if let match = CaseRoute.match(Substring(path), service: QwenUpgrade.realtimePath) {
            self.init(kind: .qwenRealtime, caseID: match.caseID.map(String.init))
        } else {
            return nil
        }
    }
}
