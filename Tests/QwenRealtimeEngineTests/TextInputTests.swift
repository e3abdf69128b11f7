import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireJSON

/// §8.6: text input items, and the text-only modality (S10, S22).
@Suite struct TextInputTests {
    static let turn = TurnContent(transcript: "", answer: "明天杭州晴，最高二十三度。")

    static func textTurn(modalities: JSONValue) -> QwenHarness {
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]))
        harness.send("session.update", ["session": ["modalities": modalities, "turn_detection": .null]])
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "总结一下"]]]
            ])
        harness.send("response.create")
        harness.advance(ms: 10_000)
        return harness
    }

    @Test func textItemThenResponse() throws {
        let harness = Self.textTurn(modalities: ["text", "audio"])
        let types = harness.compactTypes()
        #expect(Array(types.prefix(3)) == ["session.created", "session.updated", "conversation.item.created"])
        #expect(types[3] == "response.created")
        let item = try #require(harness.events("conversation.item.created").first?["item"])
        #expect(item["content"]?[0]?["text"] == "总结一下")
        #expect(item["id"]?.stringValue?.hasPrefix("item_") == true)
        #expect(harness.events("response.audio.delta").count > 0)
    }

    @Test func textOnlyModalitySendsNoAudio() throws {
        let harness = Self.textTurn(modalities: ["text"])
        #expect(
            Array(harness.compactTypes().suffix(8)) == [
                "response.created", "response.output_item.added", "conversation.item.created",
                "response.content_part.added", "response.text.done", "response.content_part.done",
                "response.output_item.done", "response.done",
            ])
        #expect(!harness.types.contains { $0.hasPrefix("response.audio") })
        let deltas = harness.events("response.text.delta").compactMap { $0["delta"]?.stringValue }
        let done = try #require(harness.events("response.text.done").first?["text"]?.stringValue)
        #expect(deltas.joined() == done)
        #expect(done == Self.turn.answer)
        #expect(harness.events("response.content_part.added").first?["part"]?["type"] == "text")
        let output = try #require(harness.events("response.done").first?["response"]?["output"]?[0])
        #expect(output["content"]?[0] == ["type": "text", "text": .string(Self.turn.answer)])
    }

    @Test func instructionsCountTowardsPromptUsage() throws {
        let plain = Self.textTurn(modalities: ["text"])
        let harness = QwenHarness(scenario: QwenHarness.scenario([Self.turn]))
        harness.send(
            "session.update",
            [
                "session": [
                    "modalities": ["text"], "turn_detection": .null,
                    "instructions": "You are a terse weather bot for Hangzhou.",
                ]
            ])
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "总结一下"]]]
            ])
        harness.send("response.create")
        harness.advance(ms: 10_000)
        #expect(
            harness.events("session.updated").first?["session"]?["instructions"]
                == "You are a terse weather bot for Hangzhou.")
        let withInstructions =
            harness.events("response.done").first?["response"]?["usage"]?["input_tokens"]?.intValue ?? 0
        let without = plain.events("response.done").first?["response"]?["usage"]?["input_tokens"]?.intValue ?? 0
        #expect(withInstructions > without)
    }

    @Test func maxHistoryTurnsLimitsThePrompt() throws {
        func promptTokens(maxTurns: Int) -> Int64 {
            let harness = QwenHarness(scenario: QwenHarness.scenario([Self.turn]))
            harness.send(
                "session.update",
                [
                    "session": [
                        "modalities": ["text"], "turn_detection": .null,
                        "max_history_turns": .int(Int64(maxTurns)),
                    ]
                ])
            for text in ["one two three", "four five six", "seven eight nine"] {
                harness.send(
                    "conversation.item.create",
                    [
                        "item": [
                            "type": "message", "role": "user",
                            "content": [["type": "input_text", "text": .string(text)]],
                        ]
                    ])
            }
            harness.send("response.create")
            harness.advance(ms: 10_000)
            return harness.events("response.done").first?["response"]?["usage"]?["input_tokens"]?.intValue ?? 0
        }
        #expect(promptTokens(maxTurns: 1) == 3)
        #expect(promptTokens(maxTurns: 3) == 9)
    }
}
