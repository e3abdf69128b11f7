import Testing

@testable import MockSessions

/// The fixed-size lateness histogram the metrics and the scenario benchmark read.
@Suite("Send lateness histogram")
struct SendLatenessTests {
    @Test func valuesBelow1024MicrosAreExact() {
        var lateness = SendLateness()
        for value in [5, 999, 1, 1023, 200] as [Int64] { lateness.record(value) }
        #expect(lateness.count == 5)
        #expect(lateness.percentile(0.2) == 1)
        #expect(lateness.percentile(0.4) == 5)
        #expect(lateness.percentile(0.5) == 200)  // nearest rank: the 3rd of 5
        #expect(lateness.percentile(0.8) == 999)
        #expect(lateness.percentile(1) == 1023)
        #expect(lateness.maxMicros == 1023)
    }

    @Test func largerValuesAreWithinOneSixtyFourthAndNeverAboveTheMaximum() {
        for value in [1024, 1025, 5_000, 77_777, 1_234_567, 86_400_000_000, Int64.max / 3] as [Int64] {
            let index = SendLateness.bucket(of: value)
            let upper = SendLateness.upperBound(of: index)
            #expect(upper >= value, "\(value)")
            #expect(Double(upper - value) <= Double(value) / 64, "\(value) → \(upper)")
            #expect(
                SendLateness.bucket(of: upper) == index && SendLateness.bucket(of: upper + 1) == index + 1, "\(value)")
            var lateness = SendLateness()
            lateness.record(value)
            #expect(lateness.percentile(0.99) == value)  // capped at the exact maximum
        }
    }

    @Test func earlyFramesCountAsOnTimeAndMemoryStaysFixed() {
        var lateness = SendLateness()
        for index in 0..<300_000 { lateness.record(index % 3 == 0 ? -50 : Int64(index % 4000)) }
        #expect(lateness.count == 300_000)
        #expect(lateness.percentile(0.01) == 0)
        let p99 = lateness.percentile(0.99)
        #expect(p99 >= 3960 && p99 <= 3999 + 3999 / 64, "\(p99)")
        #expect(SendLateness().percentile(0.5) == 0)
    }
}
