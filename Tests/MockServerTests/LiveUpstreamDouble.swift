import MockSessions
import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON
import WireSocket

@testable import MockServer

/// A Qwen-Audio-Live service double for proxy tests (no engine): `session.created` names the
/// path and query it was reached on (`session.url`), `session.update` is answered by
/// `session.updated` with its `client_event_id`, one `session.input_audio.append` by one
/// `session.output_audio.delta`, and `session.close` by `session.closed` and close 1000.
final class LiveUpstreamDouble: ProtocolSession {
    let scenario: ScenarioBridge<MonotonicScenarioClock>
    /// The request target the double was reached on.
    private let url: String

    init(scenario: Scenario, url: String) {
        self.scenario = ScenarioBridge(runtime: ScenarioRuntime(scenario: scenario, clock: MonotonicScenarioClock()))
        self.scenario.runtime.policyWatches = [.idleEnd]
        self.url = url
    }

    /// Serves the double on the live path and on the realtime path of `server` (started after);
    /// an upgrade without `Authorization` is refused with 401 as the service does.
    static func serve(on server: MockServer) {
        let router = server.router
        for path in [QwenAudioLive.livePath, DialogProtocol.qwenRealtime.servicePath] {
            router.extraRoutes[path] = { [unowned router] head in
                guard head.header("authorization") != nil else {
                    return router.refuse(
                        head, status: 401, body: ["code": "InvalidApiKey", "message": "No API-key provided."])
                }
                let url = head.queryItems.isEmpty ? head.path : head.path + "?" + head.query
                return router.startSession(
                    LiveUpstreamDouble(scenario: router.scenarios.current, url: url),
                    protocolName: DialogProtocol.qwenAudioLive.rawValue, request: head, maxMessageBytes: 1 << 20)
            }
        }
    }

    func open() -> [SessionCommand] {
        handle(scenario.runtime.start())
            + event(
                .sessionCreated, ["session": ["id": "sess_double", "object": "realtime.session", "url": .string(url)]])
    }

    func classify(text bytes: [UInt8]) -> InboundClassification {
        let json = try? JSONValue.decode(bytes)
        return InboundClassification(eventType: json?["type"]?.stringValue, json: json)
    }

    func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        let json = classification.json
        var commands = handle(scenario.runtime.clientMessage(type: classification.eventType ?? "", json: json))
        switch classification.eventType.flatMap(QwenAudioLiveClientEvent.init(rawValue:)) {
        case .sessionUpdate:
            commands += event(
                .sessionUpdated, ["client_event_id": json?["event_id"] ?? .null, "session": json?["session"] ?? [:]])
        case .inputAudioAppend:
            commands += event(.outputAudioDelta, ["delta": json?["audio"] ?? ""])
        case .sessionClose:
            commands +=
                event(.sessionClosed, ["reason": .string(QwenAudioLiveCloseReason.closeRequested.rawValue)])
                + [.transport(.close(code: 1000, reason: "closed"), atMicros: scenario.now)]
        default:
            commands += event(.error, ["error": ["code": "invalid_request_error", "message": "unexpected event"]])
        }
        return commands
    }

    func receive(binary bytes: [UInt8]) -> [SessionCommand] { [] }

    func engineTimerFired(_ name: String) -> [SessionCommand] { [] }

    func closed(peerCode: Int?) {}

    func render(_ request: FaultRequest, atMicros: Int64) -> [OutboundFrame] { [] }

    func endSession(_ reason: SessionEnd) -> [SessionCommand] {
        handle(scenario.runtime.close()) + [.transport(.close(code: 1000, reason: "ended"), atMicros: scenario.now)]
    }

    func scripted(_ frame: ScriptedFrame, atMicros: Int64) -> OutboundFrame? { nil }

    private func event(_ type: QwenAudioLiveServerEvent, _ fields: JSONObject) -> [SessionCommand] {
        var object: JSONObject = ["event_id": "event_double", "type": .string(type.rawValue)]
        for (key, value) in fields { object[key] = value }
        let value = JSONValue.object(object)
        return send(
            OutboundFrame(
                eventType: type.rawValue, isText: true, bytes: value.encoded(), dueAtMicros: scenario.now, json: value))
    }
}
