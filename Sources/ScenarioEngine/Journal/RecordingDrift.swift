package import ProtocolModel
package import WireJSON

/// Two recordings of the same flow compared (`mock-server compare-recordings OLD NEW`): what
/// the server now sends differently. The server frames of both are aligned by message name
/// (longest common subsequence); the report lists frames only one has (order), message members
/// that appeared, vanished or changed type (fields: paths and JSON types, not values, since ids
/// and text differ every run) and frames whose delay after the client frame they followed moved
/// by more than the tolerance (timing).
package struct RecordingDrift {
    /// The report (JSON).
    package let report: JSONValue
    /// Whether anything drifted: a frame added or removed, a field change, a timing change.
    package let drifted: Bool

    /// One server frame: its name, JSON, and delay after the client frame before it.
    struct ServerFrame {
        let name: String
        let json: JSONValue?
        let delayMicros: Int64
    }

    package init(old: [JournalEntry], new: [JournalEntry], toleranceMicros: Int64 = 50_000) {
        let before = Self.serverFrames(old)
        let after = Self.serverFrames(new)
        let pairs = Self.align(before.map(\.name), after.map(\.name))
        let matchedOld = Set(pairs.map(\.0))
        let matchedNew = Set(pairs.map(\.1))
        let removed = before.indices.filter { !matchedOld.contains($0) }.map { before[$0].name }
        let added = after.indices.filter { !matchedNew.contains($0) }.map { after[$0].name }

        var fields: [String: (added: Set<String>, removed: Set<String>, retyped: Set<String>)] = [:]
        var delays: [String: (old: [Int64], new: [Int64])] = [:]
        var differences: [Int64] = []
        for (i, j) in pairs {
            let (a, b) = (before[i], after[j])
            let oldShape = Self.shape(a.json)
            let newShape = Self.shape(b.json)
            var change = fields[a.name] ?? ([], [], [])
            change.added.formUnion(Set(newShape.keys).subtracting(oldShape.keys))
            change.removed.formUnion(Set(oldShape.keys).subtracting(newShape.keys))
            change.retyped.formUnion(oldShape.keys.filter { newShape[$0] != nil && newShape[$0] != oldShape[$0] })
            fields[a.name] = change
            delays[a.name, default: ([], [])].old.append(a.delayMicros)
            delays[a.name, default: ([], [])].new.append(b.delayMicros)
            differences.append(abs(b.delayMicros - a.delayMicros))
        }
        let fieldChanges: [JSONValue] = fields.keys.sorted().compactMap { name in
            let change = fields[name]!
            guard !change.added.isEmpty || !change.removed.isEmpty || !change.retyped.isEmpty else { return nil }
            return [
                "event": .string(name), "added": .array(change.added.sorted().map(JSONValue.string)),
                "removed": .array(change.removed.sorted().map(JSONValue.string)),
                "typeChanged": .array(change.retyped.sorted().map(JSONValue.string)),
            ]
        }
        let timingChanges: [JSONValue] = delays.keys.sorted().compactMap { name in
            let (was, now) = (Self.median(delays[name]!.old), Self.median(delays[name]!.new))
            guard abs(now - was) > toleranceMicros else { return nil }
            return ["event": .string(name), "oldMedianUs": .int(was), "newMedianUs": .int(now)]
        }
        let sorted = differences.sorted()
        let percentile = { (p: Double) -> Int64 in
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
        }
        drifted = !removed.isEmpty || !added.isEmpty || !fieldChanges.isEmpty || !timingChanges.isEmpty
        report = [
            "drifted": .bool(drifted),
            "summary": [
                "oldFrames": .int(Int64(before.count)), "newFrames": .int(Int64(after.count)),
                "matched": .int(Int64(pairs.count)), "orderChanges": .int(Int64(removed.count + added.count)),
                "fieldChanges": .int(Int64(fieldChanges.count)), "timingChanges": .int(Int64(timingChanges.count)),
            ],
            "order": ["removed": Self.counts(removed), "added": Self.counts(added)],
            "fields": .array(fieldChanges),
            "timing": [
                "toleranceUs": .int(toleranceMicros), "p50Us": .int(percentile(0.5)), "p99Us": .int(percentile(0.99)),
                "maxUs": .int(sorted.last ?? 0), "events": .array(timingChanges),
            ],
        ]
    }

    static func serverFrames(_ journal: [JournalEntry]) -> [ServerFrame] {
        var anchor: Int64 = 0
        var frames: [ServerFrame] = []
        for entry in journal {
            if entry.isFrame(.in) { anchor = entry.t }
            guard entry.isFrame(.out) else { continue }
            frames.append(
                ServerFrame(name: Scenario.replayName(of: entry), json: entry.json, delayMicros: entry.t - anchor))
        }
        return frames
    }

    /// Index pairs of a longest common subsequence of the two name lists.
    static func align(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        let width = b.count + 1
        var table = [Int32](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i * width + j] =
                    a[i] == b[j]
                    ? table[(i + 1) * width + j + 1] + 1 : max(table[(i + 1) * width + j], table[i * width + j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }

    /// Every leaf path of a frame (array elements as `*`; an empty array has none) with its JSON type.
    static func shape(_ value: JSONValue?, path: String = "", into result: [String: String] = [:]) -> [String: String] {
        var result = result
        switch value {
        case nil: break
        case .object(let object)?:
            if object.keys.isEmpty { result[path.isEmpty ? "/" : path] = "object" }
            for key in object.keys { result = shape(object[key], path: path + "/" + key, into: result) }
        case .array(let elements)?:
            for element in elements { result = shape(element, path: path + "/*", into: result) }
        case .string?: result[path] = "string"
        case .int?, .double?: result[path] = "number"
        case .bool?: result[path] = "boolean"
        case .null?: result[path] = "null"
        }
        return result
    }

    static func median(_ values: [Int64]) -> Int64 {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func counts(_ names: [String]) -> JSONValue {
        var object: JSONObject = [:]
        for name in names { object[name] = .int((object[name]?.intValue ?? 0) + 1) }
        return .object(object)
    }
}
