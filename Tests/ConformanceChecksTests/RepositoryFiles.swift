import ConformanceChecks
import ConformanceHarness
import Foundation
import WireJSON

/// The repository's conformance tree (and shipped scenario names) for the suite tests.
enum RepositoryFiles {
    /// The repository root, located from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `conformance/**` and `mock-server/scenarios/*.json`, read once (as `conformance` reads them).
    static let files: SuiteFiles = (try? SuiteDirectoryReader.read(root: root)) ?? SuiteFiles()

    /// The real message schemas, completed by minimal stand-ins for the ones the suite's
    /// `matchesSchema` checks name while conformance/protocols is being written.
    static let schemas: MessageSchemaCatalog = {
        var files = RepositoryFiles.files
        for (key, text) in fallbackSchemas where files.files["conformance/protocols/\(key).json"] == nil {
            files.files["conformance/protocols/\(key).json"] = Array(text.utf8)
        }
        return SuiteLoader(files: files).messageSchemas()
    }()

    static let fallbackSchemas: [String: String] = [
        "multimodal-dialog/client/Start": """
        {"type":"object","required":["header","payload"],"properties":{
          "header":{"type":"object","required":["action","task_id","streaming"],"properties":{"action":{"const":"run-task"}}},
          "payload":{"type":"object","required":["task_group","task","function","input","parameters"],"properties":{
            "input":{"type":"object","required":["directive","app_id","workspace_id"],"properties":{"app_id":{"type":"string","minLength":1}}},
            "parameters":{"type":"object","required":["upstream","client_info"]}}}}}
        """,
        "qwen-realtime/client/session.update": """
        {"type":"object","required":["type","session"],"properties":{"type":{"const":"session.update"},
          "session":{"type":"object","properties":{"turn_detection":{"type":["object","null"],
            "properties":{"silence_duration_ms":{"type":"integer","minimum":200,"maximum":6000}}}}}}}
        """,
        "qwen-realtime/client/conversation.item.create": """
        {"type":"object","required":["type","item"],"properties":{"type":{"const":"conversation.item.create"},
          "item":{"type":"object","required":["type"]}}}
        """,
    ]
}
