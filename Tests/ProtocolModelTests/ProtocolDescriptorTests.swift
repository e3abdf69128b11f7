import ProtocolModel
import Testing
import WireJSON

@Suite struct ProtocolDescriptorTests {
    @Test(arguments: DialogProtocol.allCases)
    func obligationsBelongToTheProtocol(_ dialogProtocol: DialogProtocol) {
        let descriptor = dialogProtocol.descriptor
        #expect(descriptor.connectObligation == descriptor.obligationPrefix + ".C1")
        #expect(descriptor.audioFormatObligation.hasPrefix(descriptor.obligationPrefix + ".C"))
        #expect(dialogProtocol.servicePath == descriptor.servicePath)
    }

    @Test func eachProtocolHasItsOwnPathAndPrefix() {
        let descriptors = DialogProtocol.allCases.map(\.descriptor)
        #expect(Set(descriptors.map(\.servicePath)).count == descriptors.count)
        #expect(Set(descriptors.map(\.obligationPrefix)).count == descriptors.count)
    }

    @Test func theNamesTextListsEveryProtocol() {
        #expect(DialogProtocol.namesText == "multimodal-dialog, qwen-realtime or qwen-audio-live")
    }

    @Test func theClientModelIsTheProtocolsChoice() {
        let dialog = DialogProtocol.multimodalDialog.descriptor
        #expect(dialog.clientModel(caseModel: nil, runModel: "qwen3-omni-flash-realtime") == "multimodal-dialog")
        #expect(dialog.clientModel(caseModel: "other", runModel: "x") == "other")
        let realtime = DialogProtocol.qwenRealtime.descriptor
        #expect(
            realtime.clientModel(caseModel: nil, runModel: "qwen3-omni-flash-realtime") == "qwen3-omni-flash-realtime")
        #expect(
            realtime.clientModel(caseModel: "qwen-audio-3.0-realtime-plus", runModel: "x")
                == "qwen-audio-3.0-realtime-plus")
    }

    @Test func messageNamesFollowTheProtocol() throws {
        let start = try JSONValue.decode(
            #"{"header":{"action":"run-task","task_id":"t"},"payload":{"input":{"directive":"Start"}}}"#)
        #expect(DialogProtocol.multimodalDialog.descriptor.clientMessageName(of: start) == "Start")
        #expect(DialogProtocol.qwenRealtime.descriptor.clientMessageName(of: start) == nil)
        let update = try JSONValue.decode(#"{"type":"session.update"}"#)
        #expect(DialogProtocol.qwenRealtime.descriptor.clientMessageName(of: update) == "session.update")
    }

    @Test func errorFramesAreEachProtocolsOwn() {
        let failed = DialogProtocol.multimodalDialog.descriptor.errorFrame(code: "C", message: "M", taskID: "t1")
        #expect(DashScopeEnvelope.taskID(of: failed) == "t1")
        #expect(failed["header"]?["event"]?.stringValue == "task-failed")
        #expect(failed["header"]?["error_code"]?.stringValue == "C")
        #expect(DialogProtocol.multimodalDialog.descriptor.errorFrameNeedsTaskID)
        let error = DialogProtocol.qwenRealtime.descriptor.errorFrame(code: "C", message: "M", taskID: nil)
        #expect(error["type"]?.stringValue == "error")
        #expect(error["error"]?["code"]?.stringValue == "C")
        #expect(error["error"]?["message"]?.stringValue == "M")
        #expect(!DialogProtocol.qwenRealtime.descriptor.errorFrameNeedsTaskID)
    }
}

/// Qwen-Audio-Live shares the realtime path, chosen there by the URL's model (issue 42).
@Suite struct ModelRoutedProtocolTests {
    @Test func aLiveModelOnTheRealtimePathIsQwenAudioLive() {
        #expect(DialogProtocol.route("/api-ws/v1/realtime?model=qwen-audio-3.1-live")?.protocol == .qwenAudioLive)
        #expect(DialogProtocol.route("/api-ws/v1/realtime", model: "qwen-audio-3.1-live")?.protocol == .qwenAudioLive)
        let routed = DialogProtocol.route("/case/qal.session.001/api-ws/v1/realtime?model=qwen-audio-3.1-live")
        #expect(routed?.protocol == .qwenAudioLive)
        #expect(routed?.caseID == "qal.session.001")
    }

    @Test func otherModelsOnTheRealtimePathAreQwenRealtime() {
        #expect(DialogProtocol.route("/api-ws/v1/realtime?model=qwen3-omni-flash-realtime")?.protocol == .qwenRealtime)
        #expect(
            DialogProtocol.route("/api-ws/v1/realtime?model=qwen-audio-3.1-realtime-flash")?.protocol == .qwenRealtime)
        #expect(DialogProtocol.route("/api-ws/v1/realtime")?.protocol == .qwenRealtime)
    }

    @Test func theLivePathIsQwenAudioLiveWithOrWithoutAModel() {
        #expect(DialogProtocol.route("/api-ws/v1/live")?.protocol == .qwenAudioLive)
        #expect(DialogProtocol.route("/api-ws/v1/live?model=qwen-audio-3.1-live")?.protocol == .qwenAudioLive)
    }

    @Test func liveServiceModelsAreRecognised() {
        for model in ["qwen-audio-3.1-live", "QWEN-AUDIO-3.1-LIVE", "qwen-audio-4.0-live-2026-11-20"] {
            #expect(QwenAudioLive.isServiceModel(model), "\(model)")
        }
        for model in ["qwen-audio-3.1-realtime-flash", "qwen-audio-live", "qwen-audio-3-live", "qwen-audio-3.1-live-"] {
            #expect(!QwenAudioLive.isServiceModel(model), "\(model)")
        }
    }
}
