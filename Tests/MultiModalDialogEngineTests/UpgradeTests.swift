import MultiModalDialogEngine
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

@Suite("S1 upgrade checks")
struct UpgradeTests {
    typealias Session = MultiModalDialogSession<ManualClock>

    @Test(
        "S1: both service paths, with and without a trailing slash, are accepted with a Bearer key",
        arguments: [
            "/api-ws/v1/inference", "/api-ws/v1/inference/", "/case/mmd.start.001/api-ws/v1/inference",
            "/case/x/api-ws/v1/inference/",
        ])
    func acceptedPaths(_ path: String) {
        #expect(Session.checkUpgrade(path: path, headers: ["authorization": "Bearer sk-1"], apiKeys: []) == .accept([]))
    }

    @Test(
        "S1: foreign paths are not served",
        arguments: ["/api-ws/v1/inference/x", "/case//api-ws/v1/inference", "/api/v1/inference", "/"])
    func foreignPaths(_ path: String) {
        guard
            case .reject(let status, _, _) = Session.checkUpgrade(
                path: path, headers: ["authorization": "Bearer sk-1"], apiKeys: [])
        else {
            Issue.record("accepted \(path)")
            return
        }
        #expect(status == 404)
    }

    @Test("S1: a bare key is accepted with a C1 note; missing or unknown keys get 401 InvalidApiKey")
    func authorization() throws {
        let bare = Session.checkUpgrade(
            path: "/api-ws/v1/inference", headers: ["authorization": "sk-1"], apiKeys: ["sk-1"])
        guard case .accept(let notes) = bare, case .violation(let id, _)? = notes.first else {
            Issue.record("bare key refused")
            return
        }
        #expect(id == "mmd.C1")
        for headers in [[:], ["authorization": "Bearer "], ["authorization": "Bearer sk-2"]] as [[String: String]] {
            guard
                case .reject(let status, let body, _) = Session.checkUpgrade(
                    path: "/api-ws/v1/inference", headers: headers, apiKeys: ["sk-1"])
            else {
                Issue.record("accepted \(headers)")
                continue
            }
            #expect(status == 401)
            #expect(body["code"] == "InvalidApiKey")
            #expect(body["request_id"]?.stringValue?.isEmpty == false)
            #expect(body["message"]?.stringValue?.isEmpty == false)
        }
        #expect(MultiModalDialogUpgrade.caseID(path: "/case/mmd.start.001/api-ws/v1/inference") == "mmd.start.001")
        #expect(
            MultiModalDialogUpgrade.caseID(path: "/case/mmd.audio.002/opus/repeat-3/api-ws/v1/inference/?x=1")
                == "mmd.audio.002/opus/repeat-3")
        #expect(MultiModalDialogUpgrade.matches(path: "/case/mmd.audio.002/opus/api-ws/v1/inference"))
        #expect(!MultiModalDialogUpgrade.matches(path: "/case/mmd.audio.002//api-ws/v1/inference"))
        #expect(!MultiModalDialogUpgrade.matches(path: "/case/mmd.audio.002/api-ws/v1/realtime"))
    }
}
