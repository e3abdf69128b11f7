import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireJSON

/// §8.10: retrieve, delete, duplicate ids, previous_item_id (S16, S17, C15).
@Suite struct ItemManagementTests {
    static func text(_ text: String, id: String? = nil) -> JSONValue {
        var item: JSONObject = [
            "type": "message", "role": "user", "content": [["type": "input_text", "text": .string(text)]],
        ]
        if let id { item["id"] = .string(id) }
        return .object(item)
    }

    @Test func retrieveAndDelete() throws {
        let harness = QwenHarness()
        harness.send("conversation.item.create", ["item": Self.text("hello", id: "item_a")])
        harness.send("conversation.item.retrieve", ["item_id": "item_a"])
        harness.send("conversation.item.delete", ["item_id": "item_a"])
        harness.send("conversation.item.retrieve", ["item_id": "item_a"])
        harness.advance(ms: 10)
        #expect(
            harness.types.suffix(4) == [
                "conversation.item.created", "conversation.item.retrieved", "conversation.item.deleted", "error",
            ])
        #expect(harness.events("conversation.item.retrieved").first?["item"]?["content"]?[0]?["text"] == "hello")
        #expect(harness.events("conversation.item.deleted").first?["item_id"] == "item_a")
        #expect(harness.events("error").first?["error"]?["code"] == "item_not_found")
    }

    @Test func retrievedAudioItemCarriesOnlyItsTranscript() throws {
        let harness = PushToTalkTests.manual()
        harness.appendAudio(try Fixtures.speech())
        harness.send("input_audio_buffer.commit")
        let id = try #require(harness.events("input_audio_buffer.committed").first?["item_id"])
        harness.send("conversation.item.retrieve", ["item_id": id])
        let item = try #require(harness.events("conversation.item.retrieved").first?["item"])
        #expect(item["content"]?[0] == ["type": "input_audio", "transcript": .string(PushToTalkTests.turn.transcript)])
    }

    @Test func duplicateIDIsRefused() throws {
        let harness = QwenHarness()
        harness.send("conversation.item.create", ["item": Self.text("a", id: "dup")])
        let id = harness.send("conversation.item.create", ["item": Self.text("b", id: "dup")])
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["type"] == "invalid_request_error")
        #expect(error["event_id"]?.stringValue == id)
        #expect(harness.violations.contains("qrt.C15"))
    }

    @Test func previousItemIDPlacesTheItem() throws {
        let harness = QwenHarness()
        harness.send("conversation.item.create", ["item": Self.text("a", id: "item_a")])
        harness.send("conversation.item.create", ["item": Self.text("c", id: "item_c")])
        harness.send("conversation.item.create", ["item": Self.text("b", id: "item_b"), "previous_item_id": "item_a"])
        #expect(harness.events("conversation.item.created").last?["previous_item_id"] == "item_a")
        #expect(
            harness.session.conversation.items.compactMap { $0["id"]?.stringValue } == ["item_a", "item_b", "item_c"])
        harness.send("conversation.item.create", ["item": Self.text("x"), "previous_item_id": "item_missing"])
        #expect(harness.events("error").first?["error"]?["param"] == "previous_item_id")
    }

    @Test(arguments: [
        (
            ["type": "message", "role": "robot", "content": [["type": "input_text", "text": "x"]]] as JSONValue,
            "item.role"
        ),
        (
            ["type": "message", "role": "assistant", "content": [["type": "input_text", "text": "x"]]] as JSONValue,
            "item.content[0].type"
        ),
        (["type": "message", "role": "user", "content": []] as JSONValue, "item.content"),
        (["type": "function_call", "call_id": "c", "arguments": "{}"] as JSONValue, "item.name"),
        (["type": "function_call_output", "call_id": "c"] as JSONValue, "item.output"),
        (["type": "image"] as JSONValue, "item.type"),
    ])
    func malformedItemsAreRefused(item: JSONValue, param: String) throws {
        let harness = QwenHarness()
        harness.send("conversation.item.create", ["item": item])
        #expect(harness.events("error").first?["error"]?["param"]?.stringValue == param)
        #expect(harness.violations == ["qrt.C4", "qrt.C15"])  // C4: no session.update first
    }
}
