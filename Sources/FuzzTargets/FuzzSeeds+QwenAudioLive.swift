import ProtocolModel
import WireJSON

extension FuzzSeeds {
    /// The live dialect's event names and the values its session takes, as dictionary tokens
    /// (beside the reference's schemas): what libFuzzer splices into live frames.
    static var qwenAudioLiveTokens: [String] {
        let names =
            QwenAudioLiveClientEvent.allCases.map(\.rawValue) + QwenAudioLiveServerEvent.allCases.map(\.rawValue)
        let values =
            QwenAudioLive.frontendModels + QwenAudioLive.turnDetectionTypes + QwenAudioLive.delegationTypes
            + QwenAudioLive.transportTypes + [QwenAudioLive.voices[0]]
        let members = [
            "type", "event_id", "session", "model", "voice", "turn_detection", "delegation", "transport", "audio",
            "item", "content", "delegation_id", "call_id", "output", "instructions",
        ]
        return (names + values + members).map { "\"\($0)\"" }
    }

    /// Qwen-Audio-Live sessions built from the protocol model: the documented flow on each
    /// frontend model, turn detection and delegation (`session.update`, audio, `session.close`),
    /// every other client event after it, audio before the update (qal.C4), a refused transport,
    /// and each client example of the reference after an update. The variant's upper bits pick
    /// the service model (``EngineFuzzing/liveModels``).
    func qwenAudioLiveSessions() -> [[UInt8]] {
        typealias Event = QwenAudioLiveClientEvent
        var eventCount = 0
        func frame(_ event: Event, _ fields: JSONObject = [:]) -> EngineInput.Step {
            eventCount += 1
            var object = event.object(["event_id": .string("fuzz-\(eventCount)")])
            for (key, value) in fields { object[key] = value }
            return .text(Array(JSONValue.object(object).encodedString().utf8))
        }
        let speech = speech()
        let appends = stride(from: 0, to: speech.count, by: 3200).map { offset in
            frame(
                .inputAudioAppend, ["audio": .string(Base64.encode(speech[offset..<min(offset + 3200, speech.count)]))])
        }
        func update(
            model: String = QwenAudioLive.duplexModel, turnDetection: String = "server_vad",
            delegation: String = "client", transport: String? = nil
        ) -> EngineInput.Step {
            var session: JSONObject = [
                "model": .string(model), "voice": .string(QwenAudioLive.voices[0]),
                "turn_detection": ["type": .string(turnDetection)], "delegation": ["type": .string(delegation)],
            ]
            if let transport { session["transport"] = ["type": .string(transport)] }
            return frame(.sessionUpdate, ["session": .object(session)])
        }
        let close = [frame(.sessionClose), EngineInput.Step.wait(milliseconds: 500)]
        var seeds: [[UInt8]] = []
        for (index, model) in QwenAudioLive.frontendModels.enumerated() {
            let turnDetections = model == QwenAudioLive.duplexModel ? QwenAudioLive.turnDetectionTypes : ["server_vad"]
            for turnDetection in turnDetections {
                for delegation in QwenAudioLive.delegationTypes {
                    seeds.append(
                        EngineInput.encode(
                            variant: UInt8(index * 16 + seeds.count % 16),
                            [update(model: model, turnDetection: turnDetection, delegation: delegation)]
                                + [.wait(milliseconds: 200)] + appends.prefix(4) + [.wait(milliseconds: 3000)] + close))
                }
            }
        }
        let others: [EngineInput.Step] = [
            frame(.inputAudioMute), frame(.inputAudioUnmute),
            frame(
                .itemCreate,
                [
                    "item": [
                        "type": "message", "role": "user", "content": [["type": "input_text", "text": "hello"]],
                    ]
                ]),
            frame(.itemCreate, ["item": ["type": "function_call_output", "call_id": "call_1", "output": "{}"]]),
            frame(.commentaryAppend, ["delegation_id": .null, "content": "the weather is fine"]),
            frame(.thinkingAppend, ["delegation_id": "delegation_1", "content": "looking it up"]),
            frame(.instructionsAppend, ["content": "answer briefly"]),
            frame(.instructionAppend, ["content": "answer briefly"]),
        ]
        for (index, event) in others.enumerated() {
            seeds.append(
                EngineInput.encode(
                    variant: UInt8(index % 32),
                    [update(), .wait(milliseconds: 100), event] + appends.prefix(2) + [.wait(milliseconds: 1000)]))
        }
        seeds.append(EngineInput.encode(variant: 1, appends.prefix(2) + [update()] + appends.prefix(2) + close))
        seeds.append(EngineInput.encode(variant: 2, [update(transport: "aoq")] + appends.prefix(2) + close))
        for (index, example) in clientExamples(DialogProtocol.qwenAudioLive.rawValue).enumerated() {
            seeds.append(
                EngineInput.encode(
                    variant: UInt8((index * 5) % 32),
                    [update(), .wait(milliseconds: 100), .text(example)] + appends.prefix(2)))
        }
        return seeds
    }
}
