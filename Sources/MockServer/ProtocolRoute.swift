import ProtocolModel

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

    init?(path: String) {
        guard let route = DialogProtocol.route(path) else { return nil }
        self.init(kind: route.protocol, caseID: route.caseID)
    }
}
