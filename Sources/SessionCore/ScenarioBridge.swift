package import ScenarioEngine
import Glibc

/// The session's `ScenarioRuntime`, held by reference so the protocol engine and its helpers
/// share one. Service-thread confined like the session.
package final class ScenarioBridge<Clock: ScenarioClock> {
    package var runtime: ScenarioRuntime<Clock>

    package init(runtime: ScenarioRuntime<Clock>) {
        self.runtime = runtime
    }

    /// Inlinable so a session specialized on its clock reads the time without a generic call.
    @inlinable package var now: Int64 { runtime.clock.nowMicros }

    /// Passes one frame through the fault stage.
    package func outbound(_ frame: OutboundFrame) -> FaultStageOutput {
        runtime.outbound(frame)
    }
}

/// The real clock: CLOCK_MONOTONIC in microseconds (the same base as WireSocket's timers).
package struct MonotonicScenarioClock: ScenarioClock {
    package init() {}

    @inlinable package var nowMicros: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
