import ProtocolModel
import Testing
import WireJSON

@testable import ScenarioEngine

/// Drift between two recordings of a flow: frames added or removed, fields that changed shape,
/// delays that moved beyond the tolerance; values (ids, text) are not drift.
@Suite struct RecordingDriftTests {
    static func recording(_ frames: [(String, JSONValue, Int64)]) -> [JournalEntry] {
        var entries: [JournalEntry] = [
            .textFrame(t: 0, .in, json: ["type": "session.update"], eventType: "session.update", byteLength: 10)
        ]
        for (name, json, t) in frames {
            entries.append(.textFrame(t: t, .out, json: json, eventType: name, byteLength: 10))
        }
        return entries
    }

    static let old = recording([
        (
            "session.updated", ["type": "session.updated", "event_id": "event_1", "session": ["voice": "Cherry"]],
            20_000
        ),
        ("response.created", ["type": "response.created", "response": ["id": "resp_1"]], 100_000),
        (
            "response.done", ["type": "response.done", "response": ["id": "resp_1", "usage": ["total_tokens": 5]]],
            900_000
        ),
    ])

    @Test func sameShapesOtherValuesAndJitterAreNoDrift() {
        let new = Self.recording([
            (
                "session.updated", ["type": "session.updated", "event_id": "event_9", "session": ["voice": "Ethan"]],
                23_000
            ),
            ("response.created", ["type": "response.created", "response": ["id": "resp_7"]], 110_000),
            (
                "response.done",
                ["type": "response.done", "response": ["id": "resp_7", "usage": ["total_tokens": 9]]], 880_000
            ),
        ])
        let drift = RecordingDrift(old: Self.old, new: new)
        #expect(!drift.drifted)
        #expect(drift.report["summary"]?["matched"]?.intValue == 3)
        #expect(drift.report["timing"]?["maxUs"]?.intValue == 20_000)
    }

    @Test func addedRemovedFieldsAndTimingAreReported() {
        let new = Self.recording([
            (
                "session.updated",
                ["type": "session.updated", "event_id": "e", "session": ["voice": 1, "speed": 1.0]], 20_000
            ),
            ("response.text.delta", ["type": "response.text.delta"], 300_000),
            (
                "response.done", ["type": "response.done", "response": ["id": "r", "usage": ["total_tokens": 5]]],
                1_400_000
            ),
        ])
        let drift = RecordingDrift(old: Self.old, new: new)
        #expect(drift.drifted)
        #expect(drift.report["order"] == ["removed": ["response.created": 1], "added": ["response.text.delta": 1]])
        #expect(
            drift.report["fields"]
                == [
                    [
                        "event": "session.updated", "added": ["/session/speed"], "removed": [],
                        "typeChanged": ["/session/voice"],
                    ]
                ])
        #expect(
            drift.report["timing"]?["events"]
                == [["event": "response.done", "oldMedianUs": 900_000, "newMedianUs": 1_400_000]])
    }
}
