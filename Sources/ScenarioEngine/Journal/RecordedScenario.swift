package import ProtocolModel
package import WireJSON

/// A recorded session (a journal, e.g. from `--proxy-upstream … --record`) as a replayable
/// scenario file (`mock-server record-to-scenario`): the server's frames with their delays after
/// the client frame that preceded them (``Scenario/replay(journal:timeScale:name:)``), the
/// recorded client frames' names (to report where a live client departs), ids rewritten
/// deterministically, and audio moved to files beside the scenario: the payloads of JSON frames
/// (Qwen `response.audio.delta`, Qwen-Audio-Live `session.output_audio.delta`: `.pcm`) and
/// binary frames whose bytes the journal kept (`.bin`). Pure: the caller writes the files.
package struct RecordedScenario {
    /// The scenario file.
    package let document: JSONValue
    /// Audio files to write beside it: path relative to the scenario's folder, raw bytes.
    package let audioFiles: [(path: String, bytes: [UInt8])]
    /// Server frames the scenario replays.
    package let stepCount: Int
    /// The server events whose base64 `delta` is answer audio, moved to files.
    static let audioDeltaEvents: Set<String> = [
        QwenServerEvent.responseAudioDelta.rawValue, QwenAudioLiveServerEvent.outputAudioDelta.rawValue,
    ]

    /// - Parameters:
    ///   - name: the scenario's name; audio goes to `<name>.audio/NNNN.pcm`.
    package init(journal: [JournalEntry], name: String) {
        var scenario = Scenario.replay(journal: journal, name: name)
        var ids = IDRewriter()
        var files: [(String, [UInt8])] = []
        func audioPath(_ suffix: String) -> String {
            let number = String(files.count + 1)
            return "\(name).audio/\(String(repeating: "0", count: max(0, 4 - number.count)))\(number).\(suffix)"
        }
        for index in (scenario.replay ?? []).indices {
            if let bytes = scenario.replay![index].payload {  // a binary frame's recorded bytes
                let path = audioPath("bin")
                files.append((path, bytes))
                scenario.replay![index].audioFile = path
                scenario.replay![index].payload = nil
                continue
            }
            guard case .json(var value) = scenario.replay![index].frame else { continue }
            ids.rewrite(&value)
            if let type = value["type"]?.stringValue, Self.audioDeltaEvents.contains(type),
                let delta = value["delta"]?.stringValue,
                let bytes = Base64.decode(delta), var object = value.objectValue
            {
                let path = audioPath("pcm")
                files.append((path, bytes))
                object["delta"] = .string("")
                value = .object(object)
                scenario.replay![index].audioFile = path
                scenario.replay![index].audioPointer = "/delta"
            }
            scenario.replay![index].frame = .json(value)
        }
        var document: JSONObject = [
            "name": .string(name),
            "description": .string("Recorded session replayed frame for frame (mock-server record-to-scenario)"),
        ]
        document["replay"] = scenario.replayJSON
        self.document = .object(document)
        audioFiles = files
        stepCount = scenario.replay?.count ?? 0
    }
}

/// Rewrites the ids a server generated (`event_id`, `item_id`, `response_id`, `call_id`,
/// `dialog_id`, an object's `id`, …) to `<prefix>_rec<N>` in order of first appearance, the
/// same value to the same id everywhere: a recording's random ids become stable.
struct IDRewriter {
    static let keys: Set<String> = [
        "id", "event_id", "item_id", "response_id", "previous_item_id", "call_id", "dialog_id", "conversation_id",
    ]
    private var mapping: [String: String] = [:]

    mutating func rewrite(_ value: inout JSONValue) {
        switch value {
        case .object(var object):
            for key in object.keys {
                guard var member = object[key] else { continue }
                if Self.keys.contains(key), let text = member.stringValue, !text.isEmpty {
                    member = .string(replacement(for: text))
                } else {
                    rewrite(&member)
                }
                object[key] = member
            }
            value = .object(object)
        case .array(var elements):
            for index in elements.indices { rewrite(&elements[index]) }
            value = .array(elements)
        default:
            break
        }
    }

    private mutating func replacement(for id: String) -> String {
        if let known = mapping[id] { return known }
        let head = id.split(separator: "_", maxSplits: 1).first.map(String.init) ?? ""
        let prefix = id.contains("_") && head.count <= 12 && head.allSatisfy(\.isLetter) ? head : "id"
        let new = "\(prefix)_rec\(mapping.count + 1)"
        mapping[id] = new
        return new
    }
}
