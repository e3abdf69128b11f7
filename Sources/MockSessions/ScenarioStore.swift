package import ScenarioEngine
import Synchronization
package import WireJSON

/// The scenario new sessions get: the embedded default, `--scenario`, or the last
/// `PUT /_mock/scenario`. Shared by every service thread (a mutex guards it).
package final class ScenarioStore: Sendable {
    private let scenario: Mutex<Scenario>
    /// `--time-scale`, applied to every scenario that comes in.
    package let timeScaleOverride: Double?
    /// The scenario the server started with (`POST /_mock/reset` restores it).
    package let initial: Scenario

    package init(initial: Scenario, timeScaleOverride: Double?) {
        self.timeScaleOverride = timeScaleOverride
        var current = initial
        if let timeScaleOverride { current.timeScale = timeScaleOverride }
        self.initial = current
        scenario = Mutex(current)
    }

    package var current: Scenario { scenario.withLock { $0 } }

    package func replace(with new: Scenario) {
        var new = new
        if let timeScaleOverride { new.timeScale = timeScaleOverride }
        scenario.withLock { $0 = new }
    }

    package var currentDescription: JSONValue {
        let current = self.current
        return [
            "name": .string(current.name), "description": .string(current.description),
            "seed": .int(Int64(clamping: current.seed)),
            "timeScale": .double(current.timeScale),
        ]
    }
}
