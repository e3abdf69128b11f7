import Foundation
import Testing
import WireJSON

/// `conformance/protocols/<protocol>/asyncapi.json` is an AsyncAPI 3.0.0 document whose
/// messages reference the schema files.
@Suite("AsyncAPI documents")
struct AsyncAPITests {
    static func document(_ protocolName: String) throws -> JSONValue {
        try ProtocolFiles.readJSON("\(protocolName)/asyncapi.json")
    }

    @Test(arguments: ProtocolFiles.protocols)
    func hasTheAsyncAPI3Structure(protocolName: String) throws {
        let doc = try Self.document(protocolName)
        #expect(doc["asyncapi"] == .string("3.0.0"))
        #expect(doc["info"]?["title"]?.stringValue?.isEmpty == false)
        #expect(doc["info"]?["version"]?.stringValue?.isEmpty == false)
        let servers = try #require(doc["servers"]?.objectValue)
        #expect(!servers.keys.isEmpty)
        for (name, server) in servers {
            #expect(server["host"]?.stringValue != nil, "server \(name) has no host")
            #expect(["ws", "wss"].contains(server["protocol"]?.stringValue ?? ""), "server \(name) protocol")
            #expect(server["pathname"]?.stringValue?.hasPrefix("/api-ws/v1/") == true, "server \(name) pathname")
        }
        let channels = try #require(doc["channels"]?.objectValue)
        #expect(channels.keys.count == 1, "one channel per protocol")
        let operations = try #require(doc["operations"]?.objectValue)
        #expect(Set(operations.map { $0.value["action"]?.stringValue ?? "" }) == ["send", "receive"])
        for (name, operation) in operations {
            let channelRef = try #require(
                operation["channel"]?["$ref"]?.stringValue, "operation \(name) has no channel")
            #expect(try Self.resolveInternal(channelRef, in: doc) != nil, "operation \(name): \(channelRef)")
            for message in operation["messages"]?.arrayValue ?? [] {
                let ref = try #require(message["$ref"]?.stringValue)
                #expect(
                    ref.hasPrefix(channelRef + "/messages/"), "operation \(name) message \(ref) is not in its channel")
                #expect(try Self.resolveInternal(ref, in: doc) != nil, "operation \(name): \(ref)")
            }
        }
        #expect(doc["components"]?["messages"]?.objectValue?.keys.isEmpty == false)
    }

    /// Every `$ref` resolves: `#/…` inside the document, `./…` to an existing schema file.
    @Test(arguments: ProtocolFiles.protocols)
    func everyReferenceResolves(protocolName: String) throws {
        let doc = try Self.document(protocolName)
        let refs = ProtocolFiles.references(in: doc)
        #expect(refs.count > 20)
        for (pointer, ref) in refs {
            if ref.hasPrefix("#") {
                #expect(try Self.resolveInternal(ref, in: doc) != nil, "\(pointer): \(ref)")
            } else {
                let path = ref.hasPrefix("./") ? String(ref.dropFirst(2)) : ref
                #expect(ProtocolFiles.fileExists("\(protocolName)/\(path)"), "\(pointer): \(ref) is not a file")
            }
        }
    }

    /// Each JSON message's payload is a schema file, and every schema file is some message's
    /// payload; binary messages are `application/octet-stream`.
    @Test(arguments: ProtocolFiles.protocols)
    func messagesCoverEverySchemaFile(protocolName: String) throws {
        let doc = try Self.document(protocolName)
        let messages = try #require(doc["components"]?["messages"]?.objectValue)
        var referenced: Set<String> = []
        for (name, message) in messages {
            let contentType = message["contentType"]?.stringValue ?? doc["defaultContentType"]?.stringValue
            if let ref = message["payload"]?["$ref"]?.stringValue {
                #expect(contentType == "application/json", "\(name)")
                referenced.insert(ref.hasPrefix("./") ? String(ref.dropFirst(2)) : ref)
            } else {
                #expect(
                    contentType == "application/octet-stream", "\(name): a message without a schema file must be binary"
                )
            }
        }
        let schemaFiles = Set(ProtocolFiles.schemaPaths(of: protocolName).filter { $0 != "common.json" })
        #expect(referenced == schemaFiles, "unreferenced: \(schemaFiles.subtracting(referenced).sorted())")
    }

    @Test func multimodalDocumentsBinaryAudioBothWays() throws {
        let messages = try #require(try Self.document("multimodal-dialog")["components"]?["messages"]?.objectValue)
        let binary = messages.filter { $0.value["contentType"] == .string("application/octet-stream") }
        #expect(binary.count == 2)
    }

    @Test func qwenServerBindsTheModelQueryParameter() throws {
        let doc = try Self.document("qwen-realtime")
        let channel = try #require(doc["channels"]?["dialog"])
        let query = try #require(channel["bindings"]?["ws"]?["query"])
        #expect(query["required"] == JSONValue.array([.string("model")]))
        #expect(query["properties"]?["model"]?["type"] == JSONValue.string("string"))
    }

    /// Qwen-Audio-Live: the newest path, whose `model` query may be left out (qwen-audio-live.md §1.1).
    @Test func liveServesTheLivePathWithAnOptionalModel() throws {
        let doc = try Self.document("qwen-audio-live")
        let channel = try #require(doc["channels"]?["dialog"])
        #expect(channel["address"] == "/api-ws/v1/live")
        let query = try #require(channel["bindings"]?["ws"]?["query"])
        #expect(query["required"] == nil)
        #expect(query["properties"]?["model"]?["examples"] == JSONValue.array([.string("qwen-audio-3.1-live")]))
        #expect(doc["servers"]?["mock"]?["pathname"] == "/api-ws/v1/live")
    }

    /// The value an internal `#/…` reference names.
    static func resolveInternal(_ ref: String, in doc: JSONValue) throws -> JSONValue? {
        try JSONPointer(parsing: ref).resolve(in: doc)
    }
}
