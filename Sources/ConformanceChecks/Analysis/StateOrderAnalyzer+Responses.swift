import ProtocolModel
import WireJSON

extension StateOrderAnalyzer {
    /// The Qwen response lifecycle (§7.2): `Idle` → `InProgress` on `response.created` →
    /// `Idle` on `response.done`. Response events outside a response, a second
    /// `response.created`, and the client's `response.create` during a response (C11) or
    /// `response.cancel` outside one (C12) are illegal points.
    package static func responses(_ transcript: Transcript) -> StateTimeline {
        var points: [StateTimeline.Point] = []
        var active: String?
        var warnedOutside = false
        for index in transcript.journal.indices where transcript.journal[index].kind == .text {
            let entry = transcript.journal[index]
            guard let type = transcript.messageType(at: index) else { continue }
            let ms = transcript.milliseconds(at: index)
            if entry.direction == .in {
                if type == QwenClientEvent.responseCreate.rawValue, active != nil {
                    points.append(
                        .init(
                            index: index, ms: ms, state: "client response.create", legal: false,
                            note: "response.create while \(active ?? "") is in progress (qrt.C11)"))
                } else if type == QwenClientEvent.responseCancel.rawValue, active == nil {
                    points.append(
                        .init(
                            index: index, ms: ms, state: "client response.cancel", legal: false,
                            note: "response.cancel with no response in progress (qrt.C12)"))
                }
                continue
            }
            let responseID = entry.json?["response"]?["id"]?.stringValue ?? entry.json?["response_id"]?.stringValue
            switch QwenServerEvent(rawValue: type) {
            case .responseCreated?:
                var point = StateTimeline.Point(index: index, ms: ms, state: "InProgress")
                if let active {
                    point.legal = false
                    point.note = "response.created while \(active) is in progress"
                }
                active = responseID ?? "response"
                points.append(point)
            case .responseDone?:
                var point = StateTimeline.Point(
                    index: index, ms: ms, state: "Idle", note: entry.json?["response"]?["status"]?.stringValue)
                if active == nil {
                    point.legal = false
                    point.note = "response.done without response.created"
                }
                active = nil
                points.append(point)
            default:
                if type.hasPrefix("response."), active == nil, !warnedOutside {
                    warnedOutside = true
                    points.append(
                        .init(index: index, ms: ms, state: "Idle", legal: false, note: "\(type) outside a response"))
                }
            }
        }
        return StateTimeline(machine: "qrt.response", points: points)
    }
}
