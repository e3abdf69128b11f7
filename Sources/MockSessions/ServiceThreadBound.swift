/// A service-thread-confined value carried through `@Sendable` code that uses it only back on
/// that service thread.
package struct ServiceThreadBound<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
