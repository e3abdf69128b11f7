import ProtocolModel
import Testing
import WireJSON

/// The `dialogmock-adapter` executable: announcement, command scripts, default flows.
@Suite struct AdapterTests {
    static func names(_ lines: [JSONValue]) -> [String] { lines.compactMap { $0["event"]?.stringValue } }

    @Test func announcesItselfAndRunsAMultimodalScript() async throws {
        let mock = try MockSession()
        let commands = [
            #"{"cmd":"start","params":{"upstream":{"mode":"push2talk"}}}"#,
            #"{"cmd":"wait","for":"state","timeoutMs":3000}"#,
            #"{"cmd":"start_speech"}"#,
            #"{"cmd":"send_audio","file":"fixtures/audio/hello-16k.pcm","format":"pcm","realtime":true}"#,
            #"{"cmd":"stop_speech"}"#,
            #"{"cmd":"wait","for":"playback_started","timeoutMs":8000}"#,
            #"{"cmd":"interrupt"}"#,
            #"{"cmd":"wait","for":"request_accepted","timeoutMs":3000}"#,
            #"{"cmd":"start_speech"}"#,
            #"{"cmd":"cancel_speech"}"#,
            #"{"cmd":"stop"}"#,
        ]
        let run = try await AdapterProcess.run(
            arguments: ["--protocol", "multimodal-dialog"],
            environment: AdapterProcess.environment(url: mock.mmdURL), commands: commands)
        #expect(run.status == 0)
        #expect(run.lines.first == ["adapter": "swift", "protocol": "multimodal-dialog", "reusable": true])
        let names = Self.names(run.lines)
        #expect(names.filter { $0 == "ack" }.count == commands.count)
        for event in [
            "connected", "started", "state", "playback_started", "request_accepted", "playback_ended", "closed",
        ] {
            #expect(names.contains(event), "missing \(event): \(names)")
        }
        #expect(!run.lines.contains { $0["timedOut"] == true })
        await mock.expectNoViolations()
    }

    @Test func runsAQwenToolScript() async throws {
        let mock = try MockSession(scenario: QwenRealtimeClientTests.toolScenario)
        let commands = [
            #"{"cmd":"session_update","session":{"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]}}"#,
            #"{"cmd":"append_audio","file":"fixtures/audio/hello-16k.pcm","realtime":true}"#,
            #"{"cmd":"wait","for":"tool_call","timeoutMs":8000}"#,
            #"{"cmd":"wait","for":"responding_ended","timeoutMs":8000}"#,
            #"{"cmd":"quit"}"#,
        ]
        let run = try await AdapterProcess.run(
            arguments: ["--protocol", "qwen-realtime"],
            environment: AdapterProcess.environment(url: mock.qwenURL()), commands: commands)
        #expect(run.status == 0)
        let call = try #require(run.lines.first { $0["event"]?.stringValue == "tool_call" })
        #expect(call["arguments"]?.stringValue == #"{"city":"Paris"}"#)
        // The script answers no call: the adapter ends without a tool output, which the mock
        // does not journal; the qrt checks would (qrt.C13).
        #expect(Self.names(run.lines).contains("closed"))
    }

    @Test(arguments: ["multimodal-dialog", "qwen-realtime"])
    func defaultFlowIsAFullCorrectSession(protocolName: String) async throws {
        let mock = try MockSession()
        let url = protocolName == "multimodal-dialog" ? mock.mmdURL : mock.qwenURL()
        let run = try await AdapterProcess.run(
            arguments: ["--protocol", protocolName],
            environment: AdapterProcess.environment(url: url), commands: nil)
        #expect(run.status == 0)
        let names = Self.names(run.lines)
        for event in [
            "connected", "speech_started", "responding_started", "audio", "playback_started", "playback_ended",
            "closed",
        ] {
            #expect(names.contains(event), "missing \(event): \(names)")
        }
        await mock.expectNoViolations()
    }

    @Test func helpListsEveryFaultWithItsObligation() async throws {
        let run = try await AdapterProcess.run(arguments: ["--help"], environment: [:], commands: nil)
        let list = try await AdapterProcess.run(arguments: ["--list-faults"], environment: [:], commands: nil)
        // Every fault the journal-level FaultTests know is listed (the suite tests cover the rest).
        #expect(list.lines.count >= FaultTests.cases.count)
        for fault in FaultTests.cases {
            #expect(run.text.contains(fault.name), "--help lacks \(fault.name)")
            #expect(
                list.lines.contains {
                    $0["name"]?.stringValue == fault.name && $0["obligation"]?.stringValue == fault.obligation
                })
        }
        // `.ci/mutation-score` runs these under a time scale because the list says so (typed,
        // not read out of the `needs` prose): the 20 s audio gaps and the 60 s silence.
        let scaled = Set(list.lines.filter { $0["needsTimeScale"] == true }.compactMap { $0["name"]?.stringValue })
        #expect(scaled == ["no-silence", "no-silence-duplex", "no-heartbeat"])
    }
}

/// `dialogmock-adapter --protocol qwen-audio-live`: connect-only, the default flow, a driven script.
@Suite struct QwenAudioLiveAdapterTests {
    static let protocolArguments = ["--protocol", "qwen-audio-live"]

    static func environment(_ mock: MockSession) -> [String: String] {
        AdapterProcess.environment(url: mock.liveURL, model: QwenAudioLive.serviceModel)
    }

    /// The catalogue lists exactly the Live faults the journal-level FaultTests know, each under
    /// a qal obligation.
    @Test func everyLiveFaultIsListedWithAQalObligation() async throws {
        let list = try await AdapterProcess.run(arguments: ["--list-faults"], environment: [:], commands: nil)
        let live = list.lines.filter { $0["protocol"]?.stringValue == DialogProtocol.qwenAudioLive.rawValue }
        #expect(Set(live.compactMap { $0["name"]?.stringValue }) == Set(FaultTests.liveCases.map(\.name)))
        #expect(live.allSatisfy { $0["obligation"]?.stringValue?.hasPrefix("qal.C") == true }, "\(live)")
    }

    /// A client that does nothing: the upgrade is accepted (Bearer key, the live path), the
    /// socket closes at once, exit 0; the session opened and the mock journaled no violation.
    @Test func connectOnlyOpensAndClosesASession() async throws {
        let mock = try MockSession()
        let run = try await AdapterProcess.run(
            arguments: Self.protocolArguments + ["--connect-only"], environment: Self.environment(mock),
            commands: nil)
        #expect(run.status == 0, "\(run.log)")
        #expect(run.lines.isEmpty)
        #expect(await mock.entries().isEmpty == false)
    }

    @Test func defaultFlowIsAFullCorrectSession() async throws {
        let mock = try MockSession()
        let run = try await AdapterProcess.run(
            arguments: Self.protocolArguments, environment: Self.environment(mock), commands: nil)
        #expect(run.status == 0)
        #expect(run.lines.first == ["adapter": "swift", "protocol": "qwen-audio-live", "reusable": true])
        let names = AdapterTests.names(run.lines)
        for event in [
            "connected", "session_updated", "speech_content", "responding_content", "audio", "playback_started",
            "playback_ended", "session_closed", "closed",
        ] {
            #expect(names.contains(event), "missing \(event): \(names)")
        }
        await mock.expectNoViolations()
    }

    /// A driven script on the tool scenario: the adapter answers the call itself (an app's
    /// handler), the answer is spoken, `quit` ends with session.close → session.closed.
    @Test func runsADrivenToolScript() async throws {
        let mock = try MockSession(scenario: QwenAudioLiveClientTests.toolScenario)
        let commands = [
            #"{"cmd":"session_update","session":{"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]}}"#,
            #"{"cmd":"append_audio","file":"fixtures/audio/hello-16k.pcm","realtime":true}"#,
            #"{"cmd":"wait","for":"tool_call","timeoutMs":8000}"#,
            #"{"cmd":"wait","for":"playback_ended","timeoutMs":15000}"#,
            #"{"cmd":"mute"}"#,
            #"{"cmd":"wait","for":"muted","timeoutMs":3000}"#,
            #"{"cmd":"quit"}"#,
        ]
        let run = try await AdapterProcess.run(
            arguments: Self.protocolArguments, environment: Self.environment(mock), commands: commands)
        #expect(run.status == 0)
        let call = try #require(run.lines.first { $0["event"]?.stringValue == "tool_call" })
        #expect(call["arguments"]?.stringValue == #"{"city":"Paris"}"#)
        #expect(!run.lines.contains { $0["timedOut"] == true }, "\(run.text)")
        let names = AdapterTests.names(run.lines)
        #expect(names.contains("session_closed") && names.contains("closed"), "\(names)")
        #expect(names.filter { $0 == "ack" }.count == commands.count)
        await mock.expectNoViolations()
    }
}
