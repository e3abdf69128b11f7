import ProtocolModel
import ScenarioEngine
import WireJSON

/// The per-file lint rules of one case file (see ``SuiteLinter``).
struct CaseRules {
    var files: SuiteFiles
    var suite: LoadedSuite
    var document: SourceDocument
    /// The suite's spec document, indexed once for all its cases; nil when it is missing.
    var spec: SpecIndex?

    func check(seenIDs: inout [String: String]) -> [Diagnostic] {
        guard let value = document.value, let conformanceCase = try? ConformanceCase(jsonValue: value) else {
            return []
        }
        var found: [Diagnostic] = []
        let id = conformanceCase.id
        let prefix = suite.definition.prefix
        if let earlier = seenIDs[id] {
            found.append(document.diagnostic(["id"], "duplicate case id \(id) (also in \(earlier))"))
        } else {
            seenIDs[id] = document.path
        }
        if SuiteFiles.baseName(document.path) != id {
            found.append(
                document.diagnostic(
                    ["id"], "id \(id) does not match the file name \(SuiteFiles.baseName(document.path)).json"))
        }
        let parts = id.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let numberOK = parts.count == 3 && parts[2].count == 3 && parts[2].allSatisfy(\.isNumber)
        if parts.count != 3 || parts[0] != prefix || !numberOK || id != id.lowercased() {
            found.append(document.diagnostic(["id"], "id must be \(prefix).<section>.<nnn> in lower case; got \(id)"))
        } else {
            let folder = document.path.split(separator: "/").dropLast().last.map(String.init) ?? ""
            if !suite.definition.sections.contains(where: { $0.id == parts[1] }) {
                found.append(document.diagnostic(["id"], "section \(parts[1]) is not listed in suite.json"))
            } else if folder != parts[1] {
                found.append(document.diagnostic(["id"], "case of section \(parts[1]) is in folder \(folder)"))
            }
        }
        if conformanceCase.spec.doc != suite.definition.specDoc {
            found.append(
                document.diagnostic(
                    ["spec", "doc"],
                    "unknown spec document \(conformanceCase.spec.doc); the suite uses \(suite.definition.specDoc)"))
        }
        found += specRules(conformanceCase)
        let known = Set(suite.definition.obligations + ["schema"])
        for (offset, obligation) in conformanceCase.obligations.enumerated() where !known.contains(obligation) {
            found.append(document.diagnostic(["obligations", String(offset)], "unknown obligation id \(obligation)"))
        }
        for (offset, check) in conformanceCase.checks.enumerated() {
            if let obligation = check.obligation, !known.contains(obligation) {
                found.append(
                    document.diagnostic(
                        ["checks", String(offset), "obligation"], "unknown obligation id \(obligation)"))
            }
            if check.kind == "custom" {
                let name = check.source["name"]?.stringValue ?? ""
                found.append(
                    document.diagnostic(
                        ["checks", String(offset)], "custom check \(name) (keep custom checks rare)", severity: .note))
            }
        }
        found += scenarioRules(conformanceCase)
        found += modelRules(conformanceCase)
        if conformanceCase.status == .active {
            for kind in ["pass", "fail"] {
                let path = suite.examplePath(caseID: id, kind: kind)
                guard let text = files.text(path) else {
                    found.append(document.diagnostic(["id"], "missing example \(path)"))
                    continue
                }
                if case .failure(let error) = Result(catching: { () throws(TranscriptDecodingError) in
                    try Transcript(exampleText: text)
                }) {
                    found.append(Diagnostic(file: path, message: "bad example: \(error.message)"))
                }
            }
        }
        return found
    }

    /// The case's spec reference must resolve in the repository: the suite's spec document
    /// exists, has a heading with the cited section, and contains the quoted sentence
    /// (whitespace runs compared as one space), so every citation can be read in the repo.
    private func specRules(_ conformanceCase: ConformanceCase) -> [Diagnostic] {
        let path = suite.definition.specPath
        guard let spec else {
            return [document.diagnostic(["spec", "doc"], "the suite's spec document \(path) is not in the repository")]
        }
        var found: [Diagnostic] = []
        let section = conformanceCase.spec.section
        if !spec.headings.contains(section) {
            found.append(document.diagnostic(["spec", "section"], "\(path) has no heading \"\(section)\""))
        }
        if !spec.collapsedText.contains(Self.collapsed(conformanceCase.spec.quote)) {
            found.append(
                document.diagnostic(
                    ["spec", "quote"], "the quote is not in \(path) (compared with whitespace collapsed)"))
        }
        return found
    }

    /// `text` with every run of whitespace replaced by one space.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A case's model must be one its protocol serves: in the Qwen realtime suite a profile the
    /// mock knows (qwen-realtime.md §1: `qwen-audio-3.<n>-realtime[-suffix]` or
    /// `qwen…omni…realtime…`), in the Qwen-Audio-Live suite a live service model
    /// (qwen-audio-live.md §1.1: `qwen-audio-<d>.<d>-live[-suffix]`, never a frontend model).
    private func modelRules(_ conformanceCase: ConformanceCase) -> [Diagnostic] {
        let rule: (accepts: (String) -> Bool, names: String)
        switch suite.definition.prefix {
        case "qrt":
            rule = (
                { Self.qwenProfile(of: $0) != nil },
                "names no Qwen realtime profile (qwen-audio-3.<n>-realtime[-suffix] or qwen…omni…realtime)"
            )
        case "qal":
            rule = (
                QwenAudioLive.isServiceModel,
                "is not a Qwen-Audio-Live service model (qwen-audio-<d>.<d>-live[-suffix])"
            )
        default:
            return []
        }
        var models: [(tokens: [String], model: String)] = conformanceCase.model.map { [(["model"], $0)] } ?? []
        for (offset, variant) in conformanceCase.matrix.enumerated() {
            if let model = variant.model { models.append((["matrix", String(offset), "model"], model)) }
        }
        return models.filter { !rule.accepts($0.model) }.map {
            document.diagnostic($0.tokens, "model \($0.model) \(rule.names)")
        }
    }

    /// `audio`, `omni` or nil, by the model-name rules of qwen-realtime.md §1 / S1.
    static func qwenProfile(of model: String) -> String? {
        let audioPrefix = "qwen-audio-3."
        if model.hasPrefix(audioPrefix) {
            let rest = model.dropFirst(audioPrefix.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let tail = rest.dropFirst(digits.count)
            if !digits.isEmpty, tail == "-realtime" || tail.hasPrefix("-realtime-") { return "audio" }
            return nil
        }
        guard model.hasPrefix("qwen") else { return nil }
        let characters = Array(model)
        // `omni` somewhere, and `realtime` after it.
        for start in characters.indices where characters[start...].starts(with: "omni") {
            if String(characters[(start + 4)...]).split(separator: "-").contains(where: { $0.hasPrefix("realtime") }) {
                return "omni"
            }
        }
        return nil
    }

    private func scenarioRules(_ conformanceCase: ConformanceCase) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let names = [conformanceCase.scenario] + conformanceCase.matrix.compactMap(\.scenario)
        for name in names where !files.shippedScenarios.contains(name) && files.files[suite.scenarioPath(name)] == nil {
            found.append(
                document.diagnostic(
                    ["scenario"],
                    name.hasPrefix(LoadedSuite.recordedPrefix)
                        ? "recorded scenario \(suite.scenarioPath(name)) does not exist"
                        : "scenario \(name) is neither shipped (mock-server/scenarios) nor in \(suite.directory)/scenarios"
                ))
        }
        var faultLists: [(tokens: [String], faults: [JSONValue])] = [(["faults"], conformanceCase.faults)]
        for (offset, variant) in conformanceCase.matrix.enumerated() {
            if let faults = variant.faults { faultLists.append((["matrix", String(offset), "faults"], faults)) }
        }
        for (tokens, faults) in faultLists where !faults.isEmpty {
            let wrapper: JSONValue = .object(["name": "case-faults", "faults": .array(faults)])
            do {
                _ = try Scenario.parse(wrapper, file: document.path)
            } catch {
                let inner = Array(error.tokens.dropFirst())
                found.append(document.diagnostic(tokens + inner, "fault: \(error.message)"))
            }
        }
        return found
    }
}

/// A suite's spec document as the case rules read it, built once per lint: its headings (status
/// tags dropped, whitespace collapsed) and its text with whitespace collapsed. Per case, the
/// ~100 KB references took seconds in debug builds, and the lint tests starved every other
/// test of the parallel run.
struct SpecIndex {
    let headings: Set<String>
    let collapsedText: String

    init(text: String) {
        headings = Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
                let title = line.drop { $0 == "#" }.trimmingPrefix(" ")
                // A trailing status tag (`[documented: …]`) is not part of the title.
                let bare = title.firstRange(of: "  [").map { title[..<$0.lowerBound] } ?? title
                return CaseRules.collapsed(String(bare))
            })
        collapsedText = CaseRules.collapsed(text)
    }
}
