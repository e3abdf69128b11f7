import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

/// Qwen-Audio-Live's usage reports and ends: `session.usage.updated` every
/// ``QwenAudioLive/usageIntervalSeconds`` of the scenario clock, and `session.closed{reason,
/// usage}` before every close the server makes.
extension QwenRealtimeSession {
    /// The scenario clock's span of one usage interval.
    private var usageIntervalMicros: Int64 {
        scenario.runtime.scenario.scaledMicros(Double(QwenAudioLive.usageIntervalSeconds * 1000))
    }

    /// Arms the next `session.usage.updated`, an interval after the previous one (from the start).
    func scheduleUsageReport() -> [SessionCommand] {
        let start = now - scenario.runtime.elapsedMicros
        let due = start + Int64(live.usageReports + 1) * usageIntervalMicros
        return [.scheduleTimer(.engine(AudioLiveState.usageTimer), atMicros: due)]
    }

    /// `session.usage.updated{usage{seconds}}`, then the next one armed.
    func reportUsage() -> [SessionCommand] {
        live.usageReports += 1
        let seconds = Int64(live.usageReports * QwenAudioLive.usageIntervalSeconds)
        return emitLive(.usageUpdated, ["usage": ["seconds": .int(seconds)]]) + scheduleUsageReport()
    }

    /// The session's length in scenario seconds, rounded up (billing counts whole seconds).
    private var usageSeconds: Int64 {
        let interval = max(1, usageIntervalMicros / Int64(QwenAudioLive.usageIntervalSeconds))
        return (scenario.runtime.elapsedMicros + interval - 1) / interval
    }

    /// The scenario ends the session: its cap or idle end expire it (`expired`), a trigger hangs
    /// up (`remote_hangup`), the multimodal watches (never armed on Qwen) lose the connection.
    /// The reasons are the OpenAI Live API's (inferred).
    func endLive(_ reason: SessionEnd) -> [SessionCommand] {
        switch reason {
        case .sessionExpiry: closeLive(.expired, code: 1000, reason: "session expired")
        case .idle: closeLive(.expired, code: 1000, reason: "idle timeout")
        case .trigger(let text): closeLive(.remoteHangup, code: 1000, reason: text)
        case .serverSilence, .audioGap: closeLive(.connectionLost, code: 1000, reason: "session ended")
        }
    }

    /// `session.closed{reason, usage}` then the close: the answer in progress stops, and a client
    /// event after it breaks qal.C10, unless it was in flight (the core's grace after the server
    /// ended a session: sent before the client could have read `session.closed`).
    func closeLive(_ reason: QwenAudioLiveCloseReason, code: Int, reason text: String) -> [SessionCommand] {
        guard !isClosed else { return [] }
        var commands = reason == .closeRequested ? unansweredAtClose() : []
        terminate()
        commands += cancelStreaming()
        commands.append(.cancelTimer(.engine(AudioLiveState.usageTimer)))
        commands.append(.cancelTimer(.engine(AudioLiveState.interjectTimer)))
        commands += emitLive(
            .sessionClosed, ["reason": .string(reason.rawValue), "usage": ["seconds": .int(usageSeconds)]])
        return commands + closeConnection(code: code, reason: text)
    }

    /// The client closes with a function call unanswered (qal.C8) or a client delegation without
    /// its commentary (qal.C9, SHOULD).
    private func unansweredAtClose() -> [SessionCommand] {
        var commands: [SessionCommand] = []
        let calls = tools.abandonAwaited()
        if !calls.isEmpty {
            commands += violation(
                "qal.C8", "session.close with function call(s) \(calls.joined(separator: ", ")) unanswered")
        }
        let delegations = live.pendingDelegations.sorted()
        if !delegations.isEmpty {
            let ids = delegations.joined(separator: ", ")
            commands.append(.journal(.should("qal.C9", "session.close with delegation(s) \(ids) never answered")))
        }
        return commands
    }
}
