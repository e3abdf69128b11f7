import Foundation
import MockServer
import ProtocolModel
import Testing

/// `dashscope.multimodal.MultiModalDialog` (dashscope 2.0.2, unmodified) against the mock's
/// multimodal dialog route, with real speech made by espeak-ng + sox.
@Suite("dashscope MultiModalDialog against the mock")
struct MultiModalDialogSDKTests {
    private func run(
        _ flow: String, scenario: String? = nil, journal: ((String) -> Void)? = nil
    ) async throws
        -> (events: [String], states: [String], extra: [String: Any])
    {
        let server = try SDKProcess.startMock(scenario: scenario)
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "multimodal_dialog_flows.py",
            [flow, "\(server.baseURL)/api-ws/v1/inference", SDKProcess.speech])
        let lines = await server.journal(session: "s1") ?? ""
        // Every frame the mock sent is valid against the server schemas of conformance/protocols.
        #expect(try ServerFrameSchemas.problems(journal: lines, protocolName: "multimodal-dialog") == [])
        journal?(lines)
        let extra = result["extra"] as? [String: Any] ?? [:]
        #expect((extra["errors"] as? [Any])?.isEmpty ?? true, "SDK errors: \(extra["errors"] ?? "")")
        return (result["events"] as? [String] ?? [], result["states"] as? [String] ?? [], extra)
    }

    /// `expected` appears in `events` in this order (other events may sit between).
    private func expectSubsequence(
        _ expected: [String], in events: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var cursor = events.startIndex
        for name in expected {
            guard let found = events[cursor...].firstIndex(of: name) else {
                Issue.record("missing \(name) in order \(expected) within \(events)", sourceLocation: sourceLocation)
                return
            }
            cursor = events.index(after: found)
        }
    }

    private let round = [
        "DialogStateChanged:Thinking", "DialogStateChanged:Responding", "RespondingStarted", "RespondingEnded",
        "DialogStateChanged:Listening",
    ]

    @Test func tapToTalkTurnWithRealSpeech() async throws {
        let (events, states, extra) = try await run("tap2talk")
        expectSubsequence(
            ["Started", "DialogStateChanged:Listening", "SpeechStarted", "SpeechEnded", "SpeechContent"] + round + [
                "Stopped"
            ],
            in: events)
        #expect(states == ["Listening", "Thinking", "Responding", "Listening"])
        #expect((extra["audio_bytes"] as? Int ?? 0) > 48_000)  // > 1 s of 24 kHz s16le answer audio
        // Issue 12 item 1: the default scenario's final RespondingContent carries the round timestamps.
        let timestamps = extra["timestamps"] as? [String: Any] ?? [:]
        #expect(timestamps["round_start_ms"] as? Int == 0, "\(extra["timestamps"] ?? "none")")
        #expect((timestamps["first_audio_ms"] as? Int ?? -1) >= (timestamps["responding_started_ms"] as? Int ?? 0))
    }

    @Test func pushToTalkTurn() async throws {
        let (events, _, _) = try await run("push2talk")
        expectSubsequence(["SpeechStarted", "SpeechEnded"] + round + ["Stopped", "closed:1000"], in: events)
    }

    @Test func duplexVoiceBargeIn() async throws {
        let (events, states, _) = try await run("duplex")
        expectSubsequence(
            ["SpeechStarted", "RespondingStarted", "SpeechStarted", "DialogStateChanged:Listening"], in: events)
        #expect(Array(states.prefix(4)) == ["Listening", "Thinking", "Responding", "Listening"])
    }

    @Test func interruptWithRequestToSpeak() async throws {
        let (events, _, _) = try await run("interrupt")
        expectSubsequence(["RespondingStarted", "RequestAccepted", "DialogStateChanged:Listening"], in: events)
        #expect(!events.contains("RespondingEnded"))
    }

    @Test func requestToRespondTranscriptAndPrompt() async throws {
        let (events, _, extra) = try await run("respond")
        #expect(extra["transcript_text"] as? String == "Read this sentence out loud.")
        expectSubsequence(["RespondingStarted", "RespondingEnded", "DialogStateChanged:Listening"] + round, in: events)
    }

    @Test func visualQACommandRound() async throws {
        let (events, _, extra) = try await run("vqa", scenario: "mmd-vqa.json")
        #expect(extra["commands_is_string"] as? Bool == true)
        let commands = extra["commands"] as? [[String: Any]]
        #expect(commands?.first?["name"] as? String == "visual_qa")
        #expect(events.filter { $0 == "RespondingEnded" }.count == 2)
    }

    @Test func liveAIImageStream() async throws {
        let (events, states, _) = try await run("liveai")
        #expect(events.filter { $0 == "RespondingEnded" }.count == 2)
        #expect(states.last == "Listening")
        #expect(!events.contains("Error"))
    }

    @Test func heartbeatIsAnswered() async throws {
        var journal = ""
        let (events, _, _) = try await run("heartbeat") { journal = $0 }
        #expect(journal.contains(#""dir":"in","kind":"text""#) && journal.contains(#""event":"HeartBeat""#))
        #expect(
            journal.split(separator: "\n").contains {
                $0.contains(#""dir":"out""#) && $0.contains(#""event":"HeartBeat""#)
            })
        #expect(!events.contains("Error"))
        #expect(events.last == "closed:1000")
    }

    @Test func dialogIDResume() async throws {
        let (_, _, extra) = try await run("resume")
        #expect(extra["resumed"] as? Bool == true)
    }

    /// Issue 12 item 4: the SDK's AsrPostProcessing replace_words change what is recognised
    /// (every SpeechContent of the default scenario's "Hello, who am I talking to?"), and
    /// vocabulary_id is accepted.
    @Test func replaceWordsApplyToTranscripts() async throws {
        let (events, _, extra) = try await run("replace-words")
        let texts = (extra["speech_texts"] as? [Any] ?? []).compactMap { $0 as? String }
        #expect(texts.last == "Hello, who am I speaking to?", "\(texts)")
        #expect(texts.allSatisfy { !$0.contains("talking") }, "\(texts)")
        #expect(events.contains("RespondingEnded"))
    }

    /// Issue 40 row 7: with answers uninterruptible, the SDK's interrupt still gets RequestAccepted
    /// (seeds 000/001) and the answer plays to its end.
    @Test func interruptOnAnUninterruptibleAnswerIsAccepted() async throws {
        let (events, _, _) = try await run("interrupt-uninterruptible", scenario: "mmd-uninterruptible.json")
        expectSubsequence(
            ["RespondingStarted", "RequestAccepted", "RespondingEnded", "DialogStateChanged:Listening"], in: events)
    }

    /// Issue 40 row 1: two dialogs on one server get different dialog_ids; resuming the first
    /// continues the first (its second scripted answer), not after the other dialog's turn.
    @Test func eachDialogHasItsOwnIdAndMemory() async throws {
        let (_, _, extra) = try await run("two-dialogs")
        let ids = extra["dialog_ids"] as? [String] ?? []
        let answers = extra["answers"] as? [String] ?? []
        try #require(ids.count == 3 && answers.count == 3, "\(extra)")
        #expect(ids[0] != ids[1])
        #expect(ids[2] == ids[0])
        #expect(answers[0] == answers[1], "both dialogs start at the script's first turn: \(answers)")
        #expect(answers[2] != answers[0], "the resumed dialog goes on to its second turn: \(answers)")
    }

    /// Issue 40 row 2: voices outside any list start the dialog (no list by default).
    @Test func anyVoiceStartsTheDialog() async throws {
        let (_, _, extra) = try await run("voices")
        let started = extra["started"] as? [String: Any] ?? [:]
        for voice in ["longanyang", "Cherry", "longanqian"] {
            #expect(started[voice] as? Bool == true, "\(voice): \(started[voice] ?? "nothing")")
        }
    }

    /// Issue 40 row 8: a RequestToRespond type other than transcript/prompt gets the documented 421
    /// status error (the SDK reports a header status_code ≠ 200 as an error), then the close.
    @Test func aWrongRespondTypeGetsTheStatusError() async throws {
        let (events, _, extra) = try await run("bad-respond-type")
        let failure = extra["failure"] as? String ?? ""
        #expect(failure.contains("\"status_code\": 421") || failure.contains("\"status_code\":421"), "\(failure)")
        #expect(failure.contains("InvalidParameter"), "\(failure)")
        #expect(!events.contains("RespondingStarted"))
    }

    /// Issue 12 item 4 (issue 40 row 2: the list is opt-in): a voice outside the scenario's list
    /// fails the task with the field named.
    @Test func anUnknownVoiceFailsTheTask() async throws {
        let (events, _, extra) = try await run("unknown-voice", scenario: "mmd-voices.json")
        #expect(!events.contains("Started"))
        let failure = extra["failure"] as? String ?? ""
        #expect(failure.contains("InvalidParameter") && failure.contains("no_such_voice"), "\(failure)")
    }
}
