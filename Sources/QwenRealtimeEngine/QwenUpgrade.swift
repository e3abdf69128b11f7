import ProtocolModel
package import SessionCore
import WireJSON

/// Upgrade checks of S1: path, `Authorization: Bearer`, API key list, `model` query parameter.
///
/// Order: path (404), then authentication (401, checked during the handshake as DashScope
/// does), then the model (400). Bodies follow DashScope's HTTP error shape `{code, message}`.
/// The path and the model pick the protocol (``DialogProtocol/route(_:model:)``: the realtime
/// path, or a dialect's own path such as Qwen-Audio-Live's); a refusal breaks that protocol's
/// connect obligation.
package enum QwenUpgrade {
    /// The realtime path without the optional `/case/<case-id>` prefix.
    private static let realtimePath = DialogProtocol.qwenRealtime.servicePath
    /// The protocols the registered dialects speak (their ``DialectWire/dialogProtocol``).
    private static let servedProtocols = Set(QwenDialects.standard.all.map(\.wire.dialogProtocol))

    /// Checks an upgrade request.
    /// - Parameters:
    ///   - path: The request path without the query (`/api-ws/v1/realtime` or
    ///     `/case/<case-id>/api-ws/v1/realtime`).
    ///   - queryModel: The `model` query parameter, `nil` when absent.
    ///   - headers: Request headers with lower-cased names.
    ///   - apiKeys: Accepted keys; empty accepts any non-empty bearer token.
    package static func check(
        path: String, queryModel: String?, headers: [String: String], apiKeys: [String]
    ) -> UpgradeVerdict<QwenAcceptance> {
        guard let routed = DialogProtocol.route(path, model: queryModel)?.protocol, servedProtocols.contains(routed)
        else {
            return reject(
                404, "NotFound", "No realtime endpoint at \(path); use \(realtimePath)?model=<model>.",
                DialogProtocol.qwenRealtime.connectObligation)
        }
        let refuse = { (status: Int, code: String, message: String) in
            reject(status, code, message, routed.connectObligation)
        }
        guard let authorization = headers["authorization"]?.trimmingSpaces, !authorization.isEmpty else {
            return refuse(401, "InvalidApiKey", "No API-key provided.")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].trimmingSpaces.isEmpty else {
            return refuse(401, "InvalidApiKey", "Authorization must be 'Bearer <api-key>'.")
        }
        let key = parts[1].trimmingSpaces
        guard apiKeys.isEmpty || apiKeys.contains(key) else {
            return refuse(401, "InvalidApiKey", "Invalid API-key provided.")
        }
        guard let model = queryModel.flatMap({ $0.isEmpty ? nil : $0 }) ?? modelWhenQueryOmitted(on: routed) else {
            return refuse(400, "InvalidParameter", "Missing required query parameter: model.")
        }
        guard let dialect = QwenDialects.standard.dialect(forModel: model) else {
            let name = model.lowercased()
            if name.hasPrefix("qwen3-tts-vc-") || name.hasPrefix("qwen3-tts-vd-") {
                return refuse(
                    400, "InvalidParameter",
                    "\(model) speaks custom (cloned or designed) voices only: the mock does not emulate it "
                        + "(realtime models it serves: \(QwenProfile.servedModels)).")
            }
            if name.contains("livetranslate") {
                return refuse(
                    400, "InvalidParameter",
                    "\(model) is a Qwen LiveTranslate model: the mock does not emulate LiveTranslate "
                        + "(realtime models it serves: \(QwenProfile.servedModels)).")
            }
            return refuse(
                400, "InvalidParameter",
                "Model not supported by the realtime endpoint: \(model) (the mock serves \(QwenProfile.servedModels)).")
        }
        guard dialect.wire.dialogProtocol == routed else {
            return refuse(400, "InvalidParameter", "\(model) is not served at \(path).")
        }
        return .accept(QwenAcceptance(profile: dialect.profile, model: model))
    }

    /// The model a missing `model` query names on `routed`'s path (Qwen-Audio-Live's service
    /// model), or nil when the query is required.
    private static func modelWhenQueryOmitted(on routed: DialogProtocol) -> String? {
        QwenDialects.standard.all.lazy.filter { $0.wire.dialogProtocol == routed }
            .compactMap(\.wire.modelWhenQueryOmitted).first
    }

    /// The case id of a `/case/<case-id>/api-ws/v1/realtime` path (or of another path the
    /// registered dialects serve), else `nil`.
    package static func caseID(inPath path: String) -> String? {
        guard let route = DialogProtocol.route(path), servedProtocols.contains(route.protocol) else { return nil }
        return route.caseID
    }

    private static func reject(
        _ status: Int, _ code: String, _ message: String, _ obligation: String
    ) -> UpgradeVerdict<QwenAcceptance> {
        .reject(status: status, body: ["code": .string(code), "message": .string(message)], obligation: obligation)
    }
}

/// What an accepted Qwen realtime upgrade opens: the profile the model belongs to.
package struct QwenAcceptance: Sendable, Hashable {
    package var profile: QwenProfile
    package var model: String

    package init(profile: QwenProfile, model: String) {
        self.profile = profile
        self.model = model
    }
}
