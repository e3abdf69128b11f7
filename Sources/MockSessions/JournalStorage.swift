import ProtocolModel
import WireCompression
import WireJSON

/// How a ``SessionJournal`` keeps its entries in memory, compactly: a streaming session journals
/// every frame, and at thousands of sessions the journals are most of the server's memory.
///
/// - A frame entry of common members only (time, direction, kind, length, event type, audio
///   summary with its level: every audio frame) is encoded into a byte log in a few bytes;
///   event types and codecs are kept once per journal and referred to by number.
/// - A text frame whose JSON the journal keeps is encoded as its wire bytes, the bytes the JSON
///   was parsed from (or encoded to), not as the parsed tree (several times their size): it is
///   parsed again when read. The line it gives is the same: the journal line encodes that
///   parse either way.
/// - The log is cut into blocks of about ``blockBytes``; a full block is compressed
///   (``BlockCompression``: a streaming session's JSON events and audio summaries take about a
///   quarter of their size), and so is the last one when the session closes.
/// - Every other entry (states, faults, violations, closes, reports, raw text, payloads) is
///   kept as it is; the log refers to it by number.
///
/// Reading (``entries(from:)``) gives back entries equal to those appended.
struct JournalStorage: Sendable {
    /// The encoded entries after which the open block is compressed. Smaller blocks compress
    /// less (4 KiB of Qwen events: 3.8×; 16 KiB: 5.8×) but an open block holds its entries
    /// uncompressed, and a streaming session always has one.
    static let blockBytes = 4096

    /// A sealed part of the log.
    private struct Block: Sendable {
        /// The index of its first entry.
        var firstEntry: Int
        /// The size of its encoded entries.
        var encodedCount: Int
        /// The encoded entries compressed; or as they are when compressing did not make them
        /// smaller (then `bytes.count == encodedCount`).
        var bytes: [UInt8]

        var encoded: [UInt8] {
            if bytes.count == encodedCount { return bytes }
            guard let restored = BlockCompression.decompress(bytes, originalCount: encodedCount) else {
                preconditionFailure("a journal block does not restore to its \(encodedCount) bytes")
            }
            return restored
        }
    }

    /// What an encoded entry has (a varint at its start).
    private struct Flags: OptionSet, Sendable {
        let rawValue: UInt64
        static let inbound = Flags(rawValue: 1 << 0)
        static let outbound = Flags(rawValue: 1 << 1)
        static let binary = Flags(rawValue: 1 << 2)
        static let byteLength = Flags(rawValue: 1 << 3)
        static let eventType = Flags(rawValue: 1 << 4)
        static let audio = Flags(rawValue: 1 << 5)
        static let sampleRate = Flags(rawValue: 1 << 6)
        static let level = Flags(rawValue: 1 << 7)
        /// A text frame whose JSON follows as its bytes.
        static let jsonText = Flags(rawValue: 1 << 8)
        /// The entry is in `kept`; its index follows.
        static let kept = Flags(rawValue: 1 << 9)
    }

    private var blocks: [Block] = []
    /// Encoded entries since the last sealed block.
    private var open: [UInt8] = []
    private var openFirstEntry = 0
    private var kept: [JournalEntry] = []
    private var names: [String] = []

    /// Entries appended.
    private(set) var count = 0

    /// The last entry kept whole that `matches`, without decoding the log (every entry that is
    /// not a frame is kept whole: notes, states, faults, reports).
    func lastKept(where matches: (JournalEntry) -> Bool) -> JournalEntry? { kept.last(where: matches) }

    /// Appends `entry`; `wireText` is the text frame's bytes when `entry.json` is their parse.
    /// Returns the change in bytes of memory it holds (an estimate: the encoded entry, a kept
    /// entry and what it keeps, a new name; negative when a block was compressed).
    mutating func append(_ entry: JournalEntry, wireText: [UInt8]?) -> Int {
        count += 1
        let before = open.count
        let namesBefore = names.count
        if open.isEmpty { open.reserveCapacity(Self.blockBytes / 4) }
        // `encode` writes nothing to `open` before it can refuse; a name it added is taken back.
        guard encode(entry, wireText: wireText) else {
            names.removeSubrange(namesBefore...)
            Self.write(Flags.kept.rawValue, to: &open)
            Self.write(signed: entry.t, to: &open)
            Self.write(UInt64(kept.count), to: &open)
            kept.append(entry)
            let frame = entry.json != nil ? entry.byteLength ?? 0 : entry.text?.utf8.count ?? 0
            // The entry and the frame it keeps (its few bytes in the log are not counted).
            return MemoryLayout<JournalEntry>.stride + frame + (entry.payload?.count ?? 0) + sealIfFull()
        }
        var bytes = open.count - before
        for name in names[namesBefore...] { bytes += MemoryLayout<String>.stride + name.utf8.count }
        return bytes + sealIfFull()
    }

    /// Compresses the open block, however full (the session closed: it grows no more).
    /// Returns the change in bytes held.
    mutating func seal() -> Int {
        guard !open.isEmpty else { return 0 }
        let encodedCount = open.count
        let compressed = open.withUnsafeBytes { BlockCompression.compress($0) }
        blocks.append(Block(firstEntry: openFirstEntry, encodedCount: encodedCount, bytes: compressed ?? open))
        open = []
        openFirstEntry = count
        return (compressed?.count ?? encodedCount) - encodedCount
    }

    private mutating func sealIfFull() -> Int { open.count >= Self.blockBytes ? seal() : 0 }

    /// The entries from `from` on (0-based; past the end: none).
    func entries(from: Int) -> [JournalEntry] {
        let from = max(0, from)
        guard from < count else { return [] }
        var result: [JournalEntry] = []
        result.reserveCapacity(count - from)
        // The last block starting at or before `from`, then every one after it.
        var first = blocks.count
        while first > 0 && blocks[first - 1].firstEntry > from { first -= 1 }
        if first > 0 { first -= 1 }
        if from >= openFirstEntry { first = blocks.count }
        for block in blocks[first...] {
            decode(block.encoded, firstEntry: block.firstEntry, from: from, into: &result)
        }
        decode(open, firstEntry: openFirstEntry, from: from, into: &result)
        return result
    }

    // MARK: - Encoding

    /// Encodes a frame entry of common members only into `open`; false, with nothing written
    /// (a name may have been added), for any other entry.
    private mutating func encode(_ entry: JournalEntry, wireText: [UInt8]?) -> Bool {
        guard entry.kind == .text || entry.kind == .binary, !entry.hasRareMembers else { return false }
        var flags: Flags = entry.kind == .binary ? .binary : []
        switch entry.direction {
        case .in: flags.insert(.inbound)
        case .out: flags.insert(.outbound)
        case nil: break
        }
        var text: [UInt8]?
        if entry.json != nil {
            // The tree is kept as the bytes it was parsed from; an audio summary beside it
            // (`--journal-audio`) keeps the whole entry.
            guard let wireText, entry.kind == .text, entry.audio == nil else { return false }
            text = wireText
            flags.insert(.jsonText)
        }
        var eventType = 0
        if let name = entry.eventType {
            guard let number = nameNumber(name) else { return false }
            eventType = number
            flags.insert(.eventType)
        }
        var codec = 0
        if let audio = entry.audio {
            guard let number = nameNumber(audio.codec) else { return false }
            codec = number
            flags.insert(.audio)
            if audio.sampleRate != nil { flags.insert(.sampleRate) }
            if audio.level != nil { flags.insert(.level) }
        }
        if entry.byteLength != nil { flags.insert(.byteLength) }
        Self.write(flags.rawValue, to: &open)
        Self.write(signed: entry.t, to: &open)
        if let byteLength = entry.byteLength { Self.write(signed: Int64(byteLength), to: &open) }
        if flags.contains(.eventType) { Self.write(UInt64(eventType), to: &open) }
        if let audio = entry.audio {
            Self.write(UInt64(codec), to: &open)
            Self.write(signed: Int64(audio.frames), to: &open)
            // Byte-swapped, a duration with a short mantissa (100, 20.5) takes 2 or 3 bytes.
            Self.write(audio.durationMs.bitPattern.byteSwapped, to: &open)
            if let sampleRate = audio.sampleRate { Self.write(signed: Int64(sampleRate), to: &open) }
            if let level = audio.level { Self.write(UInt64(level.packed), to: &open) }
        }
        if let text {
            Self.write(UInt64(text.count), to: &open)
            open.append(contentsOf: text)
        }
        return true
    }

    /// 1 + the index of `name` in `names`, added when new; nil when the table is full.
    private mutating func nameNumber(_ name: String) -> Int? {
        if let index = names.firstIndex(of: name) { return index + 1 }
        guard names.count < Int(UInt16.max) else { return nil }
        names.append(name)
        return names.count
    }

    /// LEB128: seven bits a byte, low first.
    private static func write(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Zigzag, then LEB128: small magnitudes of either sign take few bytes.
    private static func write(signed value: Int64, to bytes: inout [UInt8]) {
        write(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    // MARK: - Decoding

    /// Appends the entries encoded in `bytes` (the first of them being entry `firstEntry`) from
    /// entry `from` on to `result`.
    private func decode(_ bytes: [UInt8], firstEntry: Int, from: Int, into result: inout [JournalEntry]) {
        var reader = Reader(bytes: bytes)
        var index = firstEntry
        while !reader.isAtEnd {
            let entry = decodeEntry(&reader, building: index >= from)
            if let entry { result.append(entry) }
            index += 1
        }
    }

    /// The next entry of `reader`; nil (its bytes skipped) when not `building`.
    private func decodeEntry(_ reader: inout Reader, building: Bool) -> JournalEntry? {
        let flags = Flags(rawValue: reader.read())
        let t = reader.readSigned()
        if flags.contains(.kept) {
            let index = Int(reader.read())
            return building ? kept[index] : nil
        }
        let byteLength = flags.contains(.byteLength) ? Int(reader.readSigned()) : nil
        let eventType = flags.contains(.eventType) ? names[Int(reader.read()) - 1] : nil
        var audio: AudioSummary?
        if flags.contains(.audio) {
            let codec = names[Int(reader.read()) - 1]
            let frames = Int(reader.readSigned())
            let durationMs = Double(bitPattern: reader.read().byteSwapped)
            let sampleRate = flags.contains(.sampleRate) ? Int(reader.readSigned()) : nil
            let level = flags.contains(.level) ? AudioLevel(packed: UInt32(truncatingIfNeeded: reader.read())) : nil
            audio = AudioSummary(
                codec: codec, durationMs: durationMs, frames: frames, sampleRate: sampleRate, level: level)
        }
        var json: JSONValue?
        if flags.contains(.jsonText) {
            let length = Int(reader.read())
            // The bytes parsed when the frame was journaled: they parse again.
            if building { json = reader.withBytes(length) { try? JSONValue.decode($0) } } else { reader.skip(length) }
        }
        guard building else { return nil }
        return JournalEntry(
            t: t,
            direction: flags.contains(.inbound) ? .in : flags.contains(.outbound) ? .out : nil,
            kind: flags.contains(.binary) ? .binary : .text,
            byteLength: byteLength, eventType: eventType, json: json, audio: audio)
    }

    /// Reads what ``JournalStorage/write(_:to:)`` wrote.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }

        mutating func read() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        mutating func readSigned() -> Int64 {
            let value = read()
            return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }

        mutating func skip(_ count: Int) { position += count }

        mutating func withBytes<Result>(_ count: Int, _ body: ([UInt8]) -> Result) -> Result {
            defer { position += count }
            return body(Array(bytes[position..<position + count]))
        }
    }
}
