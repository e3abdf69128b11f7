package import ProtocolModel

/// The fuzz targets of `.ci/fuzz`: each takes arbitrary bytes and must neither crash, hang nor
/// leak whatever they hold. `dialogmock-fuzz` (built only with `DIALOGMOCK_FUZZ=1`) hands
/// libFuzzer's inputs to one of them; `FuzzTargetsTests` replays the seeds and every input
/// libFuzzer ever found crashing (kept as regression tests).
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// `JSONValue.decode`, the in-place member scanner, and re-encoding what decoded.
    case wireJSON = "wire-json"
    /// A multimodal-dialog session fed client frames (``EngineInput``).
    case multimodalDialog = "multimodal-dialog"
    /// A Qwen realtime session fed client frames (``EngineInput``).
    case qwenRealtime = "qwen-realtime"
    /// A Qwen-Audio-Live session (the Qwen engine's live dialect) fed client frames (``EngineInput``).
    case qwenAudioLive = "qwen-audio-live"
    /// The scenario parser (a scenario file's bytes).
    case scenario
    /// The JSON Schema validator: a schema, a NUL byte, an instance.
    case jsonSchema = "json-schema"
    /// The Ogg Opus demuxer and the Opus decoder, fed in pieces.
    case oggOpus = "ogg-opus"
    /// The control API: a request line and a body (``ControlAPIInput``).
    case controlAPI = "control-api"

    /// The target that fuzzes `dialogProtocol`'s engine: the one registration of a protocol here
    /// (a new ``DialogProtocol`` case is a compile error until its engine has a target).
    package static func engine(for dialogProtocol: DialogProtocol) -> FuzzTarget {
        switch dialogProtocol {
        case .multimodalDialog: .multimodalDialog
        case .qwenRealtime: .qwenRealtime
        case .qwenAudioLive: .qwenAudioLive
        }
    }

    /// The engine targets, one per protocol.
    package static var engines: [FuzzTarget] { DialogProtocol.allCases.map(engine(for:)) }

    /// Runs one input.
    package func run(_ bytes: [UInt8]) {
        switch self {
        case .wireJSON: WireJSONFuzzing.run(bytes)
        case .multimodalDialog: EngineFuzzing.runMultimodalDialog(bytes)
        case .qwenRealtime: EngineFuzzing.runQwenRealtime(bytes)
        case .qwenAudioLive: EngineFuzzing.runQwenAudioLive(bytes)
        case .scenario: ScenarioFuzzing.run(bytes)
        case .jsonSchema: JSONSchemaFuzzing.run(bytes)
        case .oggOpus: OggOpusFuzzing.run(bytes)
        case .controlAPI: ControlAPIFuzzing.run(bytes)
        }
    }
}
