import MockServer
import MockSessions
import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

/// A minimal protocol double for driver tests: `{"type":"say","text":T,"count":N}` answers with
/// N `{"type":"said","n":i,"text":T}` frames 10 ms apart; `{"type":"bytes","count":N}` answers
/// with one binary frame of N bytes. Everything goes through the scenario's fault stage.
final class ChatterSession: ProtocolSession {
    let scenario: ScenarioBridge<MonotonicScenarioClock>
    private var closedCode: Int?

    init(scenario: Scenario, seed: UInt64? = nil) {
        self.scenario = ScenarioBridge(
            runtime: ScenarioRuntime(scenario: scenario, clock: MonotonicScenarioClock(), seed: seed))
        // The double is no real protocol: it has none of their timeouts (the multimodal 60 s
        // server silence once ended a test whose task the CI machine held for a minute).
        self.scenario.runtime.policyWatches = [.idleEnd]
    }

    func open() -> [SessionCommand] {
        handle(scenario.runtime.start()) + send(frame(["type": "hello"], at: scenario.now))
    }

    func classify(text bytes: [UInt8]) -> InboundClassification {
        let json = try? JSONValue.decode(bytes)
        return InboundClassification(eventType: json?["type"]?.stringValue, json: json)
    }

    func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        let type = classification.eventType ?? ""
        var commands = handle(scenario.runtime.clientMessage(type: type, json: classification.json))
        let now = scenario.now
        switch type {
        case "say":
            let count = classification.json?["count"]?.intValue ?? 1
            let text = classification.json?["text"] ?? ""
            for index in 0..<count {
                commands += send(frame(["type": "said", "n": .int(index), "text": text], at: now + index * 10_000))
            }
        case "bytes":
            let count = Int(classification.json?["count"]?.intValue ?? 1)
            commands += send(
                OutboundFrame(
                    eventType: nil, isText: false, bytes: [UInt8](repeating: 7, count: count), dueAtMicros: now))
        case "state":
            let state = classification.json?["state"]?.stringValue ?? ""
            commands.append(.journal(.state(state)))
            commands += handle(scenario.runtime.stateEntered(state))
        default:
            commands.append(.journal(.violation(obligation: "test.C1", message: "unknown type \(type)")))
        }
        return commands
    }

    func receive(binary bytes: [UInt8]) -> [SessionCommand] {
        handle(
            scenario.runtime.clientAudio(
                byteCount: bytes.count, durationMicros: Int64(bytes.count) * 1_000_000 / 32_000))
    }

    func engineTimerFired(_ name: String) -> [SessionCommand] { [] }

    func closed(peerCode: Int?) { closedCode = peerCode }

    func render(_ request: FaultRequest, atMicros: Int64) -> [OutboundFrame] {
        switch request {
        case .unknownEvent(let type, _): [frame(["type": .string(type)], at: atMicros)]
        case .injectError(let error):
            [frame(["type": "error", "code": .string(error.code), "message": .string(error.message)], at: atMicros)]
        }
    }

    func endSession(_ reason: SessionEnd) -> [SessionCommand] {
        send(frame(["type": "ended", "reason": .string("\(reason)")], at: scenario.now))
            + handle(scenario.runtime.close())
            + [.transport(.close(code: 1000, reason: "ended"), atMicros: scenario.now)]
    }

    func scripted(_ frame: ScriptedFrame, atMicros: Int64) -> OutboundFrame? {
        switch frame {
        case .json(let value): self.frame(value, at: atMicros)
        case .text(let text):
            OutboundFrame(eventType: nil, isText: true, bytes: Array(text.utf8), dueAtMicros: atMicros)
        case .synthesizedAudio(let length, _):
            OutboundFrame(
                eventType: nil, isText: false, bytes: [UInt8](repeating: 0, count: length), dueAtMicros: atMicros)
        case .close: nil
        }
    }

    private func frame(_ value: JSONValue, at time: Int64) -> OutboundFrame {
        OutboundFrame(
            eventType: value["type"]?.stringValue, isText: true, bytes: value.encoded(), dueAtMicros: time, json: value)
    }
}
