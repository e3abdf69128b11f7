package import MockSessions
import ScenarioEngine
package import WireJSON
import WireSocket

/// The fault routes: `GET/POST/DELETE /_mock/faults…`.
extension ControlAPI {
    /// The faults `?testId=` / `?session=` select (all without either): those armed for that
    /// test id, those armed on that one session (`{"session": S}`).
    func faultFilter(_ query: HTTPRequestHead) -> @Sendable (SessionRegistry.ArmedFault) -> Bool {
        let testID = query.queryItem("testId")
        let session = query.queryItem("session")
        return { fault in
            (testID.map { fault.target == .testID($0) } ?? true)
                && (session.map { fault.target == .session($0) } ?? true)
        }
    }

    func removed(_ faults: [SessionRegistry.ArmedFault]) -> HTTPResponse {
        .json(status: 200, ["status": "removed", "removed": .array(faults.map { .string($0.id) })])
    }

    /// `POST /_mock/faults`: `{"session": ID | "testId": ID, "fault": {…}}`.
    func postFault(_ body: [UInt8]) -> HTTPResponse {
        let request: JSONValue
        do {
            request = try JSONValue.decode(body)
        } catch {
            return .error(400, "InvalidJSON", "request body:\(error.line):\(error.column): \(error.message)")
        }
        guard case .object(let object) = request, let faultValue = object["fault"] else {
            return .error(400, "InvalidRequest", "expected {\"session\": ID or \"testId\": ID, \"fault\": {…}}")
        }
        let fault: FaultSpec
        do {
            fault = try FaultSpec.load(bytes: faultValue.encoded(), file: "fault")
        } catch {
            return .error(400, "InvalidFault", error.description)
        }
        if let id = fault.id, id.isEmpty || id.contains("/") || id.contains("?") {
            return .error(
                400, "InvalidFault",
                "fault.id: a non-empty name without '/' or '?' (it is used in DELETE /_mock/faults/<id>); got \"\(id)\""
            )
        }
        do throws(SessionRegistry.ArmError) {
            switch (object["session"], object["testId"]) {
            case (.string(let id)?, nil):
                let armed = try sessions.arm(fault, json: faultValue, session: id)
                return .json(status: 200, ["status": "armed", "id": .string(armed.id), "session": .string(id)])
            case (nil, .string(let testID)?):
                let armed = try sessions.arm(fault, json: faultValue, testID: testID)
                return .json(
                    status: 200,
                    [
                        "status": "armed", "id": .string(armed.id), "testId": .string(testID),
                        "openSessions": .int(Int64(armed.sessions.count)),
                    ])
            default:
                return .error(
                    400, "InvalidRequest", "give exactly one of \"session\" (a session id) or \"testId\" (a string)")
            }
        } catch {
            switch error {
            case .noOpenSession(let id):
                return .error(404, "NotFound", "no open session \(id)")
            case .duplicateID(let id):
                return .error(
                    409, "Conflict", "a fault with id \(id) is armed already; DELETE /_mock/faults/\(id) first")
            }
        }
    }
}

extension SessionRegistry.ArmedFault {
    /// An entry of `GET /_mock/faults`.
    package var summary: JSONValue {
        var object: JSONObject = ["id": .string(id), "fault": json, "sessions": .array(sessions.map(JSONValue.string))]
        switch target {
        case .session(let session): object["session"] = .string(session)
        case .testID(let testID): object["testId"] = .string(testID)
        }
        return .object(object)
    }
}
