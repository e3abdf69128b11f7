import MockServer

/// The version the harness reports (`conformance --version`, reports): the mock's, one number for the package.
package enum HarnessVersion {
    package static let string = MockServer.version
}
