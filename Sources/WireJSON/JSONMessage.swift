/// A JSON message as it came off the wire: the exact bytes and the value decoded from them.
///
/// Forward or record ``bytes``; never compare a re-encoding with the original (Jansson's output
/// differs in spacing and number spelling).
public struct JSONMessage: Sendable {
    /// The original bytes, unchanged.
    public let bytes: [UInt8]
    /// The decoded value.
    public let value: JSONValue

    /// Decodes `bytes` and keeps them.
    /// - Throws: ``JSONDecodeError`` if the bytes are not JSON.
    public init(bytes: [UInt8], options: JSONDecodeOptions = []) throws(JSONDecodeError) {
        self.bytes = bytes
        self.value = try JSONValue.decode(bytes, options: options)
    }

    /// Decodes the UTF-8 bytes of `text` and keeps them.
    public init(text: String, options: JSONDecodeOptions = []) throws(JSONDecodeError) {
        try self.init(bytes: Array(text.utf8), options: options)
    }

    /// The bytes as text (invalid UTF-8 cannot occur: Jansson rejects it).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
