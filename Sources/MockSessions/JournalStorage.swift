import ProtocolModel
import WireJSON

/// How a ``SessionJournal`` keeps its entries in memory, compactly: a streaming session journals
/// every frame, and at thousands of sessions the journals are most of the server's memory.
///
/// - A frame entry of common members only (time, direction, kind, length, event type, audio
///   summary with its level: every audio frame) is one fixed 40-byte record; event types and
///   codecs are kept once per journal and referred to by number (a 128-byte ``JournalEntry``
///   plus a heap string for an event type of 16 bytes or more before).
/// - A text frame whose JSON the journal keeps is kept as its wire bytes, the bytes the JSON
///   was parsed from (or encoded to), not as the parsed tree (several times their size): it is
///   parsed again when read. The line it gives is the same: the journal line encodes that
///   parse either way.
/// - Every other entry (states, faults, violations, closes, reports, raw text, payloads) is
///   kept as it is.
///
/// Reading (``entry(at:)``, ``entries(from:)``) gives back entries equal to those appended.
struct JournalStorage: Sendable {
    /// One entry: a frame's common members in place, or where the rest of it is kept.
    private struct Record: Sendable {
        var t: Int64
        var durationMs: Double
        /// The frame's byte length; for a kept entry its index in `kept`.
        var byteLength: Int32
        /// Codec frames of the audio summary; for a JSON frame the index of its bytes in `texts`.
        var frames: Int32
        var sampleRate: Int32
        var level: AudioLevel
        /// 1 + the index in `names`; 0: none.
        var eventType: UInt16
        /// 1 + the index in `names` of the audio summary's codec; 0: no audio summary.
        var codec: UInt16
        var flags: Flags
    }

    private struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        static let inbound = Flags(rawValue: 1 << 0)
        static let outbound = Flags(rawValue: 1 << 1)
        static let binary = Flags(rawValue: 1 << 2)
        static let hasByteLength = Flags(rawValue: 1 << 3)
        static let hasSampleRate = Flags(rawValue: 1 << 4)
        static let hasLevel = Flags(rawValue: 1 << 5)
        /// The entry is in `kept`.
        static let kept = Flags(rawValue: 1 << 6)
        /// A text frame whose JSON is in `texts`.
        static let jsonText = Flags(rawValue: 1 << 7)
    }

    private static let silent = AudioLevel(rmsDb: AudioLevel.floorDb, peakDb: AudioLevel.floorDb)

    private var records: [Record] = []
    private var kept: [JournalEntry] = []
    private var texts: [[UInt8]] = []
    private var names: [String] = []

    /// Entries appended.
    var count: Int { records.count }

    /// The last entry kept whole that `matches`, without rebuilding the frames (every entry that
    /// is not a frame is kept whole: notes, states, faults, reports).
    func lastKept(where matches: (JournalEntry) -> Bool) -> JournalEntry? { kept.last(where: matches) }

    /// Appends `entry`; `wireText` is the text frame's bytes when `entry.json` is their parse.
    /// Returns the bytes of memory it takes (an estimate: records, kept entries, the frames they
    /// hold, a new name).
    mutating func append(_ entry: JournalEntry, wireText: [UInt8]?) -> Int {
        let namesBefore = names.count
        guard let record = compact(entry, wireText: wireText) else {
            names.removeSubrange(namesBefore...)
            records.append(keptRecord(t: entry.t, index: kept.count))
            kept.append(entry)
            let frame = entry.json != nil ? entry.byteLength ?? 0 : entry.text?.utf8.count ?? 0
            // As before records existed: the entry (its record is the size of its slot) and the
            // frame it keeps.
            return MemoryLayout<JournalEntry>.stride + frame + (entry.payload?.count ?? 0)
        }
        records.append(record)
        var bytes = MemoryLayout<Record>.stride
        if record.flags.contains(.jsonText), let wireText {
            texts.append(Self.fitted(wireText))
            bytes += MemoryLayout<[UInt8]>.stride + 32 + wireText.count
        }
        for name in names[namesBefore...] { bytes += MemoryLayout<String>.stride + name.utf8.count }
        return bytes
    }

    /// `bytes`, or a copy of them without the spare capacity they were built with (a frame
    /// encoder reserves 256 bytes and doubles; a kept frame would hold up to twice its size).
    private static func fitted(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.capacity > bytes.count + 32 else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: bytes)
        }
    }

    /// The entry at `index` (0-based), as appended.
    func entry(at index: Int) -> JournalEntry {
        let record = records[index]
        let flags = record.flags
        if flags.contains(.kept) { return kept[Int(record.byteLength)] }
        var audio: AudioSummary?
        if record.codec > 0 {
            audio = AudioSummary(
                codec: names[Int(record.codec) - 1], durationMs: record.durationMs, frames: Int(record.frames),
                sampleRate: flags.contains(.hasSampleRate) ? Int(record.sampleRate) : nil,
                level: flags.contains(.hasLevel) ? record.level : nil)
        }
        // The bytes parsed when the frame was journaled: they parse again.
        let json = flags.contains(.jsonText) ? try? JSONValue.decode(texts[Int(record.frames)]) : nil
        return JournalEntry(
            t: record.t,
            direction: flags.contains(.inbound) ? .in : flags.contains(.outbound) ? .out : nil,
            kind: flags.contains(.binary) ? .binary : .text,
            byteLength: flags.contains(.hasByteLength) ? Int(record.byteLength) : nil,
            eventType: record.eventType > 0 ? names[Int(record.eventType) - 1] : nil, json: json, audio: audio)
    }

    /// The entries from `from` on (0-based; past the end: none).
    func entries(from: Int) -> [JournalEntry] {
        guard from < records.count else { return [] }
        return (max(0, from)..<records.count).map(entry(at:))
    }

    /// The index in `kept` is stored in `byteLength`.
    private func keptRecord(t: Int64, index: Int) -> Record {
        Record(
            t: t, durationMs: 0, byteLength: Int32(truncatingIfNeeded: index), frames: 0, sampleRate: 0,
            level: Self.silent, eventType: 0, codec: 0, flags: .kept)
    }

    /// The record of a frame entry of common members only; nil for any other entry (or a
    /// value out of a record's range).
    private mutating func compact(_ entry: JournalEntry, wireText: [UInt8]?) -> Record? {
        guard entry.kind == .text || entry.kind == .binary, !entry.hasRareMembers else { return nil }
        var flags: Flags = entry.kind == .binary ? .binary : []
        switch entry.direction {
        case .in: flags.insert(.inbound)
        case .out: flags.insert(.outbound)
        case nil: break
        }
        var record = Record(
            t: entry.t, durationMs: 0, byteLength: 0, frames: 0, sampleRate: 0, level: Self.silent, eventType: 0,
            codec: 0, flags: [])
        if let byteLength = entry.byteLength {
            guard let narrow = Int32(exactly: byteLength) else { return nil }
            record.byteLength = narrow
            flags.insert(.hasByteLength)
        }
        if let eventType = entry.eventType {
            guard let number = nameNumber(eventType) else { return nil }
            record.eventType = number
        }
        if entry.json != nil {
            // The tree is kept as the bytes it was parsed from; an audio summary beside it
            // (`--journal-audio`) keeps the whole entry.
            guard wireText != nil, entry.kind == .text, entry.audio == nil, let index = Int32(exactly: texts.count)
            else { return nil }
            record.frames = index
            flags.insert(.jsonText)
        } else if let audio = entry.audio {
            guard let codec = nameNumber(audio.codec), let frames = Int32(exactly: audio.frames) else { return nil }
            record.codec = codec
            record.frames = frames
            record.durationMs = audio.durationMs
            if let sampleRate = audio.sampleRate {
                guard let narrow = Int32(exactly: sampleRate) else { return nil }
                record.sampleRate = narrow
                flags.insert(.hasSampleRate)
            }
            if let level = audio.level {
                record.level = level
                flags.insert(.hasLevel)
            }
        }
        record.flags = flags
        return record
    }

    /// 1 + the index of `name` in `names`, added when new; nil when the table is full.
    private mutating func nameNumber(_ name: String) -> UInt16? {
        if let index = names.firstIndex(of: name) { return UInt16(index + 1) }
        guard names.count < Int(UInt16.max) else { return nil }
        names.append(name)
        return UInt16(names.count)
    }
}
