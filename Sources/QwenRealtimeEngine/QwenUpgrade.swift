import ProtocolModel
package import SessionCore
import WireJSON

/// Upgrade checks of S1: path, `Authorization: Bearer`, API key list, `model` query parameter.
///
/// Order: path (404), then authentication (401, checked during the handshake as DashScope
/// does), then the model (400). Bodies follow DashScope's HTTP error shape `{code, message}`.
package enum QwenUpgrade {
    /// The realtime path without the optional `/case/<case-id>` prefix.
    private static let realtimePath = DialogProtocol.qwenRealtime.servicePath

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
        guard CaseRoute.match(Substring(path), service: realtimePath) != nil else {
            return reject(404, "NotFound", "No realtime endpoint at \(path); use \(realtimePath)?model=<model>.")
        }
        guard let authorization = headers["authorization"]?.trimmingSpaces, !authorization.isEmpty else {
            return reject(401, "InvalidApiKey", "No API-key provided.")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].trimmingSpaces.isEmpty else {
            return reject(401, "InvalidApiKey", "Authorization must be 'Bearer <api-key>'.")
        }
        let key = parts[1].trimmingSpaces
        guard apiKeys.isEmpty || apiKeys.contains(key) else {
            return reject(401, "InvalidApiKey", "Invalid API-key provided.")
        }
        guard let model = queryModel, !model.isEmpty else {
            return reject(400, "InvalidParameter", "Missing required query parameter: model.")
        }
        guard let profile = QwenProfile(model: model) else {
            let name = model.lowercased()
            if name.hasPrefix("qwen3-tts-vc-") || name.hasPrefix("qwen3-tts-vd-") {
                return reject(
                    400, "InvalidParameter",
                    "\(model) speaks custom (cloned or designed) voices only: the mock does not emulate it "
                        + "(realtime models it serves: \(QwenProfile.servedModels)).")
            }
            if name.contains("livetranslate") {
                return reject(
                    400, "InvalidParameter",
                    "\(model) is a Qwen LiveTranslate model: the mock does not emulate LiveTranslate "
                        + "(realtime models it serves: \(QwenProfile.servedModels)).")
            }
            return reject(
                400, "InvalidParameter",
                "Model not supported by the realtime endpoint: \(model) (the mock serves \(QwenProfile.servedModels)).")
        }
        return .accept(QwenAcceptance(profile: profile, model: model))
    }

    /// The case id of a `/case/<case-id>/api-ws/v1/realtime` path, else `nil`.
    package static func caseID(inPath path: String) -> String? {
        CaseRoute.match(Substring(path), service: realtimePath)?.caseID.map(String.init)
    }

    private static func reject(_ status: Int, _ code: String, _ message: String) -> UpgradeVerdict<QwenAcceptance> {
        .reject(
            status: status, body: ["code": .string(code), "message": .string(message)],
            obligation: DialogProtocol.qwenRealtime.connectObligation)
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
