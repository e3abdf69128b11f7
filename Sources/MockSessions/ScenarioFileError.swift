/// A scenario file that does not load; `description` is `FILE:LINE:COLUMN: message`.
public struct ScenarioFileError: Error, Sendable, CustomStringConvertible {
    public let description: String

    package init(description: String) { self.description = description }
}
