/// The provenance rules of `conformance lint` (issue 40): in a protocol reference, the "0.
/// Sources (keys)" table gives every key a kind, and every client obligation (`* **C7**`) and
/// server behaviour (`* **S4**`) carries a source tail (`— Sources: KEY, KEY; inferred (why).`)
/// naming only known keys; in `suite.json`, every obligation has sources, and they, its
/// `inferred` reason and its level agree with the reference's item and summary table.
struct ReferenceSources {
    /// The kinds a source key can have (the §0 table's Kind column).
    static let kinds: Set<String> = ["seed", "doc", "sdk", "recording"]

    /// One C or S item of the reference.
    struct Item {
        var id: String
        var line: Int
        var provenance: Provenance?
    }

    var path: String
    var keys: Set<String> = []
    var items: [String: Item] = [:]
    /// Summary-table levels by item id (`C3` → {MUST, SHOULD}).
    var levels: [String: Set<String>] = [:]
    var diagnostics: [Diagnostic] = []

    /// Reads `text` (the reference at `path`), collecting its own problems in ``diagnostics``.
    init(path: String, text: String) {
        self.path = path
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        readKeys(lines)
        readItems(lines)
        readLevels(lines)
    }

    private mutating func readKeys(_ lines: [String]) {
        guard let start = lines.firstIndex(where: { $0.hasPrefix("## 0. Sources") }) else {
            diagnostics.append(Diagnostic(file: path, message: "no \"## 0. Sources\" table"))
            return
        }
        var kindColumn: Int?
        for (offset, line) in lines[(start + 1)...].enumerated() {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("|") else { continue }
            let cells = Self.cells(line)
            if cells.first == "Key" {
                kindColumn = cells.firstIndex(of: "Kind")
                if kindColumn == nil {
                    diagnostics.append(
                        Diagnostic(
                            file: path, line: start + offset + 2, message: "the sources table needs a Kind column"))
                }
                continue
            }
            guard let key = cells.first, Provenance.isKey(Substring(key)) else { continue }
            keys.insert(key)
            if let kindColumn, kindColumn < cells.count, !Self.kinds.contains(cells[kindColumn]) {
                diagnostics.append(
                    Diagnostic(
                        file: path, line: start + offset + 2,
                        message: "source \(key) has kind \"\(cells[kindColumn])\"; expected one of "
                            + Self.kinds.sorted().joined(separator: ", ")))
            }
        }
    }

    private mutating func readItems(_ lines: [String]) {
        var current: Item?
        var tailSeen = false
        func finish(_ item: Item?) {
            guard let item else { return }
            if !tailSeen {
                diagnostics.append(
                    Diagnostic(
                        file: path, line: item.line,
                        message:
                            "\(item.id) has no source tail (\"\(Provenance.tailMarker) KEY, …\" or \"inferred (why)\")")
                )
            }
            items[item.id] = item
        }
        for (index, line) in lines.enumerated() {
            if let id = Self.itemID(line) {
                finish(current)
                current = Item(id: id, line: index + 1)
                tailSeen = false
            } else if line.hasPrefix("#") || line.hasPrefix("* ") || line.hasPrefix("|") {
                finish(current)
                current = nil
            }
            guard current != nil, !tailSeen, let marker = line.firstRange(of: Provenance.tailMarker) else { continue }
            tailSeen = true
            switch Provenance.parse(tail: String(line[marker.upperBound...])) {
            case .success(let provenance):
                current?.provenance = provenance
                for key in provenance.sources where !keys.contains(key) {
                    diagnostics.append(
                        Diagnostic(
                            file: path, line: index + 1, message: "unknown source key \(key) (not in the §0 table)"))
                }
                if provenance.inferred == "" {
                    diagnostics.append(
                        Diagnostic(
                            file: path, line: index + 1, message: "\"inferred\" needs its reason: inferred (why)"))
                }
            case .failure(let error):
                diagnostics.append(
                    Diagnostic(
                        file: path, line: index + 1,
                        message: "source tail entry \"\(error.entry)\" is neither a key nor inferred (why)"))
            }
        }
        finish(current)
    }

    private mutating func readLevels(_ lines: [String]) {
        for line in lines where line.hasPrefix("| C") {
            let cells = Self.cells(line)
            guard cells.count > 2, Self.isItemID(cells[0]) else { continue }
            let words = Set(["MUST", "SHOULD"].filter { cells[1].contains($0) })
            if !words.isEmpty { levels[cells[0]] = words }
        }
    }

    /// `C7` for a line `* **C7** …` (also `S4`).
    static func itemID(_ line: String) -> String? {
        guard line.hasPrefix("* **") else { return nil }
        let rest = line.dropFirst(4)
        guard let end = rest.firstRange(of: "**") else { return nil }
        let id = String(rest[..<end.lowerBound])
        return isItemID(id) ? id : nil
    }

    private static func isItemID(_ text: String) -> Bool {
        guard let first = text.first, first == "C" || first == "S" else { return false }
        return text.count > 1 && text.dropFirst().allSatisfy(\.isNumber)
    }

    private static func cells(_ line: String) -> [String] {
        line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
            $0.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacing("`", with: "")
        }
    }

    /// The suite's obligation table against this reference.
    func check(_ definition: SuiteDefinition, document: SourceDocument) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let prefix = definition.prefix + "."
        var listed: Set<String> = []
        for (offset, obligation) in definition.obligationTable.enumerated() {
            let at = ["obligations", String(offset)]
            let local = obligation.id.hasPrefix(prefix) ? String(obligation.id.dropFirst(prefix.count)) : obligation.id
            listed.insert(local)
            guard let provenance = obligation.provenance else {
                found.append(
                    document.diagnostic(
                        at, "obligation \(obligation.id) has no sources: write {\"id\", \"level\", \"sources\": [keys]}"
                    ))
                continue
            }
            if provenance.isEmpty {
                found.append(
                    document.diagnostic(
                        at + ["sources"], "obligation \(obligation.id) has no source: name a key or give \"inferred\""))
            }
            if provenance.inferred == "" {
                found.append(document.diagnostic(at + ["inferred"], "\"inferred\" needs its reason"))
            }
            for (index, key) in provenance.sources.enumerated() where !keys.contains(key) {
                found.append(
                    document.diagnostic(
                        at + ["sources", String(index)], "unknown source key \(key) (not in \(path) §0)"))
            }
            guard let item = items[local] else {
                found.append(document.diagnostic(at, "\(path) has no item \(local) for \(obligation.id)"))
                continue
            }
            if let stated = item.provenance,
                Set(stated.sources) != Set(provenance.sources) || stated.inferred != provenance.inferred
            {
                found.append(
                    document.diagnostic(
                        at + ["sources"],
                        "the sources of \(obligation.id) (\(provenance)) disagree with \(path):\(item.line) (\(stated))"
                    ))
            }
            if let level = obligation.level, let stated = levels[local],
                Set(level.split(separator: "+").map(String.init)) != stated
            {
                found.append(
                    document.diagnostic(
                        at + ["level"],
                        "level \(level) of \(obligation.id) disagrees with \(path)'s table "
                            + "(\(stated.sorted().joined(separator: "+")))"))
            }
            if obligation.level == nil {
                found.append(document.diagnostic(at, "obligation \(obligation.id) needs its \"level\""))
            }
        }
        for item in items.values.sorted(by: { $0.line < $1.line }) where item.id.hasPrefix("C") {
            if !listed.contains(item.id) {
                found.append(
                    Diagnostic(
                        file: path, line: item.line, message: "\(item.id) is not in \(document.path)'s obligations"))
            }
        }
        return found
    }
}
