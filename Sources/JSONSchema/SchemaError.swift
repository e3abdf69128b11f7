/// A schema that cannot be compiled: an unresolvable reference, a bad regex, a keyword with a
/// value of the wrong shape.
package struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the schema the problem is, as an absolute URI with a JSON-pointer fragment.
    package let location: String
    /// What is wrong.
    package let message: String

    /// Creates an error at `location`.
    package init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    /// `LOCATION: message`.
    package var description: String { "\(location): \(message)" }
}
