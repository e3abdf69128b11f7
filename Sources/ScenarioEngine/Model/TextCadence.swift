/// How answer text is streamed: time to first token and tokens per second.
package struct TextCadence: Sendable, Hashable {
    /// How text is cut into tokens.
    package enum Tokenization: String, Sendable, Hashable, CaseIterable {
        /// Words with their trailing spaces; each CJK character is its own token.
        case auto
        /// Whitespace-separated words (with their trailing whitespace).
        case words
        /// Every character is a token.
        case characters
    }

    /// Delay before the first token, in milliseconds.
    package var timeToFirstTokenMs: Double
    /// Tokens per second after the first.
    package var tokensPerSecond: Double
    /// How text is cut into tokens.
    package var tokenization: Tokenization

    /// Creates a cadence.
    package init(timeToFirstTokenMs: Double = 250, tokensPerSecond: Double = 20, tokenization: Tokenization = .auto) {
        self.timeToFirstTokenMs = timeToFirstTokenMs
        self.tokensPerSecond = tokensPerSecond
        self.tokenization = tokenization
    }

    /// One streamed piece of text.
    package struct Piece: Sendable, Hashable {
        /// The token text; all pieces concatenate to the original text.
        package var text: String
        /// When to send it, relative to the start of the answer, in microseconds.
        package var sendOffsetMicros: Int64
    }

    /// The pieces of `text`: token `i` is sent at `ttft + i / tokensPerSecond`.
    package func pieces(of text: String) -> [Piece] {
        let tokens = Tokenizer.tokens(of: text, rule: tokenization)
        let first = timeToFirstTokenMs * 1000
        let interval = 1_000_000 / tokensPerSecond
        return tokens.enumerated().map { index, token in
            Piece(text: token, sendOffsetMicros: Int64((first + Double(index) * interval).rounded()))
        }
    }
}
