import DialogClients
import ProtocolModel
import WireJSON

/// The faulty clients: `--fault NAME` breaks exactly one obligation in an otherwise correct
/// flow. `obligation` is the id the mock journals (or, for a refused upgrade, the id the
/// refusal enforces); `needs` names what the run must provide. The names are the cases of
/// ``MultiModalFault``, ``QwenFault`` and ``QwenAudioLiveFault``, the one list: the drivers
/// switch over them, and `.ci/mutation-score` reads them from `--list-faults`.
struct Fault: Sendable {
    let kind: FaultKind
    let obligation: String
    let summary: String
    var needs: String? = nil
    /// The Qwen profile the breach exists on (on the other profile the same frame breaks another
    /// rule, C17, or none): elsewhere the faulty client behaves correctly. Nil: every profile.
    var profile: QwenRealtimeProfile? = nil
    /// `conformance run` options under which the breach shows (e.g. a tighter `--budget`).
    var runWith: [String] = []
    /// Whether only a drive provokes the breach (the default flow has no barge-in): with
    /// `--passive` the faulty client behaves correctly.
    var drivenOnly = false
    /// Whether the breach shows within a case's timeout only with the mock's policy timers
    /// scaled down (`--time-scale`): a 20 s audio gap, 60 s without a frame.
    var needsTimeScale = false
    /// The `wrong-rate` faults' capture rate: the speech goes as PCM at this rate, not
    /// resampled to the declared 16 kHz (``UnresampledSpeech``).
    var unresampledCaptureRate: Int? = nil

    var name: String { kind.name }
    var protocolName: ProtocolName { kind.protocolName }

    /// Its `--list-faults` line: `{name, protocol, obligation, summary, needs?, runWith?,
    /// drivenOnly?, needsTimeScale?}`.
    var listEntry: JSONValue {
        var object: JSONObject = [
            "name": .string(name), "protocol": .string(protocolName.rawValue), "obligation": .string(obligation),
            "summary": .string(summary),
        ]
        object["needs"] = needs.map(JSONValue.string)
        if !runWith.isEmpty { object["runWith"] = .array(runWith.map(JSONValue.string)) }
        if drivenOnly { object["drivenOnly"] = true }
        if needsTimeScale { object["needsTimeScale"] = true }
        return .object(object)
    }
}

/// A fault by protocol.
enum FaultKind: Hashable, Sendable {
    case multimodal(MultiModalFault)
    case qwen(QwenFault)
    case qwenAudioLive(QwenAudioLiveFault)

    var name: String {
        switch self {
        case .multimodal(let fault): fault.rawValue
        case .qwen(let fault): fault.rawValue
        case .qwenAudioLive(let fault): fault.rawValue
        }
    }

    var multimodal: MultiModalFault? { if case .multimodal(let fault) = self { fault } else { nil } }
    var qwen: QwenFault? { if case .qwen(let fault) = self { fault } else { nil } }
    var qwenAudioLive: QwenAudioLiveFault? { if case .qwenAudioLive(let fault) = self { fault } else { nil } }

    var protocolName: ProtocolName {
        switch self {
        case .multimodal: .multimodalDialog
        case .qwen: .qwenRealtime
        case .qwenAudioLive: .qwenAudioLive
        }
    }
}

enum FaultCatalog {
    static let all: [Fault] = multimodal + qwen + qwenAudioLive
    static let multimodal: [Fault] = MultiModalFault.allCases.map(\.fault)
    static let qwen: [Fault] = QwenFault.allCases.map(\.fault)
    static let qwenAudioLive: [Fault] = QwenAudioLiveFault.allCases.map(\.fault)

    static func find(_ name: String, protocolName: ProtocolName) -> Fault? {
        all.first { $0.name == name && $0.protocolName == protocolName }
    }

    /// The `--help` table.
    static var helpText: String {
        var lines = ["Faults (--fault NAME; each breaks one obligation in an otherwise correct flow):"]
        for group in [multimodal, qwen, qwenAudioLive] {
            lines.append("  \(group[0].protocolName.rawValue):")
            for fault in group {
                let needs = fault.needs.map { " [needs \($0)]" } ?? ""
                lines.append("    \(fault.name.padding(34)) \(fault.obligation.padding(9)) \(fault.summary)\(needs)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// The protocols the adapter speaks.
typealias ProtocolName = DialogProtocol
