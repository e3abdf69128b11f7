import ScenarioEngine
import WireAudio
import WireJSON

/// Client frames as the SDKs send them.
enum ClientMessages {
    /// A run-task Start (§5.1 example) with `parameters` merged over the defaults.
    static func start(taskID: String, parameters: JSONObject = [:], dialogID: String? = nil) -> JSONValue {
        var upstream: JSONObject = [
            "type": "AudioOnly", "mode": "tap2talk", "audio_format": "pcm", "sample_rate": 16000,
        ]
        var downstream: JSONObject = [
            "voice": "longxiaochun_v2", "sample_rate": 24000, "audio_format": "pcm",
            "intermediate_text": "transcript,dialog",
        ]
        var params: JSONObject = ["client_info": ["user_id": "user-1", "device": ["uuid": "dev-1"]]]
        for (key, value) in parameters {
            switch key {
            case "upstream": for (k, v) in value.objectValue ?? [:] { upstream[k] = v }
            case "downstream": for (k, v) in value.objectValue ?? [:] { downstream[k] = v }
            default: params[key] = value
            }
        }
        params["upstream"] = .object(upstream)
        params["downstream"] = .object(downstream)
        var input: JSONObject = ["directive": "Start", "workspace_id": "llm-demo", "app_id": "app-demo"]
        if let dialogID { input["dialog_id"] = .string(dialogID) }
        return [
            "header": ["action": "run-task", "task_id": .string(taskID), "streaming": "duplex"],
            "payload": [
                "task_group": "aigc", "task": "multimodal-generation", "function": "generation",
                "model": "multimodal-dialog", "input": .object(input), "parameters": .object(params),
            ],
        ]
    }

    /// A directive frame.
    static func directive(
        _ name: String, taskID: String, input: JSONObject = [:], parameters: JSONValue? = nil,
        action: String? = nil
    ) -> JSONValue {
        var fields: JSONObject = ["directive": .string(name)]
        for (key, value) in input { fields[key] = value }
        var payload: JSONObject = ["input": .object(fields)]
        if let parameters { payload["parameters"] = parameters }
        let defaultAction = name == "Stop" ? "finish-task" : "continue-task"
        return [
            "header": ["action": .string(action ?? defaultAction), "task_id": .string(taskID), "streaming": "duplex"],
            "payload": .object(payload),
        ]
    }

    /// A base64 string that decodes to `bytes` bytes.
    static func base64(decodedBytes bytes: Int) -> String {
        String(repeating: "QUJD", count: bytes / 3)
    }
}

/// Scenarios and fixtures for the tests.
enum TestScenarios {
    /// Immediate events, a fixed script, default cadences.
    static let plain = Scenario(
        name: "plain", seed: 42, variables: ["user_name": "friend"],
        turns: TurnScript(
            list: [
                TurnContent(transcript: "What is the weather like today", answer: "It is sunny and warm."),
                TurnContent(transcript: "Thanks", answer: "You're welcome, ${user_name}."),
            ], fallback: TurnContent(transcript: "Again?", answer: "Sure.")))

    /// The repository's default scenario (mock-server/scenarios/default.json).
    static func repositoryDefault() throws -> Scenario {
        try Scenario.load(
            bytes: try FileBytes.read(path: repositoryRoot + "/mock-server/scenarios/default.json"),
            file: "default.json")
    }

    /// The package root, from this file's path.
    static var repositoryRoot: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    /// An espeak-ng fixture of WireAudioTests (16 kHz mono).
    static func speech(_ name: String = "speech-padded-16k.wav") throws -> PCMBuffer {
        try WAVFile.read(path: repositoryRoot + "/Tests/WireAudioTests/Fixtures/" + name)
    }
}
