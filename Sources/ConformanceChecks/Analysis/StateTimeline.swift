import ProtocolModel
import WireJSON

/// A state timeline of one case: the states entered in order, each judged against a state
/// machine of the spec, with the first illegal step marked (the state-order report).
package struct StateTimeline: Sendable, Hashable {
    /// One state entered.
    package struct Point: Sendable, Hashable {
        /// Journal index of the entry that shows it.
        package var index: Int
        /// Milliseconds since session start.
        package var ms: Double
        /// The state entered (or the client event judged, for annotation points).
        package var state: String
        /// Whether the step is allowed by the machine.
        package var legal: Bool
        /// Why it is not (or what it is).
        package var note: String?

        /// Creates a point.
        package init(index: Int, ms: Double, state: String, legal: Bool = true, note: String? = nil) {
            self.index = index
            self.ms = ms
            self.state = state
            self.legal = legal
            self.note = note
        }
    }

    /// The machine's name: `mmd.dialog`, `qrt.session`, `qrt.response`.
    package var machine: String
    /// The points in time order.
    package var points: [Point]

    /// Creates a timeline.
    package init(machine: String, points: [Point]) {
        self.machine = machine
        self.points = points
    }

    /// The position in ``points`` of the first illegal step.
    package var firstViolation: Int? { points.firstIndex { !$0.legal } }

    /// Whether every step is legal.
    package var isValid: Bool { firstViolation == nil }

    /// The distinct states in order of first appearance (lanes of the report's chart).
    package var lanes: [String] {
        var seen: [String] = []
        for point in points where !seen.contains(point.state) { seen.append(point.state) }
        return seen
    }
}
