import Glibc

/// How an engine fuzz target reads its bytes: records separated by `FF FE FD`, each led by an
/// operation byte. The format is loose on purpose, so that libFuzzer's byte mutations and
/// dictionary insertions stay meaningful: a record that is not one of these is a text frame.
///
/// - `T` + bytes: a text frame.
/// - `B` + bytes: a binary frame.
/// - `W` + one byte n: the client waits n × 20 ms (timers fire on the way).
/// - `C`: the client closes; later records are ignored.
/// - anything else: the whole record is a text frame.
///
/// The first byte of the input (before the first record) picks a variant (a model or
/// scenario) and is not part of any record.
package enum EngineInput {
    package static let separator: [UInt8] = [0xFF, 0xFE, 0xFD]

    package enum Step: Equatable, Sendable {
        case text([UInt8])
        case binary([UInt8])
        case wait(milliseconds: Int64)
        case close
    }

    /// The variant byte and the steps of `bytes`.
    package static func parse(_ bytes: [UInt8]) -> (variant: UInt8, steps: [Step]) {
        guard let variant = bytes.first else { return (0, []) }
        var steps: [Step] = []
        for record in split(bytes.dropFirst()) where !record.isEmpty {
            switch record.first {
            case UInt8(ascii: "T"): steps.append(.text(Array(record.dropFirst())))
            case UInt8(ascii: "B"): steps.append(.binary(Array(record.dropFirst())))
            case UInt8(ascii: "W"): steps.append(.wait(milliseconds: Int64(record.dropFirst().first ?? 1) * 20))
            case UInt8(ascii: "C"): steps.append(.close)
            default: steps.append(.text(Array(record)))
            }
        }
        return (variant, steps)
    }

    /// Encodes steps (the seed corpus writer and the regression tests use it).
    package static func encode(variant: UInt8, _ steps: [Step]) -> [UInt8] {
        var out: [UInt8] = [variant]
        for (index, step) in steps.enumerated() {
            if index > 0 { out += separator }
            switch step {
            case .text(let bytes): out += [UInt8(ascii: "T")] + bytes
            case .binary(let bytes): out += [UInt8(ascii: "B")] + bytes
            case .wait(let ms): out += [UInt8(ascii: "W"), UInt8(clamping: ms / 20)]
            case .close: out.append(UInt8(ascii: "C"))
            }
        }
        return out
    }

    /// Records between separators (memchr finds each candidate: the fuzzer runs this per input).
    private static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var records: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var from = start
        bytes.withUnsafeBufferPointer { buffer in
            let base = bytes.startIndex
            while from + separator.count <= bytes.endIndex {
                guard
                    let found = memchr(buffer.baseAddress! + (from - base), Int32(separator[0]), bytes.endIndex - from)
                else { break }
                let index = base + (buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self)))
                if index + separator.count <= bytes.endIndex, bytes[index + 1] == separator[1],
                    bytes[index + 2] == separator[2]
                {
                    records.append(bytes[start..<index])
                    start = index + separator.count
                    from = start
                } else {
                    from = index + 1
                }
            }
        }
        records.append(bytes[start...])
        return records
    }
}
