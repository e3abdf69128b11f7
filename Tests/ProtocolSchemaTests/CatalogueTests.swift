import Testing
import WireJSON

/// Every message the spec catalogues list has a schema, and every schema is a catalogued
/// message (the lists are copied from the specs).
@Suite("Spec catalogues")
struct CatalogueTests {
    /// multimodal-dialog.md §5.0 rows 1–11 (row 12, binary audio, is not JSON).
    static let multimodalClient = [
        "Start", "Stop", "SendSpeech", "StopSpeech", "CancelSpeech", "RequestToSpeak", "RequestToRespond", "UpdateInfo",
        "LocalRespondingStarted", "LocalRespondingEnded", "HeartBeat",
    ]
    /// multimodal-dialog.md §6.0 rows 1–15 (row 16, binary audio, is not JSON).
    static let multimodalServer = [
        "task-started", "Started", "DialogStateChanged", "SpeechStarted", "SpeechEnded", "SpeechContent",
        "RequestAccepted",
        "RespondingStarted", "RespondingContent", "RespondingEnded", "HeartBeat", "Error", "Stopped", "task-finished",
        "task-failed",
    ]
    /// qwen-realtime.md §4.0 rows 1–14.
    static let qwenClient = [
        "session.update", "input_audio_buffer.append", "input_audio_buffer.commit", "input_audio_buffer.clear",
        "input_image_buffer.append", "conversation.item.create", "conversation.item.retrieve",
        "conversation.item.delete",
        "response.create", "response.cancel", "session.finish", "input_text_buffer.append", "input_text_buffer.commit",
        "input_text_buffer.clear",
    ]
    /// qwen-realtime.md §5.0 rows 1–36.
    static let qwenServer = [
        "error", "session.created", "session.updated",
        "input_audio_buffer.speech_started", "input_audio_buffer.speech_stopped", "input_audio_buffer.committed",
        "input_audio_buffer.cleared", "conversation.item.created", "conversation.item.retrieved",
        "conversation.item.deleted",
        "conversation.item.input_audio_transcription.delta", "conversation.item.input_audio_transcription.completed",
        "conversation.item.input_audio_transcription.failed", "conversation.item.ambient_audio_transcription.delta",
        "conversation.item.ambient_audio_transcription.completed", "response.created", "response.output_item.added",
        "response.content_part.added", "response.text.delta", "response.text.done", "response.audio_transcript.delta",
        "response.audio_transcript.done", "response.audio.delta", "response.audio.done", "response.content_part.done",
        "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done",
        "response.done", "voiceprint_audio_list.in_progress", "voiceprint_audio_list.completed",
        "voiceprint_audio_list.failed",
        "session.finished", "conversation.item.input_audio_transcription.text", "input_text_buffer.committed",
        "input_text_buffer.cleared",
    ]

    /// qwen-audio-live.md §4.0 rows 1–10.
    static let liveClient = [
        "session.update", "session.input_audio.append", "session.input_audio.mute", "session.input_audio.unmute",
        "session.item.create", "session.commentary.append", "session.thinking.append", "session.instructions.append",
        "session.instruction.append", "session.close",
    ]
    /// qwen-audio-live.md §5.0 rows 1–16.
    static let liveServer = [
        "error", "session.created", "session.updated", "session.input_audio.muted", "session.input_audio.unmuted",
        "session.input_transcript.delta", "session.output_transcript.delta", "session.output_audio.delta",
        "session.delegation.created", "response.event", "session.event", "session.commentary.appended",
        "session.thinking.appended", "session.instructions.appended", "session.usage.updated", "session.closed",
    ]

    struct Catalogue: Sendable, CustomTestStringConvertible {
        let folder: String
        let names: [String]
        var testDescription: String { folder }
    }

    static let catalogues = [
        Catalogue(folder: "multimodal-dialog/client", names: multimodalClient),
        Catalogue(folder: "multimodal-dialog/server", names: multimodalServer),
        Catalogue(folder: "qwen-realtime/client", names: qwenClient),
        Catalogue(folder: "qwen-realtime/server", names: qwenServer),
        Catalogue(folder: "qwen-audio-live/client", names: liveClient),
        Catalogue(folder: "qwen-audio-live/server", names: liveServer),
    ]

    @Test(arguments: catalogues)
    func everyCataloguedMessageHasASchemaAndNothingElse(catalogue: Catalogue) {
        let files = Set(ProtocolFiles.jsonFiles(in: catalogue.folder).map { String($0.dropLast(".json".count)) })
        let listed = Set(catalogue.names)
        #expect(listed.count == catalogue.names.count, "duplicate in the hard-coded list")
        #expect(
            files == listed,
            "missing: \(listed.subtracting(files).sorted()); not in the spec: \(files.subtracting(listed).sorted())")
    }

    @Test func catalogueSizesMatchTheSpecs() {
        #expect(Self.multimodalClient.count == 11)
        #expect(Self.multimodalServer.count == 15)
        #expect(Self.qwenClient.count == 14)
        #expect(Self.qwenServer.count == 36)
        #expect(Self.liveClient.count == 10)
        #expect(Self.liveServer.count == 16)
    }

    /// The discriminator of each schema is the message name it is filed under.
    @Test(arguments: catalogues)
    func discriminatorMatchesTheFileName(catalogue: Catalogue) throws {
        let protocolName = String(catalogue.folder.split(separator: "/")[0])
        let direction = String(catalogue.folder.split(separator: "/")[1])
        for name in catalogue.names {
            let document = try ProtocolFiles.readJSON("\(catalogue.folder)/\(name).json")
            let discriminator: JSONValue?
            if protocolName.hasPrefix("qwen") {
                discriminator = document["properties"]?["type"]?["const"]
            } else if direction == "client" {
                discriminator =
                    document["properties"]?["payload"]?["properties"]?["input"]?["properties"]?["directive"]?["const"]
            } else if name.hasPrefix("task-") {
                discriminator = document["properties"]?["header"]?["properties"]?["event"]?["const"]
            } else {
                discriminator =
                    document["properties"]?["payload"]?["properties"]?["output"]?["properties"]?["event"]?["const"]
            }
            #expect(
                discriminator == .string(name),
                "\(catalogue.folder)/\(name).json: discriminator \(String(describing: discriminator))")
        }
    }
}
