internal import COpus

/// A libopus failure: the library's return code, its `opus_strerror` text and our context.
package struct OpusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A libopus error code; the constants keep libopus' own names (`opus_defines.h`), not
    /// lowerCamelCase.
    package struct Code: RawRepresentable, Hashable, Sendable {
        /// The raw C return value.
        package let rawValue: Int32
        /// Creates a code from its C value.
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// One or more invalid/out of range arguments.

        // swift-format-ignore: AlwaysUseLowerCamelCase
        package static let OPUS_BAD_ARG = Code(rawValue: -1)
        /// Not enough bytes allocated in the buffer.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package static let OPUS_BUFFER_TOO_SMALL = Code(rawValue: -2)
        /// An internal error was detected.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package static let OPUS_INTERNAL_ERROR = Code(rawValue: -3)
        /// The compressed data passed is corrupted.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package static let OPUS_INVALID_PACKET = Code(rawValue: -4)
        /// Invalid/unsupported request number.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package static let OPUS_UNIMPLEMENTED = Code(rawValue: -5)
        /// An encoder or decoder structure is invalid or already freed.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package static let OPUS_INVALID_STATE = Code(rawValue: -6)
        /// Memory allocation has failed.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package static let OPUS_ALLOC_FAIL = Code(rawValue: -7)
    }

    /// The libopus return code.
    package let code: Code
    /// `opus_strerror(code)`.
    package let message: String
    /// What we were doing, e.g. "opus_encode (320 samples)".
    package let context: String

    /// Wraps a libopus return code, looking up its text with `opus_strerror`.
    package init(code: Int32, context: String) {
        self.code = Code(rawValue: code)
        self.message = String(cString: opus_strerror(code))
        self.context = context
    }

    /// A readable one-line explanation.
    package var description: String {
        "\(context): \(message) (\(code.rawValue))"
    }
}
