import ProtocolModel
import WireSocket

/// Which protocol a WebSocket path asks for, and which conformance case, if any
/// (``DialogProtocol/route(_:)``: the service path, or `/case/<case-id>` before it, each with an
/// optional trailing `/`; case ids may contain `/`).
struct ProtocolRoute: Equatable {
    typealias Kind = DialogProtocol

    let kind: Kind
    let caseID: String?

    init(kind: Kind, caseID: String?) {
        self.kind = kind
        self.caseID = caseID
    }

    init?(path: String, model: String? = nil) {
        guard let route = DialogProtocol.route(path, model: model) else { return nil }
        self.init(kind: route.protocol, caseID: route.caseID)
    }

    /// The route of an upgrade request: its path, and its `model` query parameter where a
    /// protocol is chosen by model (``DialogProtocol/route(_:model:)``).
    init?(_ request: HTTPRequestHead) {
        let model = request.queryItems.first { $0.name == "model" }?.value
        self.init(path: request.path, model: model)
    }
}
