import ProtocolModel
import Testing
import WireJSON

@testable import ScenarioEngine

@Suite struct FaultStageTests {
    func frame(_ type: String?, at ms: Int64, text: String = #"{"a":1}"#) -> OutboundFrame {
        OutboundFrame(eventType: type, isText: type != nil, bytes: Array(text.utf8), dueAtMicros: ms * 1000)
    }

    func run(_ faults: [FaultSpec], _ frames: [OutboundFrame], seed: UInt64 = 1) -> FaultStageOutput {
        var stage = FaultStage(faults: faults, seed: seed)
        var output = FaultStageOutput()
        for frame in frames { output.append(stage.process(frame)) }
        output.append(stage.flush(atMicros: frames.last?.dueAtMicros ?? 0))
        return output
    }

    @Test func framesPassUnchangedWithoutFaults() {
        let output = run([], [frame("a", at: 0), frame(nil, at: 5), frame("b", at: 10)])
        #expect(output.frames.map(\.eventType) == ["a", nil, "b"])
        #expect(output.frames.map(\.sendAtMicros) == [0, 5000, 10_000])
        #expect(output.notes.isEmpty)
    }

    @Test func duplicateSendsMatchingFrameTwice() {
        let fault = FaultSpec(kind: .duplicate(copies: 1), match: EventMatcher(eventTypes: ["b"]))
        let output = run([fault], [frame("a", at: 0), frame("b", at: 1), frame("b", at: 2)])
        #expect(output.frames.map(\.eventType) == ["a", "b", "b", "b"])
        #expect(output.notes.count == 1)
    }

    @Test func dropRemovesOnlyMatchingFramesWithinLimitAndSkip() {
        let fault = FaultSpec(kind: .drop, match: EventMatcher(eventTypes: ["b"]), skip: 1, limit: .count(2))
        let frames = (0..<5).map { frame("b", at: Int64($0), text: "{\"n\":\($0)}") }
        let output = run([fault], frames)
        #expect(
            output.frames.map { String(decoding: $0.bytes, as: UTF8.self) } == [#"{"n":0}"#, #"{"n":3}"#, #"{"n":4}"#])
        #expect(output.notes.map(\.kind) == ["drop", "drop"])
    }

    @Test func reorderPermutesWindowAndReleasesAll() {
        let fault = FaultSpec(kind: .reorder(window: 4, holdMs: 1000), match: EventMatcher(binary: true))
        var frames = (0..<4).map { index in
            OutboundFrame(eventType: nil, isText: false, bytes: [UInt8(index)], dueAtMicros: Int64(index) * 1000)
        }
        frames.insert(frame("text", at: 1), at: 1)
        let output = run([fault], frames)
        let binaries = output.frames.filter { !$0.isText }.map { $0.bytes[0] }
        #expect(binaries.sorted() == [0, 1, 2, 3])
        #expect(binaries != [0, 1, 2, 3])
        #expect(output.frames.first?.eventType == "text")
        let times = output.frames.map(\.sendAtMicros)
        #expect(times == times.sorted())
    }

    @Test func reorderFlushesOnTimeoutAndClose() {
        let fault = FaultSpec(
            kind: .reorder(window: 5, holdMs: 100), match: EventMatcher(eventTypes: ["d"]), limit: .every)
        var stage = FaultStage(faults: [fault], seed: 9)
        _ = stage.process(frame("d", at: 0, text: "1"))
        _ = stage.process(frame("d", at: 10, text: "2"))
        #expect(stage.nextDeadlineMicros == 100_000)
        #expect(stage.tick(nowMicros: 50_000).frames.isEmpty)
        let released = stage.tick(nowMicros: 100_000)
        #expect(released.frames.count == 2)
        #expect(released.frames.allSatisfy { $0.sendAtMicros == 100_000 })
        _ = stage.process(frame("d", at: 200, text: "3"))
        let flushed = stage.flush(atMicros: 250_000)
        #expect(flushed.frames.map(\.bytes) == [Array("3".utf8)])
    }

    @Test func permutationIsNeverIdentity() {
        var random = SeededRandom(seed: 0)
        for count in 2...6 {
            for _ in 0..<50 {
                let order = FaultStage.permutation(count: count, using: &random)
                #expect(order.sorted() == Array(0..<count))
                #expect(order != Array(0..<count))
            }
        }
    }

    @Test func delayHoldsBackLaterFramesInOrder() {
        let fault = FaultSpec(kind: .delay(ms: 500), match: EventMatcher(eventTypes: ["slow"]))
        let output = run([fault], [frame("slow", at: 0), frame("next", at: 10), frame("late", at: 900)])
        #expect(output.frames.map(\.eventType) == ["slow", "next", "late"])
        #expect(output.frames.map(\.sendAtMicros) == [500_000, 500_000, 900_000])
    }

    @Test func truncateKeepsPrefixAtCharacterBoundary() throws {
        let fault = FaultSpec(kind: .truncateJSON(keepFraction: 0.5))
        let text = #"{"text":"你好你好你好"}"#
        let output = run([fault], [frame("x", at: 0, text: text)])
        let bytes = try #require(output.frames.first?.bytes)
        #expect(bytes.count < text.utf8.count)
        #expect(String(validating: bytes, as: UTF8.self) != nil)
        #expect(text.utf8.starts(with: bytes))
        #expect(throws: JSONDecodeError.self) { try JSONValue.decode(bytes) }
    }

    @Test func malformedJSONNoLongerParses() throws {
        let fault = FaultSpec(kind: .malformedJSON, match: EventMatcher(eventTypes: ["Started"]))
        let output = run([fault], [frame("Started", at: 0, text: #"{"a":[1,2]}"#)])
        let bytes = try #require(output.frames.first?.bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":[1,2],}"#)
        #expect(throws: JSONDecodeError.self) { try JSONValue.decode(bytes) }
    }

    @Test func textFaultsIgnoreBinaryFrames() {
        let fault = FaultSpec(kind: .truncateJSON(keepFraction: 0.5))
        let binary = OutboundFrame(eventType: nil, isText: false, bytes: [1, 2, 3, 4], dueAtMicros: 0)
        let output = run([fault], [binary, frame("t", at: 1, text: "{\"abcdef\":1}")])
        #expect(output.frames[0].bytes == [1, 2, 3, 4])
        #expect(output.frames[1].bytes.count == 6)
    }

    @Test func pointerMatchSelectsFrames() {
        let matcher = EventMatcher(pointer: ["payload", "output", "finished"], equals: true)
        let fault = FaultSpec(kind: .drop, match: matcher, limit: .every)
        func content(_ finished: Bool, _ ms: Int64) -> OutboundFrame {
            var frame = frame("RespondingContent", at: ms)
            frame.json = ["payload": ["output": ["finished": .bool(finished)]]]
            return frame
        }
        let output = run([fault], [content(false, 0), content(true, 1), content(false, 2)])
        #expect(output.frames.count == 2)
    }

    @Test func matchedCloseFollowsFrameAndDiscardsLaterFrames() {
        let fault = FaultSpec(kind: .close(code: 4000, reason: "bye"), match: EventMatcher(binary: true))
        let binary = OutboundFrame(eventType: nil, isText: false, bytes: [0, 0], dueAtMicros: 3000)
        let output = run([fault], [frame("a", at: 0), binary, frame("b", at: 5)])
        #expect(
            output.emissions == [
                .frame(ScheduledFrame(eventType: "a", isText: true, bytes: Array(#"{"a":1}"#.utf8), sendAtMicros: 0)),
                .frame(ScheduledFrame(eventType: nil, isText: false, bytes: [0, 0], sendAtMicros: 3000)),
                .transport(.close(code: 4000, reason: "bye"), atMicros: 3000),
            ])
        #expect(output.notes.last?.kind == "closed")
    }

    @Test(arguments: [
        (FaultSpec.Kind.abruptClose, TransportAction.abruptClose),
        (.stall(.write, ms: 250), .stall(.write, durationMicros: 250_000)),
        (.stall(.both, ms: nil), .stall(.both, durationMicros: nil)),
        (.slowClose(ms: 5000), .slowClose(delayMicros: 5_000_000)),
        (.bandwidthCap(bytesPerSecond: 8000), .bandwidthCap(bytesPerSecond: 8000)),
        (.fragment(frameBytes: 16), .fragment(frameBytes: 16)),
    ])
    func unmatchedTransportFaultActsOnArming(kind: FaultSpec.Kind, expected: TransportAction) {
        var stage = FaultStage(seed: 1)
        let output = stage.arm(FaultSpec(id: "f", kind: kind), atMicros: 42)
        #expect(output.emissions == [.transport(expected, atMicros: 42)])
        #expect(output.notes.first?.faultId == "f")
    }

    @Test func matchedFragmentAnnotatesFrame() {
        let fault = FaultSpec(kind: .fragment(frameBytes: 8), match: EventMatcher(eventTypes: ["big"]))
        let output = run([fault], [frame("big", at: 0), frame("big", at: 1)])
        #expect(output.frames.map(\.fragmentBytes) == [8, nil])
    }

    @Test func requestsAreEmittedForUnknownEventAndErrors() {
        let error = ErrorSpec(code: "invalid_value", message: "m")
        let fault = FaultSpec(kind: .injectError(error), match: EventMatcher(eventTypes: ["response.created"]))
        let output = run([fault], [frame("response.created", at: 7)])
        #expect(output.emissions.last == .request(.injectError(error), atMicros: 7000))
        var stage = FaultStage(seed: 1)
        let unknown = stage.arm(FaultSpec(kind: .unknownEvent(eventType: "x.y", template: nil)), atMicros: 0)
        #expect(unknown.emissions == [.request(.unknownEvent(eventType: "x.y", template: nil), atMicros: 0)])
    }

    @Test func probabilityIsSeeded() {
        let fault = FaultSpec(kind: .drop, limit: .every, probability: 0.5)
        let frames = (0..<200).map { frame("x", at: Int64($0)) }
        let first = run([fault], frames, seed: 11).frames.count
        #expect(first == run([fault], frames, seed: 11).frames.count)
        #expect((60...140).contains(first))
    }
}
