import ScenarioEngine
import WireJSON

/// Token usage estimates for `response.done` (§5.1; note the spelling `input_tokens_details`).
/// Deterministic approximations: one token per streamed text token (CJK character or word),
/// 25 tokens per second of input audio, 12.5 per second of output audio.
enum Usage {
    /// Text tokens of `text`.
    static func textTokens(_ text: String) -> Int {
        Tokenizer.tokens(of: text, rule: .auto).filter { !$0.allSatisfy(\.isWhitespace) }.count
    }

    /// Text token counts already computed: every response counts the instructions and the
    /// history window again, and tokenizing costs more than a lookup. Bounded (cleared when full).
    struct TextTokenMemo: Sendable {
        private var counts: [String: Int] = [:]

        mutating func tokens(of text: String) -> Int {
            if let known = counts[text] { return known }
            if counts.count >= 256 { counts.removeAll(keepingCapacity: true) }
            let count = Usage.textTokens(text)
            counts[text] = count
            return count
        }
    }

    /// Tokens of `micros` of input audio.
    static func inputAudioTokens(micros: Int64) -> Int { Int(micros / 40_000) }

    /// Tokens of `micros` of output audio.
    static func outputAudioTokens(micros: Int64) -> Int { Int(micros / 80_000) }

    /// The `usage` object; `search` adds the web-search plugin entry of an `enable_search` session.
    static func json(
        inputText: Int, inputAudio: Int, outputText: Int, outputAudio: Int, search: SearchUse? = nil
    ) -> JSONValue {
        let input = inputText + inputAudio
        let output = outputText + outputAudio
        var usage: JSONObject = [
            "total_tokens": .int(Int64(input + output)),
            "input_tokens": .int(Int64(input)),
            "output_tokens": .int(Int64(output)),
            "input_tokens_details": ["text_tokens": .int(Int64(inputText)), "audio_tokens": .int(Int64(inputAudio))],
            "output_tokens_details": [
                "text_tokens": .int(Int64(outputText)), "audio_tokens": .int(Int64(outputAudio)),
            ],
        ]
        if let search {
            usage["plugins"] = ["search": ["count": .int(Int64(search.count)), "strategy": .string(search.strategy)]]
        }
        return .object(usage)
    }

    /// One answer's web searches (omni `enable_search`): DashScope bills them as a `search`
    /// plugin entry in `usage.plugins` next to the tokens.
    struct SearchUse: Sendable, Hashable {
        /// Searches made for the answer (the mock makes one per answer).
        var count = 1
        /// `search_options.search_strategy` (`turbo` by default).
        var strategy: String
    }
}
