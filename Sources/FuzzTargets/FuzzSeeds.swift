import Glibc
import ProtocolModel
package import WireAudio
import WireJSON

/// The seed corpus and the dictionary of each fuzz target, built from the repository's own
/// files: the protocol examples and schemas under `conformance/protocols`, the shipped
/// scenarios and the suite's fixtures. `.ci/fuzz` writes them (`DIALOGMOCK_FUZZ_WRITE_SEEDS`);
/// `FuzzTargetsTests` runs every seed through its target.
package struct FuzzSeeds {
    /// The repository's root directory.
    package let root: String

    package init(root: String) { self.root = root }

    /// Seeds of `target`, each one input.
    package func seeds(for target: FuzzTarget) -> [[UInt8]] {
        switch target {
        case .wireJSON:
            return protocolExamples() + scenarioFiles() + schemas().prefix(20)
        case .multimodalDialog: return multimodalDialogSessions()
        case .qwenRealtime: return qwenRealtimeSessions()
        case .qwenAudioLive: return qwenAudioLiveSessions()
        case .scenario: return scenarioFiles()
        case .jsonSchema:
            let instances = protocolExamples()
            return schemas().enumerated().map { index, schema in schema + [0] + instances[index % instances.count] }
        case .oggOpus: return oggOpusStreams()
        case .controlAPI: return controlRequests()
        }
    }

    /// Writes the seeds of `target` as files `seed-N` in `directory` (which must exist) and its
    /// dictionary as `dictionaryPath`.
    package func write(
        _ target: FuzzTarget, seedsTo directory: String, dictionaryTo dictionaryPath: String
    ) throws(WAVError) {
        for (index, seed) in seeds(for: target).enumerated() {
            try FileBytes.write(seed, to: "\(directory)/seed-\(index)")
        }
        try FileBytes.write(Array(dictionary(for: target).utf8), to: dictionaryPath)
    }

    /// Tokens libFuzzer inserts: event and directive names, field names and enum values of the
    /// protocol schemas, as `"…"` lines of a libFuzzer dictionary.
    package func dictionary(for target: FuzzTarget) -> String {
        var tokens = Set<String>()
        for schema in schemas() {
            guard let value = try? JSONValue.decode(schema) else { continue }
            collectTokens(value, into: &tokens)
        }
        switch target {
        case .oggOpus: tokens = ["OggS", "OpusHead", "OpusTags", "RIFF", "WAVE"]
        case .controlAPI:
            tokens.formUnion([
                "/_mock/", "/_mock/sessions", "/_mock/refusals", "/_mock/faults", "/_mock/scenario", "/_mock/reset",
                "/_mock/health", "/_mock/tests", "/scenario",
                "/_mock/metrics", "/_mock/openapi.json", "GET", "PUT", "POST", "DELETE", "authorization: Bearer ",
            ])
        case .multimodalDialog, .qwenRealtime:
            tokens.formUnion([String(decoding: EngineInput.separator, as: UTF8.self)])
        case .qwenAudioLive:
            tokens.formUnion([String(decoding: EngineInput.separator, as: UTF8.self)])
            tokens.formUnion(Self.qwenAudioLiveTokens)
        default: break
        }
        return tokens.sorted().filter { $0.utf8.count <= 64 }.map { token in
            "\""
                + token.utf8.map { byte in
                    byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                        ? String(UnicodeScalar(byte))
                        : "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }.joined() + "\""
        }.joined(separator: "\n") + "\n"
    }

    // MARK: - Files

    private func files(in directory: String, suffix: String) -> [String] {
        Self.names(in: root + "/" + directory).filter { $0.hasSuffix(suffix) }.map { directory + "/" + $0 }
    }

    /// The names in `directory` but hidden ones, sorted (empty when it cannot be read).
    package static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    private func read(_ path: String) -> [UInt8]? { try? FileBytes.read(path: root + "/" + path) }

    private func examples(_ protocolName: String) -> [[UInt8]] {
        ["valid", "invalid"].flatMap {
            files(in: "conformance/protocols/\(protocolName)/examples/\($0)", suffix: ".json")
        }
        .compactMap(read)
    }

    func clientExamples(_ protocolName: String) -> [[UInt8]] {
        let clientNames = Set(
            files(in: "conformance/protocols/\(protocolName)/client", suffix: ".json").map { path in
                String(path.split(separator: "/").last!.dropLast(5))
            })
        return ["valid", "invalid"].flatMap {
            files(in: "conformance/protocols/\(protocolName)/examples/\($0)", suffix: ".json")
        }
        .filter { path in
            clientNames.contains(
                String(path.split(separator: "/").last!.split(separator: ".").dropLast(2).joined(separator: ".")))
        }
        .compactMap(read)
    }

    /// The message examples of every protocol.
    private func protocolExamples() -> [[UInt8]] { DialogProtocol.allCases.flatMap { examples($0.rawValue) } }

    private func schemas() -> [[UInt8]] {
        DialogProtocol.allCases.map(\.rawValue).flatMap { name in
            ["client", "server"].flatMap { files(in: "conformance/protocols/\(name)/\($0)", suffix: ".json") }
                + ["conformance/protocols/\(name)/common.json"]
        }.compactMap(read)
    }

    private func scenarioFiles() -> [[UInt8]] {
        files(in: "mock-server/scenarios", suffix: ".json").compactMap(read)
    }

    func speech() -> [UInt8] {
        read("conformance/fixtures/audio/hello-16k.pcm")
            ?? PCMBuffer.silence(milliseconds: 500, sampleRate: 16000).littleEndianBytes
    }

    // MARK: - Sessions

    private func multimodalDialogSessions() -> [[UInt8]] {
        let examples = clientExamples("multimodal-dialog")
        let starts = examples.filter { String(decoding: $0, as: UTF8.self).contains("\"Start\"") }
        let start =
            starts.first
            ?? Array(
                #"{"header":{"action":"run-task","task_id":"t1","streaming":"duplex"},"payload":{"task_group":"aigc","task":"multimodal-generation","function":"generation","model":"multimodal-dialog","input":{"directive":"Start","workspace_id":"w","app_id":"a"},"parameters":{"upstream":{"type":"AudioOnly","mode":"duplex"}}}}"#
                    .utf8)
        let audio = stride(from: 0, to: speech().count, by: 3200).map { offset in
            EngineInput.Step.binary(Array(speech()[offset..<min(offset + 3200, speech().count)]))
        }
        var seeds: [[UInt8]] = []
        for (index, start) in starts.enumerated() {
            seeds.append(
                EngineInput.encode(
                    variant: UInt8(index),
                    [.text(start), .wait(milliseconds: 200)] + audio.prefix(4) + [.wait(milliseconds: 3000)]))
        }
        for (index, example) in examples.enumerated() {
            seeds.append(
                EngineInput.encode(
                    variant: UInt8(index % 7),
                    [.text(start), .wait(milliseconds: 100), .text(example)] + audio.prefix(3)))
        }
        return seeds
    }

    private func qwenRealtimeSessions() -> [[UInt8]] {
        let examples = clientExamples("qwen-realtime")
        let appends = stride(from: 0, to: speech().count, by: 3200).map { offset -> EngineInput.Step in
            let chunk = Base64.encode(Array(speech()[offset..<min(offset + 3200, speech().count)]))
            return .text(Array(#"{"type":"input_audio_buffer.append","audio":"\#(chunk)"}"#.utf8))
        }
        let update = Array(
            #"{"type":"session.update","session":{"modalities":["text","audio"],"turn_detection":null}}"#.utf8)
        let commit = Array(#"{"type":"input_audio_buffer.commit"}"#.utf8)
        let respond = Array(#"{"type":"response.create"}"#.utf8)
        var seeds: [[UInt8]] = []
        for variant: UInt8 in [0, 16, 32] {
            seeds.append(EngineInput.encode(variant: variant, appends.prefix(4) + [.wait(milliseconds: 3000)]))
            seeds.append(
                EngineInput.encode(
                    variant: variant,
                    [.text(update)] + appends.prefix(3) + [.text(commit), .text(respond), .wait(milliseconds: 3000)]))
        }
        for (index, example) in examples.enumerated() {
            seeds.append(
                EngineInput.encode(
                    variant: UInt8((index * 5) % 48), [.text(example), .wait(milliseconds: 200)] + appends.prefix(2)))
        }
        return seeds
    }

    private func oggOpusStreams() -> [[UInt8]] {
        let pcm = PCMBuffer(littleEndianBytes: speech(), sampleRate: 16000)
        guard let encoder = try? OpusEncoder(sampleRate: 16000), let packets = try? encoder.encode(pcm) else {
            return []
        }
        let head = OpusHead(inputSampleRate: 16000)
        return [
            [0xFF] + OggOpusWriter.stream(head: head, packets: Array(packets.prefix(10))),
            [0x10] + OggOpusWriter.stream(head: head, packets: Array(packets.prefix(5)), flushEveryPacket: true),
            [0x00] + Array(speech().prefix(640)),
        ]
    }

    private func controlRequests() -> [[UInt8]] {
        let quick = read("mock-server/scenarios/quick.json") ?? []
        let fault = Array(#"{"testId":"case-1","fault":{"kind":"drop","event":"response.audio.delta","count":2}}"#.utf8)
        return [
            Array("GET /_mock/\n\n".utf8), Array("GET /_mock/health\n\n".utf8), Array("GET /_mock/metrics\n\n".utf8),
            Array("GET /_mock/sessions?state=closed&protocol=qwen-realtime\n\n".utf8),
            Array("GET /_mock/sessions/abc/journal\n\n".utf8), Array("GET /_mock/scenario\n\n".utf8),
            Array("GET /_mock/refusals?testId=case-1&caseId=qrt.x.001\n\n".utf8),
            Array("PUT /_mock/scenario\ncontent-type: application/json\n\n".utf8) + quick,
            Array("POST /_mock/faults\n\n".utf8) + fault, Array("GET /_mock/faults?testId=case-1\n\n".utf8),
            Array("DELETE /_mock/faults?session=s1\n\n".utf8), Array("DELETE /_mock/faults/f1\n\n".utf8),
            Array("POST /_mock/reset\n\n".utf8), Array("GET /_mock/openapi.json\n\n".utf8),
            Array("PUT /_mock/tests/case-1/scenario\n\n".utf8) + quick, Array("GET /_mock/tests\n\n".utf8),
            Array("GET /_mock/tests/case-1/scenario\n\n".utf8), Array("DELETE /_mock/tests/case-1/scenario\n\n".utf8),
        ]
    }

    private func collectTokens(_ value: JSONValue, into tokens: inout Set<String>) {
        switch value {
        case .object(let object):
            for (key, member) in object {
                if !key.hasPrefix("$") { tokens.insert("\"\(key)\"") }
                if key == "const", case .string(let text) = member { tokens.insert("\"\(text)\"") }
                if key == "enum", case .array(let items) = member {
                    for case .string(let text) in items { tokens.insert("\"\(text)\"") }
                }
                collectTokens(member, into: &tokens)
            }
        case .array(let items):
            for item in items { collectTokens(item, into: &tokens) }
        default: break
        }
    }
}
