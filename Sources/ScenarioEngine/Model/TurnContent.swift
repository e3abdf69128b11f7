package import WireJSON

/// What the server says in one turn: the user transcript it reports, the answer, its audio,
/// commands, function calls and errors. Values are final: placeholders are substituted.
package struct TurnContent: Sendable, Hashable {
    /// The answer audio to produce.
    package enum Audio: Sendable, Hashable {
        /// Synthesized voice-like audio whose length follows the spoken text at `rate`
        /// (1.0 = normal speaking rate, 2.0 = twice as fast).
        case synthesized(rate: Double)
        /// A fixture file (WAV/PCM) inside the scenario's folder, relative to it
        /// (``staysInside(_:)``; the renderer also refuses one that a symlink leads out of it).
        case file(path: String)
        /// No audio (text-only answer).
        case none

        /// Whether a fixture path names a file inside its scenario's folder: relative, and no
        /// `..` climbs above the folder (`a/../b.wav` is fine, `../b.wav` is not).
        package static func staysInside(_ path: String) -> Bool {
            guard !path.isEmpty, !path.hasPrefix("/") else { return false }
            var depth = 0
            for component in path.split(separator: "/", omittingEmptySubsequences: true) {
                if component == ".." { depth -= 1 } else if component != "." { depth += 1 }
                if depth < 0 { return false }
            }
            return depth > 0
        }
    }

    /// smart_turn classification of the user's segment (Qwen audio profile).
    package enum Intent: String, Sendable, Hashable, CaseIterable {
        /// A real turn: transcript, commit and answer.
        case valid
        /// A filler ("嗯"): only ambient transcription events, no answer, no barge-in.
        case filler
        /// Not a turn: `speech_stopped{reason:"turn_invalid"}` and nothing else.
        case invalid
    }

    /// A function call the answer makes (Qwen realtime).
    package struct FunctionCall: Sendable, Hashable {
        /// The tool name.
        package var name: String
        /// The arguments object; sent serialized as a JSON string.
        package var arguments: JSONValue
        /// A fixed call id, or `nil` to have the engine generate `call_…`.
        package var callId: String?

        /// Creates a function call.
        package init(name: String, arguments: JSONValue = .object([:]), callId: String? = nil) {
            self.name = name
            self.arguments = arguments
            self.callId = callId
        }
    }

    /// The user's words the server reports as recognised.
    package var transcript: String
    /// The answer text (multimodal `text`, Qwen transcript / text deltas).
    package var answer: String
    /// The text actually spoken (multimodal `spoken`); defaults to the answer.
    package var spoken: String
    /// The answer audio.
    package var audio: Audio
    /// Multimodal `extra_info.commands` as JSON (array or object); the engine serializes it
    /// into a JSON *string* on the wire.
    package var commands: JSONValue?
    /// Multimodal `extra_info` fields sent as given in the final RespondingContent:
    /// `agent_info`, `tool_calls`, `dialog_debug`, `timestamps` (scenario key `extraInfo`).
    package var extraInfo: JSONObject?
    /// Function calls the answer makes (Qwen realtime).
    package var functionCalls: [FunctionCall]
    /// Errors to send during this turn.
    package var errors: [ErrorSpec]
    /// smart_turn classification.
    package var intent: Intent
    /// The language the recogniser reports for the user's words (Qwen `language`, e.g. `en`);
    /// `nil`: the session's `input_audio_transcription.language`, else `zh`.
    package var language: String?
    /// The emotion the recogniser reports (Qwen omni `emotion`, e.g. `happy`); `nil`: `neutral`.
    package var emotion: String?

    /// Creates turn content; `spoken` defaults to `answer`.
    package init(
        transcript: String = "", answer: String = "", spoken: String? = nil,
        audio: Audio = .synthesized(rate: 1), commands: JSONValue? = nil,
        functionCalls: [FunctionCall] = [], errors: [ErrorSpec] = [], intent: Intent = .valid
    ) {
        self.transcript = transcript
        self.answer = answer
        self.spoken = spoken ?? answer
        self.audio = audio
        self.commands = commands
        self.extraInfo = nil
        self.functionCalls = functionCalls
        self.errors = errors
        self.intent = intent
        self.language = nil
        self.emotion = nil
    }

    /// The length of synthesized answer audio in microseconds (0 for files and no audio,
    /// whose length the server measures).
    package var synthesizedDurationMicros: Int64 {
        guard case .synthesized(let rate) = audio else { return 0 }
        return Tokenizer.speakingDurationMicros(of: spoken, rate: rate)
    }

    /// A copy with every `${name}` in its strings replaced from `variables`.
    package func substituting(_ variables: [String: String]) -> TurnContent {
        guard !variables.isEmpty else { return self }
        var copy = self
        copy.transcript = Placeholders.substitute(transcript, variables)
        copy.answer = Placeholders.substitute(answer, variables)
        copy.spoken = Placeholders.substitute(spoken, variables)
        copy.commands = commands.map { Placeholders.substitute($0, variables) }
        copy.functionCalls = functionCalls.map { call in
            var call = call
            call.arguments = Placeholders.substitute(call.arguments, variables)
            return call
        }
        copy.errors = errors.map { error in
            var error = error
            error.message = Placeholders.substitute(error.message, variables)
            return error
        }
        return copy
    }
}
