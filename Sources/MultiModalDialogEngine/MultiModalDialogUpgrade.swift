import ProtocolModel
package import SessionCore
import WireJSON

/// S1: which upgrade requests reach a multimodal dialog session.
package enum MultiModalDialogUpgrade {
    /// The client obligation every refusal enforces (endpoint and authentication).
    package static let obligation = DialogProtocol.multimodalDialog.connectObligation

    /// Whether `path` is `/api-ws/v1/inference` or `/case/<case-id>/api-ws/v1/inference`, each
    /// with an optional trailing `/`; query strings are ignored.
    package static func matches(path: String) -> Bool {
        CaseRoute.match(Substring(path), service: DialogProtocol.multimodalDialog.servicePath) != nil
    }

    /// The case id of a `/case/<case-id>/…` path, or nil.
    package static func caseID(path: String) -> String? {
        CaseRoute.match(Substring(path), service: DialogProtocol.multimodalDialog.servicePath)?.caseID.map(String.init)
    }

    /// Checks the path and the `Authorization` header.
    /// - Parameters:
    ///   - path: The request path.
    ///   - headers: Request headers, names lower-cased.
    ///   - apiKeys: Accepted keys; empty accepts any non-empty credential.
    ///   - requestID: The `request_id` to put in a refusal body.
    /// - Returns: `.accept` with a C1 note for the bare form, else 404 for a foreign path or 401
    ///   with `code: "InvalidApiKey"` for a missing or unknown key.
    package static func check(
        path: String, headers: [String: String], apiKeys: Set<String>,
        requestID: String = "00000000-0000-4000-8000-000000000000"
    ) -> UpgradeVerdict<[JournalNote]> {
        guard matches(path: path) else {
            return .reject(
                status: 404, body: body(requestID, code: "NotFound", "no multimodal dialog endpoint at \(path)"),
                obligation: obligation)
        }
        let raw = (headers["authorization"] ?? "").trimmingSpaces
        guard !raw.isEmpty else {
            return .reject(
                status: 401, body: body(requestID, code: "InvalidApiKey", "missing Authorization header"),
                obligation: obligation)
        }
        let isBearer = raw.lowercased().hasPrefix("bearer ")
        let credential = isBearer ? String(raw.dropFirst(7)).trimmingSpaces : raw
        guard !credential.isEmpty, apiKeys.isEmpty || apiKeys.contains(credential) else {
            return .reject(
                status: 401, body: body(requestID, code: "InvalidApiKey", "Invalid API-key provided."),
                obligation: obligation)
        }
        if isBearer { return .accept([]) }
        return .accept([.should(obligation, "Authorization header without the \"Bearer \" prefix")])
    }

    private static func body(_ requestID: String, code: String, _ message: String) -> JSONValue {
        ["request_id": .string(requestID), "code": .string(code), "message": .string(message)]
    }
}
