package import ScenarioEngine

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
