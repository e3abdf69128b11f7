/// Process exit statuses shared by every DialogMock executable (layout-and-style §9.8).
///
/// `conformance` exits with `success` when no case failed (non-strict results are allowed
/// unless `--strict`), `failure` when at least one case failed, `usage` for a bad command line
/// and `harnessError` when the harness itself broke (port in use, fixture missing, …).
package enum ExitCode {
    /// Everything went as asked; also used after printing help.
    package static let success: Int32 = 0
    /// The run completed and found at least one failure.
    package static let failure: Int32 = 1
    /// The command line was invalid: unknown option, bad value, missing argument.
    package static let usage: Int32 = 2
    /// The harness failed and could not judge the client.
    package static let harnessError: Int32 = 3
}
