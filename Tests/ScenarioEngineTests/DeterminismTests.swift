import Testing
import WireJSON

@testable import ScenarioEngine

@Suite struct DeterminismTests {
    static let scenarioText = """
        {
          "name": "determinism", "seed": 123, "timeScale": 0.01,
          "timing": { "events": { "*": { "kind": "lognormal", "medianMs": 300, "sigma": 0.4 } }, "jitterMs": 15 },
          "faults": [ { "kind": "drop", "probability": 0.3, "repeat": "every", "match": { "type": "delta" } },
                      { "kind": "reorder", "window": 3, "match": { "binary": true } } ],
          "triggers": [ { "when": { "message": "ping" }, "probability": 0.5, "repeat": "every",
                          "actions": [ { "send": { "type": "pong" }, "delayMs": 5 } ] } ]
        }
        """

    /// Drives one session with a fixed input script and records everything it returns.
    func runScript() throws -> [String] {
        let scenario = try Scenario.load(text: Self.scenarioText, file: "determinism.json")
        let clock = ManualClock(startMicros: 1_000_000)
        var runtime = ScenarioRuntime(scenario: scenario, clock: clock)
        var log: [String] = runtime.start().map { "\($0)" }
        log.append(runtime.ids.uuid())
        for step in 0..<40 {
            clock.advance(byMilliseconds: 20)
            log += runtime.clientMessage(type: step % 3 == 0 ? "ping" : "other", json: nil).map { "\($0)" }
            log += runtime.clientAudio(byteCount: 640, durationMicros: 20_000).map { "\($0)" }
            let delay = runtime.delayMicros(before: "response.created")
            log.append("delay \(delay) id \(runtime.ids.id(prefix: "event_"))")
            let delta = OutboundFrame(
                eventType: "delta", isText: true, bytes: Array("{\"n\":\(step)}".utf8),
                dueAtMicros: clock.nowMicros + delay)
            log += runtime.outbound(delta).emissions.map { "\($0)" }
            let audio = OutboundFrame(eventType: nil, isText: false, bytes: [UInt8(step)], dueAtMicros: clock.nowMicros)
            log += runtime.outbound(audio).emissions.map { "\($0)" }
        }
        log += runtime.close().emissions.map { "\($0)" }
        return log
    }

    @Test func sameInputsGiveIdenticalActionsAndIds() throws {
        let first = try runScript()
        let second = try runScript()
        #expect(first.count > 100)
        #expect(first == second)
    }

    @Test func idGeneratorIsSeededAndWellFormed() {
        var a = IDGenerator(seed: 5)
        var b = IDGenerator(seed: 5)
        let uuid = a.uuid()
        #expect(uuid == b.uuid())
        #expect(uuid.count == 36)
        #expect(uuid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(Array(uuid)[14] == "4")
        #expect("89ab".contains(Array(uuid)[19]))
        let event = a.id(prefix: "event_")
        #expect(event == b.id(prefix: "event_"))
        #expect(event.hasPrefix("event_") && event.count == 30)
        #expect(event.dropFirst(6).allSatisfy { $0.isHexDigit })
        var c = IDGenerator(seed: 6)
        #expect(c.uuid() != uuid)
    }

    /// Ids are each draw's 16 zero-padded hex digits in order, cut to length: the ids recorded
    /// sessions and replays carry must not change with the implementation.
    @Test(arguments: [1, 15, 16, 17, 24, 32, 40])
    func idDigitsAreTheDrawsInHex(_ hexDigits: Int) {
        var ids = IDGenerator(seed: 11)
        var draws = SeededRandom.stream(StreamNumber.identifiers, seed: 11)
        var expected = ""
        while expected.count < hexDigits {
            let text = String(draws.next(), radix: 16)
            expected += String(repeating: "0", count: 16 - text.count) + text
        }
        #expect(ids.id(prefix: "item_", hexDigits: hexDigits) == "item_" + expected.prefix(hexDigits))
        #expect(ids.id(prefix: "", hexDigits: hexDigits).count == hexDigits)
    }

    @Test func delaysDoNotShiftIds() {
        var runtime = ScenarioRuntime(scenario: Scenario(seed: 9), clock: ManualClock())
        var plain = ScenarioRuntime(scenario: Scenario(seed: 9), clock: ManualClock())
        _ = runtime.delayMicros(before: "x")
        #expect(runtime.ids.uuid() == plain.ids.uuid())
    }

    @Test func turnsCycleOrFallBackAndSubstituteVariables() {
        let turns = TurnScript(
            list: [TurnContent(transcript: "a", answer: "Hi ${name}"), TurnContent(transcript: "b", answer: "B")],
            fallback: TurnContent(transcript: "?", answer: "default"))
        var scenario = Scenario(variables: ["name": "you"], turns: turns)
        #expect(scenario.turn(at: 0).answer == "Hi you")
        #expect(scenario.turn(at: 0, variables: ["name": "Li"]).spoken == "Hi Li")
        #expect(scenario.turn(at: 2).answer == "default")
        scenario.turns.cycle = true
        #expect(scenario.turn(at: 3).transcript == "b")
        var runtime = ScenarioRuntime(scenario: scenario, clock: ManualClock())
        runtime.variables = ["name": "Ana"]
        #expect(runtime.nextTurn().answer == "Hi Ana")
        #expect(runtime.nextTurn().answer == "B")
        #expect(runtime.turnIndex == 2)
    }

    @Test func commandsAndArgumentsBecomeJSONStrings() throws {
        let scenario = try Scenario.load(
            text: """
                {"turns": [{"answer": "ok", "commands": [{"name": "visual_qa", "params": [{"name": "shot", "value": "${what}"}]}],
                            "functionCalls": [{"name": "get_weather", "arguments": {"city": "${city}"}}]}],
                 "variables": {"what": "photo", "city": "Hangzhou"}}
                """, file: "c.json")
        let turn = scenario.turn(at: 0)
        #expect(turn.commandsJSONString == #"[{"name":"visual_qa","params":[{"name":"shot","value":"photo"}]}]"#)
        #expect(turn.functionCalls.first?.argumentsJSONString == #"{"city":"Hangzhou"}"#)
        #expect(Placeholders.substitute("${a} ${b", ["a": "1"]) == "1 ${b")
        #expect(Placeholders.names(in: "${x} and ${y}") == ["x", "y"])
    }
}
