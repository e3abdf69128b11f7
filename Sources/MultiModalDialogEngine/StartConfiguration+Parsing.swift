import ProtocolModel
import SessionCore
import WireJSON

extension StartConfiguration {
    /// Validates the first frame as a `run-task` carrying `Start` (C2–C5, §11 tolerances).
    /// - Throws: the first ``ParameterProblem`` that makes the Start invalid (S4 answers it
    ///   with `task-failed{InvalidParameter}`).
    package static func parse(_ frame: ClientFrame) throws(ParameterProblem) -> StartConfiguration {
        guard frame.action == DashScopeEnvelope.Action.runTask.rawValue else {
            throw ParameterProblem(
                "mmd.C2", "first frame must have header.action \"run-task\", got \(describe(frame.action))")
        }
        guard frame.streaming == "duplex" else {
            throw ParameterProblem("mmd.C2", "header.streaming must be \"duplex\", got \(describe(frame.streaming))")
        }
        guard let taskID = frame.taskID, !taskID.isEmpty else {
            throw ParameterProblem("mmd.C2", "header.task_id must be a non-empty string")
        }
        if let service = OtherRunTaskService(payload: frame.payload) {
            throw ParameterProblem("mmd.C3", service.refusal)
        }
        guard frame.directive == .start else {
            throw ParameterProblem("mmd.C2", "first directive must be \"Start\", got \(describe(frame.directiveName))")
        }
        var warnings: [ParameterProblem] = []
        let payload = try ParameterReader(.object(frame.payload), path: "payload", obligation: "mmd.C3")
        for (key, wanted) in DashScopeEnvelope.dialogTask {
            guard try payload.string(key) == wanted else {
                throw payload.problem(key, "must be \"\(wanted)\"")
            }
        }
        if let model = try payload.string("model") {
            if model != MultiModalDialogDescriptor.model {
                warnings.append(
                    payload.problem(
                        "model", "is \"\(model)\", expected \"\(MultiModalDialogDescriptor.model)\" (SHOULD)"))
            }
        } else {
            warnings.append(
                payload.problem(
                    "model", "is null or absent (SHOULD be \"\(MultiModalDialogDescriptor.model)\"; Python SDK default)"
                ))
        }
        let input = try payload.nested("input")
        let params = try payload.nested("parameters")
        let upstream = try params.nested("upstream")
        let downstream = try params.nested("downstream")
        let clientInfo = try params.nested("client_info")
        let required = ParameterReader(relabelling: input, obligation: "mmd.C4")
        guard let appID = try required.string("app_id"), !appID.isEmpty else {
            throw required.problem("app_id", "is required")
        }
        let clientRequired = ParameterReader(relabelling: clientInfo, obligation: "mmd.C4")
        guard let userID = try clientRequired.string("user_id"), (1...36).contains(userID.count) else {
            throw clientRequired.problem("user_id", "is required (1–36 characters)")
        }
        var config = StartConfiguration(taskID: taskID, appID: appID, userID: userID)
        config.workspaceID = try required.string("workspace_id")
        if config.workspaceID == nil {
            warnings.append(
                required.problem("workspace_id", "is null or absent (tolerated only with a workspace-scoped URL)"))
        }
        config.dialogID = try input.string("dialog_id").flatMap { $0.isEmpty ? nil : $0 }
        let upstreamRequired = ParameterReader(relabelling: upstream, obligation: "mmd.C4")
        guard try upstreamRequired.choice("type", ["AudioOnly", "AudioAndVideo"]) != nil else {
            throw upstreamRequired.problem("type", "is required (AudioOnly or AudioAndVideo)")
        }
        try config.applyUpstream(ParameterReader(relabelling: upstream, obligation: "mmd.C5"))
        try config.downlink.apply(ParameterReader(relabelling: downstream, obligation: "mmd.C5"))
        if let note = config.downlink.sampleRateNote { config.notes.append(note) }
        let device = try ParameterReader(relabelling: clientInfo, obligation: "mmd.C5").nested("device")
        if let uuid = try device.string("uuid"), uuid.count > 40 {
            throw device.problem("uuid", "is longer than 40 characters")
        }
        config.bizParams = try params.nested("biz_params").object
        config.warnings = warnings
        return config
    }

    private static func describe(_ text: String?) -> String {
        text.map { "\"\($0)\"" } ?? "nothing"
    }
}

extension StartConfiguration {
    /// Reads the optional `upstream` settings over the current ones (C5): Start, and UpdateInfo
    /// mid-call. `type` (AudioOnly / AudioAndVideo) is read here only when present.
    mutating func applyUpstream(_ reader: ParameterReader) throws(ParameterProblem) {
        if let type = try reader.choice("type", ["AudioOnly", "AudioAndVideo"]) {
            allowsVideo = type == "AudioAndVideo"
        }
        if let name = try reader.choice("mode", InteractionMode.allCases.map(\.rawValue)) {
            mode = InteractionMode(rawValue: name) ?? mode
        }
        if let name = try reader.choice("audio_format", UplinkFormat.allCases.map(\.rawValue)) {
            uplinkFormat = UplinkFormat(rawValue: name) ?? uplinkFormat
        }
        uplinkSampleRate = try reader.int("sample_rate", oneOf: Self.sampleRates) ?? uplinkSampleRate
        replaceWords = try WordReplacement.read(from: reader) ?? replaceWords
        vocabularyID = try reader.string("vocabulary_id") ?? vocabularyID
    }
}

extension DownlinkSettings {
    /// Reads `parameters.downstream` over the current settings (all optional; C5 ranges): a key
    /// that is absent or `null` keeps its value. Start applies it to the defaults, UpdateInfo to
    /// the call's settings.
    mutating func apply(_ reader: ParameterReader) throws(ParameterProblem) {
        voice = try reader.string("voice") ?? voice
        if try reader.int("sample_rate", in: Int.min...Int.max) == 0 {
            sampleRateUnset = true  // the Java builder's unset value: the default rate
            sampleRate = DownlinkSettings().sampleRate
        } else if let rate = try reader.int("sample_rate", oneOf: StartConfiguration.sampleRates) {
            sampleRate = rate
            sampleRateUnset = false
        }
        if let name = try reader.choice("audio_format", DownlinkFormat.allCases.map(\.rawValue)) {
            format = DownlinkFormat(rawValue: name) ?? .pcm
        }
        frameSizeMs = try reader.int("frame_size", oneOf: StartConfiguration.frameSizes) ?? frameSizeMs
        bitRateKbps = try reader.int("bit_rate", in: 6...510) ?? bitRateKbps
        volume = try reader.int("volume", in: 0...100) ?? volume
        speechRate = try reader.int("speech_rate", in: 50...200) ?? speechRate
        pitchRate = try reader.int("pitch_rate", in: 50...200) ?? pitchRate
        if let list = try reader.string("intermediate_text") {
            let parts = list.split(separator: ",").map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
            if let bad = parts.first(where: { $0 != "transcript" && $0 != "dialog" }) {
                throw reader.problem("intermediate_text", "contains \"\(bad)\" (allowed: transcript, dialog)")
            }
            transcriptPartials = parts.contains("transcript")
            dialogPartials = parts.contains("dialog")
        }
        incrementalResponse = try reader.bool("incremental_response") ?? incrementalResponse
        transmitRateLimit = try reader.int("transmit_rate_limit", in: 1...Int.max) ?? transmitRateLimit
        if let type = try reader.choice("type", ["Audio", "Text"]) { textOnly = type == "Text" }
    }

    /// The note for `sample_rate: 0`, when it was sent.
    var sampleRateNote: String? {
        guard sampleRateUnset else { return nil }
        return
            "downstream.sample_rate 0 (what the Java SDK sends when the app never sets it): the default \(sampleRate) Hz"
    }
}

extension ParameterReader {
    /// The same object read with another obligation blamed.
    init(relabelling other: ParameterReader, obligation: String) {
        self.init(object: other.object, path: other.path, obligation: obligation)
    }
}

extension Substring {
    /// The text without surrounding spaces.
    func trimmingCharacters() -> String { String(self).trimmingSpaces }
}

/// Another DashScope run-task service on the same `/api-ws/v1/inference` path (speech
/// synthesis, recognition, translation): told by its `payload.task_group` / `task` / `model`, so
/// its client hears what it reached instead of "first directive must be Start".
struct OtherRunTaskService {
    let description: String
    let payload: JSONObject

    init?(payload: JSONObject) {
        let group = payload["task_group"]?.stringValue
        let task = payload["task"]?.stringValue
        let model = payload["model"]?.stringValue?.lowercased() ?? ""
        let (dialogGroup, dialogTask) = (DashScopeEnvelope.dialogTaskGroup, DashScopeEnvelope.dialogTaskName)
        guard group != nil || task != nil, group != dialogGroup || task != dialogTask else { return nil }
        switch (group, task) {
        case _ where model.contains("livetranslate"): description = "LiveTranslate (speech translation)"
        case _ where model.hasPrefix("gummy"): description = "Gummy (speech recognition and translation)"
        case ("audio", "tts"): description = "speech synthesis (CosyVoice / Sambert)"
        case ("audio", "asr"): description = "speech recognition (Paraformer / Fun-ASR)"
        case _ where task == dialogTask || group == dialogGroup: return nil  // a multimodal Start with one wrong field
        default: description = "another run-task service"
        }
        self.payload = payload
    }

    var refusal: String {
        let asked = ["task_group", "task", "function", "model"].compactMap { key in
            payload[key]?.stringValue.map { "\(key) \"\($0)\"" }
        }.joined(separator: ", ")
        return "payload asks for \(asked): that is \(description), which this mock does not emulate; "
            + "it serves multimodal dialog here (\(DashScopeEnvelope.dialogTaskDescription))"
    }
}
