import ProtocolModel
import WireJSON

/// `qrt.functionCallRoundTrip` (qrt.C13): every `response.function_call_arguments.done` gets
/// exactly one `conversation.item.create{function_call_output}` with its `call_id` and a string
/// `output`, and after the response's `response.done` and all outputs the client sends
/// `response.create`.
package struct FunctionCallRoundTrip: CustomRule {
    package static let name = "qrt.functionCallRoundTrip"

    package init(parameters: CheckParameters) throws(CheckParameterError) {}

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected =
            "one function_call_output per call (same call_id, string output), then response.create after response.done"
        let calls = EntryMatcher.server(QwenServerEvent.responseFunctionCallArgumentsDone.rawValue).indices(
            in: transcript)
        guard !calls.isEmpty else { return context.notExercised(expected, "no function call was made") }
        let outputs = EntryMatcher.client(QwenClientEvent.conversationItemCreate.rawValue).indices(in: transcript)
            .filter {
                transcript.journal[$0].json?["item"]?["type"]?.stringValue == "function_call_output"
            }
        var lastOutput = 0
        for call in calls {
            let callID = transcript.journal[call].json?["call_id"]?.stringValue ?? ""
            let answers = outputs.filter { transcript.journal[$0].json?["item"]?["call_id"]?.stringValue == callID }
            guard let answer = answers.first else {
                return context.fail(
                    expected, "call \(callID) at #\(call) got no function_call_output", evidence: [call])
            }
            if answers.count > 1 {
                return context.fail(expected, "call \(callID) answered \(answers.count) times", evidence: answers)
            }
            if answer < call {
                return context.fail(
                    expected, "output for \(callID) sent before the call's .done", evidence: [answer, call])
            }
            if transcript.journal[answer].json?["item"]?["output"]?.stringValue == nil {
                return context.fail(expected, "output for \(callID) is not a string", evidence: [answer])
            }
            lastOutput = max(lastOutput, answer)
        }
        let done =
            EntryMatcher.server(QwenServerEvent.responseDone.rawValue).first(
                in: transcript, from: calls[calls.count - 1]) ?? lastOutput
        let resume = max(done, lastOutput)
        guard
            let create = EntryMatcher.client(QwenClientEvent.responseCreate.rawValue).first(
                in: transcript, from: resume + 1)
        else {
            let early = EntryMatcher.client(QwenClientEvent.responseCreate.rawValue).first(
                in: transcript, from: calls[0])
            return context.fail(
                expected,
                early.map { "response.create at #\($0) came before response.done and all outputs" }
                    ?? "no response.create after the tool output(s)", evidence: [resume] + (early.map { [$0] } ?? []))
        }
        return context.pass(
            expected, "\(calls.count) call(s) answered; response.create at #\(create)", evidence: calls + [create])
    }
}
