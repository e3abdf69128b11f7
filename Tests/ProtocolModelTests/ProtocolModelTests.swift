import ProtocolModel
import Testing
import WireJSON

@Suite("Protocol model")
struct ProtocolModelTests {
    @Test("Each protocol's path, plain, behind a case route, with Qwen's model query")
    func paths() {
        #expect(DialogProtocol.multimodalDialog.path() == "/api-ws/v1/inference")
        #expect(
            DialogProtocol.multimodalDialog.path(caseID: "mmd.audio.002/opus", model: "ignored")
                == "/case/mmd.audio.002/opus/api-ws/v1/inference")
        #expect(
            DialogProtocol.qwenRealtime.path(model: "qwen3-omni-flash-realtime")
                == "/api-ws/v1/realtime?model=qwen3-omni-flash-realtime")
        #expect(
            DialogProtocol.qwenRealtime.path(caseID: "qrt.session.001/repeat-2")
                == "/case/qrt.session.001/repeat-2/api-ws/v1/realtime")
        #expect(DialogProtocol(rawValue: "qwen-realtime") == .qwenRealtime)
    }

    @Test("A path routes back to its protocol and case (every path `path(caseID:model:)` builds)")
    func routesRoundTrip() {
        for dialogProtocol in DialogProtocol.allCases {
            for caseID in [nil, "x", "mmd.audio.002/opus", "qrt.session.001/repeat-2"] as [String?] {
                let route = DialogProtocol.route(dialogProtocol.path(caseID: caseID, model: "m"))
                #expect(route?.protocol == dialogProtocol)
                #expect(route?.caseID == caseID)
            }
            #expect(DialogProtocol.route(dialogProtocol.servicePath + "/")?.protocol == dialogProtocol)
        }
        for foreign in [
            "/", "/api-ws/v1/inference/x", "/case//api-ws/v1/realtime", "/case/a b/api-ws/v1/inference",
            "/api-ws/v2/realtime",
        ] {
            #expect(DialogProtocol.route(foreign) == nil, "\(foreign)")
        }
    }

    @Test("Client frames: run-task, continue-task, finish-task for Stop, keys in the documented order")
    func clientFrames() {
        let start = DashScopeEnvelope.clientFrame(.runTask, taskID: "t1", payload: ["input": ["directive": "Start"]])
        #expect(
            start.encodedString()
                == #"{"header":{"action":"run-task","task_id":"t1","streaming":"duplex"},"payload":{"input":{"directive":"Start"}}}"#
        )
        let speech = DashScopeEnvelope.directive("SendSpeech", taskID: "t1", dialogID: "d1", input: ["x": 1])
        #expect(
            speech.encodedString()
                == #"{"header":{"action":"continue-task","task_id":"t1","streaming":"duplex"},"payload":{"input":{"directive":"SendSpeech","dialog_id":"d1","x":1}}}"#
        )
        let stop = DashScopeEnvelope.directive("Stop", taskID: "t1", dialogID: nil, parameters: ["a": true])
        #expect(DashScopeEnvelope.action(of: stop) == "finish-task")
        #expect(stop["payload"]?["parameters"]?["a"] == .bool(true))
        let odd = DashScopeEnvelope.directive("Stop", taskID: "t1", dialogID: nil, action: .continueTask)
        #expect(DashScopeEnvelope.action(of: odd) == "continue-task")
        #expect(DashScopeEnvelope.clientMessageName(of: speech) == "SendSpeech")
        #expect(DashScopeEnvelope.clientMessageName(of: ["header": ["action": "finish-task"]]) == "finish-task")
        #expect(DashScopeEnvelope.taskID(of: speech) == "t1")
    }

    @Test("Server frames: header events and dialog events, and the names they go by")
    func serverFrames() {
        let failed = DashScopeEnvelope.serverFrame(.taskFailed, taskID: "t1", header: ["error_code": "E"])
        #expect(
            failed.encodedString()
                == #"{"header":{"task_id":"t1","event":"task-failed","error_code":"E"},"payload":{}}"#)
        let event = DashScopeEnvelope.dialogEvent(
            "DialogStateChanged", taskID: "t1", dialogID: "d1", fields: ["state": "Listening"])
        #expect(
            event.encodedString()
                == #"{"header":{"task_id":"t1","event":"result-generated"},"payload":{"output":{"event":"DialogStateChanged","dialog_id":"d1","state":"Listening"}}}"#
        )
        #expect(DashScopeEnvelope.serverMessageName(of: event) == "DialogStateChanged")
        #expect(DashScopeEnvelope.serverMessageName(of: failed) == "task-failed")
        #expect(DashScopeEnvelope.headerEvent(of: event) == "result-generated")
    }

    @Test("Message names of both protocols' frames")
    func messageNames() {
        let qwen: JSONValue = ["type": "session.update"]
        #expect(MessageName.of(qwen) == "session.update")
        #expect(MessageName.ofClientFrame(qwen) == "session.update")
        #expect(MessageName.ofServerFrame(["type": "response.done"]) == "response.done")
        let stop = DashScopeEnvelope.directive("Stop", taskID: "t", dialogID: nil)
        #expect(MessageName.of(stop) == "Stop")
        #expect(MessageName.ofClientFrame(["header": ["action": "run-task"], "payload": [:]]) == "run-task")
        #expect(MessageName.of(["header": ["action": "run-task"], "payload": [:]]) == nil)
        #expect(MessageName.ofServerFrame(DashScopeEnvelope.serverFrame(.taskStarted, taskID: "t")) == "task-started")
        #expect(MessageName.of(nil) == nil)
        #expect(MessageName.of(.array([])) == nil)
    }

    @Test("Each directive travels with its header action (C7), and a directive frame gets it")
    func directivesAndTheirActions() {
        #expect(Directive.start.expectedAction == .runTask)
        #expect(Directive.stop.expectedAction == .finishTask)
        for directive in Directive.allCases where directive != .start && directive != .stop {
            #expect(directive.expectedAction == .continueTask, "\(directive)")
            let frame = DashScopeEnvelope.directive(directive.rawValue, taskID: "t", dialogID: nil)
            #expect(DashScopeEnvelope.action(of: frame) == "continue-task")
        }
        #expect(
            DashScopeEnvelope.action(of: DashScopeEnvelope.directive("Unknown", taskID: "t", dialogID: nil))
                == "continue-task")
        #expect(Directive.allCases.count == 11)
    }
}
