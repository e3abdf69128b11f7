internal import CJansson

extension JSONValue {
    /// Decodes any JSON text (objects, arrays and bare scalars at the top level) with Jansson.
    ///
    /// Integers that fit `Int64` stay exact (`.int`); integer literals beyond `Int64` become
    /// `.double` (Jansson rejects them with "too big integer"; see ``OverflowingIntegerRewrite``).
    /// Jansson limits nesting to 2048 levels; deeper input is an error, not a crash.
    /// - Throws: ``JSONDecodeError`` with Jansson's line, column, byte position and text.
    public static func decode(_ bytes: [UInt8], options: JSONDecodeOptions = []) throws(JSONDecodeError) -> JSONValue {
        if let flat = FlatObjectScanner.scan(bytes) { return flat }
        return try decodeWithJansson(bytes, options: options)
    }

    /// Decodes with Jansson alone, never through the flat-object fast path: the reference the
    /// fast path must agree with (the `wire-json` fuzz target compares them).
    package static func decodeWithJansson(
        _ bytes: [UInt8], options: JSONDecodeOptions = []
    ) throws(JSONDecodeError) -> JSONValue {
        var flags = Int(JSON_DECODE_ANY)
        if options.contains(.rejectDuplicateKeys) { flags |= Int(JSON_REJECT_DUPLICATES) }
        if options.contains(.allowNul) { flags |= Int(JSON_ALLOW_NUL) }

        switch load(bytes, flags: flags) {
        case .success(let value):
            return value
        case .failure(let failure) where failure.isNumericOverflow:
            // Only the rare input with a huge integer pays for the second pass.
            let rewrite = OverflowingIntegerRewrite(bytes)
            switch load(rewrite.bytes, flags: flags) {
            case .success(let value): return value
            case .failure(let second): throw rewrite.originalError(for: second.error, in: bytes)
            }
        case .failure(let failure):
            throw failure.error
        }
    }

    /// Decodes the UTF-8 bytes of `text`; see ``decode(_:options:)-([UInt8],_)``.
    public static func decode(_ text: String, options: JSONDecodeOptions = []) throws(JSONDecodeError) -> JSONValue {
        try decode(Array(text.utf8), options: options)
    }

    private struct LoadFailure: Error {
        let error: JSONDecodeError
        let isNumericOverflow: Bool
    }

    private static func load(_ bytes: [UInt8], flags: Int) -> Result<JSONValue, LoadFailure> {
        var error = json_error_t()
        // json_loadb rejects a NULL buffer, which an empty array may hand out; use one byte instead.
        let root: UnsafeMutablePointer<json_t>? =
            if bytes.isEmpty {
                withUnsafePointer(to: CChar(0)) { json_loadb($0, 0, flags, &error) }
            } else {
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, flags, &error) }
                }
            }
        guard let root else {
            let message = withUnsafeBytes(of: error.text) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            let decodeError = JSONDecodeError(
                line: Int(error.line), column: Int(error.column), position: Int(error.position), message: message)
            let isNumericOverflow = json_error_code(&error) == json_error_numeric_overflow
            return .failure(LoadFailure(error: decodeError, isNumericOverflow: isNumericOverflow))
        }
        defer { json_decref(root) }
        return .success(JanssonTreeReader.value(of: root))
    }
}
