import Foundation
import Testing
import WireJSON

@testable import ScenarioEngine

@Suite struct ScenarioParsingTests {
    static let scenariosDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("mock-server/scenarios")

    static var shippedScenarioNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scenariosDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func everyFaultFamilyHasAShippedScenario() {
        let families = [
            "close", "abrupt-close", "stall", "slow-close", "bandwidth", "fragment", "truncated", "malformed",
            "unknown-event", "duplicate", "drop", "reorder", "delay", "inject-error", "session-expiry", "idle-end",
            "time-scale", "default",
        ]
        for family in families {
            #expect(Self.shippedScenarioNames.contains("\(family).json"), "missing \(family).json")
        }
    }

    @Test(arguments: shippedScenarioNames)
    func shippedScenarioParses(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.scenariosDirectory.appendingPathComponent(name)))
        let scenario = try Scenario.load(bytes: bytes, file: name)
        #expect(scenario.name == String(name.dropLast(5)))
        #expect(!scenario.description.isEmpty)
    }

    @Test func defaultScenarioHasRealisticConversation() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.scenariosDirectory.appendingPathComponent("default.json")))
        let scenario = try Scenario.load(bytes: bytes, file: "default.json")
        #expect(scenario.turns.list.count >= 5)
        #expect(Set(scenario.turns.list.map(\.transcript)).count == scenario.turns.list.count)
        #expect(scenario.turns.list.allSatisfy { !$0.answer.isEmpty && !$0.transcript.isEmpty })
        var random = SeededRandom(seed: 1)
        for _ in 0..<200 {
            let ms = scenario.timing.distribution(for: "RespondingStarted").sampleMs(using: &random)
            #expect(ms >= 0 && ms <= 1500)
        }
        #expect((15...25).contains(scenario.timing.text.tokensPerSecond))
        #expect((40...100).contains(scenario.timing.audio.chunkMs))
        #expect(scenario.timing.audio.realTimeFactor >= 1)
        #expect(scenario.turn(at: 0).answer.hasPrefix("Hi there!"))
        #expect(scenario.turn(at: 0, variables: ["user_name": "Mia"]).answer.hasPrefix("Hi Mia!"))
    }

    static let badScenarios: [(text: String, expected: String)] = [
        (
            """
            {
              "name": "bad",
              "timing": {
                "events": {
                  "SpeechStarted": { "kind": "gauss", "meanMs": 100 }
                }
              }
            }
            """,
            #"bad.json:5:34: timing.events.SpeechStarted.kind: expected one of fixed, uniform, normal, lognormal; got "gauss""#
        ),
        (
            """
            {
              "seed": "forty-two"
            }
            """,
            #"bad.json:2:11: seed: expected integer; got string "forty-two""#
        ),
        (
            """
            {
              "faults": [
                { "kind": "drop" },
                { "kind": "duplicate", "probability": 1.5 }
              ]
            }
            """,
            "bad.json:4:43: faults[1].probability: must be between 0 and 1; got 1.5"
        ),
        (
            """
            {
              "turns": {
                "list": [
                  { "transcript": "Hi", "anwser": "Hello" }
                ]
              }
            }
            """,
            #"bad.json:4:29: turns.list[0].anwser: unknown key "anwser"; did you mean "answer"?"#
        ),
        (
            """
            {
              "timeScale": 0.01,
              "polices": {}
            }
            """,
            #"bad.json:3:3: polices: unknown key "polices"; did you mean "policies"?"#
        ),
        (
            """
            {
              "triggers": [
                { "when": { "message": "Start" }, "actions": [ { "arm": "clsoe" } ] }
              ],
              "faults": [ { "id": "close", "kind": "close" } ]
            }
            """,
            #"bad.json:3:61: triggers[0].actions[0].arm: no fault has id "clsoe"; did you mean "close"?"#
        ),
        (
            """
            {
              "timing": { "audio": { "chunkMs": 0 } }
            }
            """,
            "bad.json:2:37: timing.audio.chunkMs: must be between 5 and 1000; got 0"
        ),
        (
            """
            {
              "name": "x",
            }
            """,
            "bad.json:3:1: string or '}' expected near '}'"
        ),
        (
            """
            {
              "turns": { "list": [ { "answer": "x", "audio": { "file": "../../etc/secret.wav" } } ] }
            }
            """,
            #"bad.json:2:60: turns.list[0].audio.file: "../../etc/secret.wav" must be a path inside the scenario's folder (relative, never above it with "..")"#
        ),
        (
            """
            { "turns": { "list": [ { "answer": "x", "audio": { "file": "/etc/secret.wav" } } ] } }
            """,
            #"bad.json:1:60: turns.list[0].audio.file: "/etc/secret.wav" must be a path inside the scenario's folder (relative, never above it with "..")"#
        ),
    ]

    @Test func fixturePathsStayInsideTheScenarioFolder() {
        for inside in ["a.wav", "audio/a.wav", "./a.wav", "audio/../a.wav", "a/b/../../c.wav"] {
            #expect(TurnContent.Audio.staysInside(inside), "\(inside)")
        }
        for outside in ["", "/a.wav", "../a.wav", "audio/../../a.wav", "./..//a.wav", ".", "audio/.."] {
            #expect(!TurnContent.Audio.staysInside(outside), "\(outside)")
        }
    }

    @Test(arguments: badScenarios.indices)
    func badScenarioReportsFileLineColumn(index: Int) {
        let (text, expected) = Self.badScenarios[index]
        #expect(throws: ScenarioError.self) { try Scenario.load(text: text, file: "bad.json") }
        do {
            _ = try Scenario.load(text: text, file: "bad.json")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func errorCarriesPointer() {
        do {
            _ = try Scenario.load(text: #"{"policies": {"idleEndMs": -1}}"#, file: "p.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.pointer == "/policies/idleEndMs")
            #expect(error.line == 1)
        }
    }

    @Test func parseWithoutLocatorPrintsFileOnly() {
        do {
            _ = try Scenario.parse(["seed": "x"], file: "v.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == #"v.json: seed: expected integer; got string "x""#)
        }
    }

    @Test func didYouMeanFindsCloseNames() {
        #expect(
            DidYouMean.suggestion(for: "tokensPerSecnod", among: ["tokensPerSecond", "tokenization"])
                == "tokensPerSecond")
        #expect(DidYouMean.suggestion(for: "zzz", among: ["answer"]) == nil)
        #expect(DidYouMean.suggestion(for: "Answer", among: ["answer"]) == "answer")
    }
}
