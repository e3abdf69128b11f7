import ScenarioEngine
import WireJSON

/// The scenario new sessions get: the embedded default, `--scenario`, or the last
/// `PUT /_mock/scenario`. Service-thread confined (set before start or from the control API).
final class ScenarioStore {
    private(set) var current: Scenario
    /// `--time-scale`, applied to every scenario that comes in.
    let timeScaleOverride: Double?

    init(initial: Scenario, timeScaleOverride: Double?) {
        self.timeScaleOverride = timeScaleOverride
        current = initial
        if let timeScaleOverride { current.timeScale = timeScaleOverride }
    }

    func replace(with scenario: Scenario) {
        current = scenario
        if let timeScaleOverride { current.timeScale = timeScaleOverride }
    }

    var currentDescription: JSONValue {
        ["name": .string(current.name), "description": .string(current.description), "seed": .int(Int64(clamping: current.seed)),
         "timeScale": .double(current.timeScale)]
    }
}
