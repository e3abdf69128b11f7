import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireJSON

/// The smallest protocol: scripted frames go out as they are, a fault's request becomes one
/// `{"type":"error"}` frame, and a scenario end closes with 1000 and the reason. For tests of
/// what SessionCore and the runner do for every engine.
package final class ScriptOnlySession: ProtocolSession {
    package let scenario: ScenarioBridge<ManualClock>
    package private(set) var engineTimers: [String] = []
    package private(set) var ends: [SessionEnd] = []

    package init(_ scenario: Scenario, clock: ManualClock) {
        self.scenario = ScenarioBridge(runtime: ScenarioRuntime(scenario: scenario, clock: clock))
        // A protocol with no timeouts of its own: only the idle end, when a scenario sets one.
        self.scenario.runtime.policyWatches = [.idleEnd]
    }

    package func open() -> [SessionCommand] { handle(scenario.runtime.start()) }
    package func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        handle(scenario.runtime.clientMessage(type: classification.eventType ?? "", json: classification.json))
    }
    package func receive(binary bytes: [UInt8]) -> [SessionCommand] { [] }
    package func engineTimerFired(_ name: String) -> [SessionCommand] {
        engineTimers.append(name)
        return []
    }
    package func closed(peerCode: Int?) {}
    package func classify(text bytes: [UInt8]) -> InboundClassification {
        let json = try? JSONValue.decode(bytes)
        return InboundClassification(eventType: MessageName.ofClientFrame(json), json: json)
    }
    package func render(_ request: FaultRequest, atMicros: Int64) -> [OutboundFrame] {
        let json: JSONValue = ["type": "error"]
        return [
            OutboundFrame(eventType: "error", isText: true, bytes: json.encoded(), dueAtMicros: atMicros, json: json)
        ]
    }
    package func endSession(_ reason: SessionEnd) -> [SessionCommand] {
        ends.append(reason)
        return [.transport(.close(code: 1000, reason: "\(reason)"), atMicros: scenario.now)]
    }
    package func scripted(_ frame: ScriptedFrame, atMicros: Int64) -> OutboundFrame? {
        guard case .json(let json) = frame else { return nil }
        return OutboundFrame(
            eventType: MessageName.ofServerFrame(json), isText: true, bytes: json.encoded(), dueAtMicros: atMicros,
            json: json)
    }
}
