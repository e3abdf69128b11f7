import WireJSON

extension JournalEntry {
    /// The entry as one line of JSON Lines (compact JSON, no trailing newline). Written by the
    /// native compact writer (the bytes Jansson's compact dump gives, without building a Jansson
    /// tree and printing each real twice): journal dumps answer on a service thread.
    package var jsonLine: String {
        String(decoding: jsonValue.encoded(), as: UTF8.self)
    }

    /// A whole journal as JSON Lines: one entry per line, each line ending in `\n`.
    package static func encodeLines(_ entries: [JournalEntry]) -> String {
        var bytes: [UInt8] = []
        for entry in entries {
            entry.jsonValue.encode(into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a JSON Lines journal; blank lines are skipped.
    /// - Throws: ``JournalDecodingError`` naming the first bad line.
    package static func decodeLines(_ text: String) throws(JournalDecodingError) -> [JournalEntry] {
        var entries: [JournalEntry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\r" || $0 == "\t" }
            guard !trimmed.isEmpty else { continue }
            do {
                let value = try JSONValue.decode(String(line))
                entries.append(try JournalEntry(jsonValue: value))
            } catch let error as JSONDecodeError {
                throw JournalDecodingError(line: index + 1, message: error.message)
            } catch let error as JournalDecodingError {
                throw JournalDecodingError(line: index + 1, message: error.message)
            } catch {
                throw JournalDecodingError(line: index + 1, message: "\(error)")
            }
        }
        return entries
    }
}
