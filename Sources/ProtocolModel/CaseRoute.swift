/// Conformance case routes: `/case/<case-id>/api-ws/…` serves the protocol at `/api-ws/…` with
/// the case's scenario. A case id is letters, digits and `._-`, in parts joined by `/` (a matrix
/// variant `mmd.audio.002/opus`, a repeated run `qrt.session.001/repeat-3`). The one parser of
/// these paths: the router and both engines' upgrade checks use it.
package enum CaseRoute {
    /// What every case route starts with.
    package static let prefix = "/case/"

    /// The case id and the service path (from `/api-ws/` on) of a case route, or nil when `path`
    /// is not one (no prefix, no `/api-ws/`, an empty id or a character ids do not have).
    package static func split(_ path: Substring) -> (caseID: Substring, servicePath: Substring)? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let api = rest.firstRange(of: "/api-ws/") else { return nil }
        let id = rest[..<api.lowerBound]
        guard isCaseID(id) else { return nil }
        return (id, rest[api.lowerBound...])
    }

    /// A request path that names a service: the plain service path or a case route to it.
    package struct Match: Equatable, Sendable {
        /// The case id of a case route; nil for the plain service path.
        package var caseID: Substring?
    }

    /// Whether `path` is `service` or `/case/<id>` + `service`, each with an optional trailing
    /// `/`, a query ignored (`/api-ws/v1/realtime/?model=x` is the realtime service). The one
    /// path rule of the router and both engines' upgrade checks.
    package static func match(_ path: Substring, service: String) -> Match? {
        var trimmed = path.prefix { $0 != "?" }
        if trimmed.hasSuffix("/"), trimmed.count > 1 { trimmed = trimmed.dropLast() }
        if trimmed == service { return Match(caseID: nil) }
        guard let route = split(trimmed), route.servicePath == service else { return nil }
        return Match(caseID: route.caseID)
    }

    /// Whether `id` is a well-formed case id (parts of letters, digits and `._-` joined by `/`).
    package static func isCaseID(_ id: Substring) -> Bool {
        !id.isEmpty && !id.hasPrefix("/") && !id.hasSuffix("/") && !id.contains("//")
            && id.allSatisfy { $0.isLetter || $0.isNumber || "._-/".contains($0) }
    }
}
