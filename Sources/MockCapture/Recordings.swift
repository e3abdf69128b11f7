/// What the CLI and the harness make of `--record` journals: replayable scenarios
/// (`record-to-scenario`), drift between two recordings (`compare-recordings`), recorded audio
/// files put back into a scenario.
package enum Recordings {}
