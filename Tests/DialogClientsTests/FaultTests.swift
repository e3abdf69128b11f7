import Foundation
import ProtocolModel
import Testing
import WireJSON

/// Every `--fault` of the adapter makes the mock journal a violation of the obligation it
/// breaks (or, for refused upgrades, makes the handshake fail with no session). Serialized:
/// the flows are timed, and 48 adapters at once would starve the two shared cores.
///
/// About five minutes, so it runs when `HARNESS_SLOW_TESTS` is set: CI covers the same faults
/// through the conformance suite (`ConformanceSuiteTests`), which judges them by case.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["HARNESS_SLOW_TESTS"] != nil))
struct FaultTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let protocolName: String
        let name: String
        let obligation: String
        var model = "qwen3-omni-flash-realtime"
        var timeScale: Double?
        var scenario: String?
        /// The upgrade is refused: no session, an `error` event.
        var refused = false
        /// The breach is a client event after this event, within the mock's in-flight grace (no
        /// violation journaled; the suite's case judges the journal's order).
        var clientEventAfter: String?
        var testDescription: String { "\(protocolName) --fault \(name) → \(obligation)" }
    }

    static let audioModel = "qwen-audio-3.0-realtime-flash"

    static let cases: [Case] = dialogAndRealtimeCases + liveCases

    /// The multimodal dialog and Qwen realtime faults.
    static let dialogAndRealtimeCases: [Case] = [
        Case(protocolName: "multimodal-dialog", name: "no-authorization", obligation: "mmd.C1", refused: true),
        Case(protocolName: "multimodal-dialog", name: "missing-bearer", obligation: "mmd.C1"),
        Case(protocolName: "multimodal-dialog", name: "first-frame-not-start", obligation: "mmd.C2"),
        Case(protocolName: "multimodal-dialog", name: "bad-task-group", obligation: "mmd.C3"),
        Case(protocolName: "multimodal-dialog", name: "missing-user-id", obligation: "mmd.C4"),
        Case(protocolName: "multimodal-dialog", name: "bad-enum", obligation: "mmd.C5"),
        Case(protocolName: "multimodal-dialog", name: "wrong-task-id", obligation: "mmd.C6"),
        Case(protocolName: "multimodal-dialog", name: "continue-for-stop", obligation: "mmd.C7"),
        Case(protocolName: "multimodal-dialog", name: "binary-before-listening", obligation: "mmd.C8"),
        Case(protocolName: "multimodal-dialog", name: "odd-pcm-frame", obligation: "mmd.C9"),
        Case(protocolName: "multimodal-dialog", name: "audio-outside-sendspeech", obligation: "mmd.C10"),
        Case(protocolName: "multimodal-dialog", name: "no-silence", obligation: "mmd.C11", timeScale: 0.01),
        Case(protocolName: "multimodal-dialog", name: "no-silence-duplex", obligation: "mmd.C12", timeScale: 0.01),
        Case(protocolName: "multimodal-dialog", name: "respond-outside-listening", obligation: "mmd.C13"),
        Case(protocolName: "multimodal-dialog", name: "respond-without-text", obligation: "mmd.C13"),
        Case(protocolName: "multimodal-dialog", name: "bad-image", obligation: "mmd.C14"),
        Case(protocolName: "multimodal-dialog", name: "oversized-image", obligation: "mmd.C14"),
        Case(protocolName: "multimodal-dialog", name: "frames-outside-video", obligation: "mmd.C15"),
        Case(protocolName: "multimodal-dialog", name: "video-connect-as-transcript", obligation: "mmd.C16"),
        Case(protocolName: "multimodal-dialog", name: "no-local-responding-ended", obligation: "mmd.C19"),
        Case(protocolName: "multimodal-dialog", name: "double-local-responding-ended", obligation: "mmd.C19"),
        Case(protocolName: "multimodal-dialog", name: "interrupt-in-listening", obligation: "mmd.C20"),
        Case(protocolName: "multimodal-dialog", name: "no-heartbeat", obligation: "mmd.C21", timeScale: 0.01),
        Case(protocolName: "multimodal-dialog", name: "heartbeat-flood", obligation: "mmd.C21"),
        Case(protocolName: "multimodal-dialog", name: "frames-after-finish", obligation: "mmd.C22"),
        Case(protocolName: "multimodal-dialog", name: "bad-dialog-id", obligation: "mmd.C23"),
        Case(protocolName: "multimodal-dialog", name: "wrong-dialog-id", obligation: "mmd.C23"),
        Case(protocolName: "qwen-realtime", name: "no-authorization", obligation: "qrt.C1", refused: true),
        Case(protocolName: "qwen-realtime", name: "missing-model", obligation: "qrt.C1", refused: true),
        Case(protocolName: "qwen-realtime", name: "binary-frame", obligation: "qrt.C2"),
        Case(protocolName: "qwen-realtime", name: "unknown-event", obligation: "qrt.C2"),
        Case(protocolName: "qwen-realtime", name: "numeric-event-id", obligation: "qrt.C3"),
        Case(protocolName: "qwen-realtime", name: "audio-before-session-update", obligation: "qrt.C4"),
        Case(protocolName: "qwen-realtime", name: "bad-modalities", obligation: "qrt.C5"),
        Case(protocolName: "qwen-realtime", name: "flat-tools", obligation: "qrt.C6"),
        Case(
            protocolName: "qwen-realtime", name: "change-turn-detection-after-audio", obligation: "qrt.C7",
            model: audioModel),
        Case(protocolName: "qwen-realtime", name: "voice-in-later-update", obligation: "qrt.C7", model: audioModel),
        Case(protocolName: "qwen-realtime", name: "bad-base64", obligation: "qrt.C8"),
        Case(protocolName: "qwen-realtime", name: "odd-audio-chunk", obligation: "qrt.C8"),
        Case(protocolName: "qwen-realtime", name: "commit-in-vad", obligation: "qrt.C9"),
        Case(protocolName: "qwen-realtime", name: "empty-commit", obligation: "qrt.C10"),
        Case(protocolName: "qwen-realtime", name: "second-response", obligation: "qrt.C11"),
        Case(protocolName: "qwen-realtime", name: "cancel-without-response", obligation: "qrt.C12"),
        Case(
            protocolName: "qwen-realtime", name: "wrong-call-id", obligation: "qrt.C13",
            scenario: QwenRealtimeClientTests.toolScenario),
        Case(
            protocolName: "qwen-realtime", name: "duplicate-tool-output", obligation: "qrt.C13",
            scenario: QwenRealtimeClientTests.toolScenario),
        Case(protocolName: "qwen-realtime", name: "bad-item", obligation: "qrt.C15"),
        Case(protocolName: "qwen-realtime", name: "image-before-audio", obligation: "qrt.C16"),
        Case(protocolName: "qwen-realtime", name: "finish-on-audio-profile", obligation: "qrt.C17", model: audioModel),
        Case(protocolName: "qwen-realtime", name: "events-after-finish", obligation: "qrt.C18"),
    ]

    /// The Qwen-Audio-Live faults (issue 42): each breach journaled under its qal obligation.
    static let liveCases: [Case] = [
        live("no-authorization", "qal.C1", refused: true),
        live("binary-frame", "qal.C2"),
        live("unknown-event", "qal.C2"),
        live("missing-event-id", "qal.C3"),
        live("long-event-id", "qal.C3"),
        live("audio-before-updated", "qal.C4"),
        live("missing-session-model", "qal.C5"),
        live("missing-delegation", "qal.C5"),
        live("duplex-on-flash", "qal.C5"),
        live("odd-pcm-frame", "qal.C6"),
        live("wrong-rate", "qal.C6"),
        live("aoq-audio-on-ws", "qal.C7"),
        live("ignore-function-call", "qal.C8", scenario: QwenAudioLiveClientTests.toolScenario),
        live("wrong-call-id", "qal.C8", scenario: QwenAudioLiveClientTests.toolScenario),
        // The mute right behind session.close reaches the mock with session.close, within its
        // 300 ms in-flight grace (no violation; a client cannot send later: the server closes):
        // qal.ending.001 judges it (closeBehaviour, the SHOULD half).
        Case(
            protocolName: DialogProtocol.qwenAudioLive.rawValue, name: "events-after-closed", obligation: "qal.C10",
            model: QwenAudioLive.serviceModel, clientEventAfter: QwenAudioLiveClientEvent.sessionClose.rawValue),
    ]

    static func live(_ name: String, _ obligation: String, scenario: String? = nil, refused: Bool = false) -> Case {
        Case(
            protocolName: DialogProtocol.qwenAudioLive.rawValue, name: name, obligation: obligation,
            model: QwenAudioLive.serviceModel, scenario: scenario, refused: refused)
    }

    @Test(arguments: dialogAndRealtimeCases)
    func faultIsJournaledWithItsObligation(_ fault: Case) async throws {
        try await expectJournaled(fault)
    }

    @Test(arguments: liveCases)
    func liveFaultIsJournaledWithItsObligation(_ fault: Case) async throws {
        try await expectJournaled(fault)
    }

    /// Runs the faulty adapter's default flow against a fresh mock and looks for the breach.
    private func expectJournaled(_ fault: Case) async throws {
        let mock = try MockSession(timeScale: fault.timeScale, scenario: fault.scenario)
        let url =
            switch fault.protocolName {
            case DialogProtocol.multimodalDialog.rawValue: mock.mmdURL
            case DialogProtocol.qwenAudioLive.rawValue: mock.liveURL
            default: mock.qwenURL(model: fault.model)
            }
        let run = try await AdapterProcess.run(
            arguments: ["--protocol", fault.protocolName, "--fault", fault.name],
            environment: AdapterProcess.environment(url: url, model: fault.model), commands: nil)
        #expect(run.status == 0)
        if fault.refused {
            #expect(await mock.entries().isEmpty)
            #expect(run.lines.contains { $0["event"]?.stringValue == "error" })
            return
        }
        if let earlier = fault.clientEventAfter {
            let entries = await mock.entries()
            let end = try #require(entries.firstIndex { $0["json"]?["type"]?.stringValue == earlier })
            let timeline = await mock.timeline()
            #expect(entries[(end + 1)...].contains { $0["dir"] == "in" && $0["kind"] == "text" }, "\(timeline)")
            return
        }
        // A breach right before the close is journaled as the server reads it, which may be
        // just after the adapter's exit.
        var violations = await mock.violations()
        for _ in 0..<20 where !violations.contains(where: { $0.hasPrefix(fault.obligation + ":") }) {
            try await Task.sleep(for: .milliseconds(100))
            violations = await mock.violations()
        }
        #expect(violations.contains { $0.hasPrefix(fault.obligation + ":") }, "\(fault.name): \(violations)")
        if !violations.contains(where: { $0.hasPrefix(fault.obligation + ":") }) { print(await mock.timeline()) }
        print("FAULT \(fault.name) -> \(violations)")
    }
}
