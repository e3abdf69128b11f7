public import WireJSON

/// Builder for the `parameters` of `Start`, `RequestToRespond` and `UpdateInfo`, shaped like
/// the iOS SDK's `MultiModalRequestParam` (SEED-000/001):
///
/// ```swift
/// let params = MultiModalRequestParam { builder in
///     builder.upStream = .init { $0.type = "AudioOnly"; $0.mode = DialogMode.duplex.rawValue }
///     builder.clientInfo = .init { $0.userId = "user-1"; $0.device = .init(uuid: "dev-1") }
///     builder.downStream = .init { $0.sampleRate = 24000 }
/// }
/// ```
public struct MultiModalRequestParam: Sendable {
    /// `parameters.upstream`.
    public struct UpStream: Sendable {
        public var type: String?
        public var mode: String?
        public var audioFormat: String?
        public var sampleRate: Int?
        public var vocabularyId: String?
        /// Pass-through keys merged into the object.
        public var extra: JSONObject = [:]
        public init(builder: (inout UpStream) -> Void = { _ in }) { builder(&self) }

        var json: JSONObject {
            var object = extra
            object["type"] = type.map(JSONValue.string)
            object["mode"] = mode.map(JSONValue.string)
            object["audio_format"] = audioFormat.map(JSONValue.string)
            object["sample_rate"] = sampleRate.map { .int(Int64($0)) }
            object["vocabulary_id"] = vocabularyId.map(JSONValue.string)
            return object
        }
    }

    /// `parameters.downstream`.
    public struct DownStream: Sendable {
        public var voice: String?
        public var sampleRate: Int?
        public var audioFormat: String?
        public var intermediateText: String?
        public var volume: Int?
        public var speechRate: Int?
        public var pitchRate: Int?
        public var frameSize: Int?
        public var bitRate: Int?
        public var transmitRateLimit: Int?
        public var incrementalResponse: Bool?
        public var extra: JSONObject = [:]
        public init(builder: (inout DownStream) -> Void = { _ in }) { builder(&self) }

        var json: JSONObject {
            var object = extra
            object["voice"] = voice.map(JSONValue.string)
            object["sample_rate"] = sampleRate.map { .int(Int64($0)) }
            object["audio_format"] = audioFormat.map(JSONValue.string)
            object["intermediate_text"] = intermediateText.map(JSONValue.string)
            for (key, value) in [
                ("volume", volume), ("speech_rate", speechRate), ("pitch_rate", pitchRate),
                ("frame_size", frameSize), ("bit_rate", bitRate), ("transmit_rate_limit", transmitRateLimit),
            ] {
                object[key] = value.map { .int(Int64($0)) }
            }
            object["incremental_response"] = incrementalResponse.map(JSONValue.bool)
            return object
        }
    }

    /// `parameters.client_info`.
    public struct ClientInfo: Sendable {
        /// `client_info.device`.
        public struct Device: Sendable {
            public var uuid: String
            public init(uuid: String) { self.uuid = uuid }
        }
        public var userId: String?
        public var device: Device?
        public var networkIp: String?
        public var status: JSONObject?
        public var extra: JSONObject = [:]
        public init(builder: (inout ClientInfo) -> Void = { _ in }) { builder(&self) }

        var json: JSONObject {
            var object = extra
            object["user_id"] = userId.map(JSONValue.string)
            object["device"] = device.map { ["uuid": .string($0.uuid)] }
            object["network"] = networkIp.map { ["ip": .string($0)] }
            object["status"] = status.map(JSONValue.object)
            return object
        }
    }

    /// `parameters.biz_params`.
    public struct BizParams: Sendable {
        public var userDefinedParams: JSONObject?
        public var userDefinedTokens: JSONObject?
        public var toolPrompts: JSONObject?
        public var userPromptParams: JSONObject?
        public var userQueryParams: JSONObject?
        /// `[{action: "connect"|"exit", type: "voicechat_video_channel"}]` (video calls).
        public var videos: [JSONValue]?
        public var extra: JSONObject = [:]
        public init(builder: (inout BizParams) -> Void = { _ in }) { builder(&self) }

        var json: JSONObject {
            var object = extra
            for (key, value) in [
                ("user_defined_params", userDefinedParams), ("user_defined_tokens", userDefinedTokens),
                ("tool_prompts", toolPrompts), ("user_prompt_params", userPromptParams),
                ("user_query_params", userQueryParams),
            ] {
                object[key] = value.map(JSONValue.object)
            }
            object["videos"] = videos.map(JSONValue.array)
            return object
        }
    }

    public var upStream: UpStream?
    public var downStream: DownStream?
    public var clientInfo: ClientInfo?
    public var bizParams: BizParams?
    /// `[{type: "url"|"base64", value}]`.
    public var images: [JSONValue]?
    /// Other top-level keys (`dialog_attributes`, pass-through).
    public var extra: JSONObject = [:]

    public init(builder: (inout MultiModalRequestParam) -> Void = { _ in }) { builder(&self) }

    /// Wraps an already-built `parameters` object (e.g. from a JSON command).
    public init(parameters: JSONObject) { extra = parameters }

    /// The `payload.parameters` object: builder fields over `extra`, nested objects merged.
    public var parameters: JSONObject {
        var object = extra
        func merge(_ key: String, _ built: JSONObject?) {
            guard let built else { return }
            var base = object[key]?.objectValue ?? [:]
            for (name, value) in built { base[name] = value }
            object[key] = .object(base)
        }
        merge("upstream", upStream?.json)
        merge("downstream", downStream?.json)
        merge("client_info", clientInfo?.json)
        merge("biz_params", bizParams?.json)
        if let images { object["images"] = .array(images) }
        return object
    }
}
