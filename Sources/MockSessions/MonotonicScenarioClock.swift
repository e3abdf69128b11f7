import ScenarioEngine
import WireSocket

/// The real clock of a served session: ``MonotonicClock`` (CLOCK_MONOTONIC in microseconds), the
/// same base as the service loop's timers and the journals.
package struct MonotonicScenarioClock: ScenarioClock {
    package init() {}

    package var nowMicros: Int64 { MonotonicClock.nowMicros() }
}
