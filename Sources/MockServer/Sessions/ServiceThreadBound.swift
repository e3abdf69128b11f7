/// A service-thread-confined value carried through `@Sendable` code that uses it only back on
/// that service thread.
struct ServiceThreadBound<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
