internal import Foundation
import WireJSON

/// Runs deep evaluations on a thread with a large stack.
///
/// Evaluation recurses once per level of instance nesting (several frames per level), and the
/// threads Swift concurrency and test runners use have small stacks: about 800 levels crashed a
/// debug build. Jansson accepts 2047 levels, so instances nested deeper than
/// ``inlineDepthLimit`` are evaluated on a helper thread with a 64 MB stack (reserved, not
/// committed); shallow ones, the normal case, run inline.
enum LargeStackRunner {
    /// Deeper instances go to the helper thread.
    static let inlineDepthLimit = 64

    /// Whether `value` nests more than `limit` arrays/objects deep (stops counting at `limit`).
    static func nestsDeeperThan(_ limit: Int, _ value: JSONValue) -> Bool {
        var pending: [(value: JSONValue, depth: Int)] = [(value, 0)]
        while let (current, depth) = pending.popLast() {
            switch current {
            case .array(let elements):
                if depth + 1 > limit { return true }
                for element in elements { pending.append((element, depth + 1)) }
            case .object(let members):
                if depth + 1 > limit { return true }
                for member in members.values { pending.append((member, depth + 1)) }
            default:
                continue
            }
        }
        return false
    }

    /// Runs `body` on a new thread with a 64 MB stack and waits for its result.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let box = ResultBox<Result>()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = body()
            finished.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        finished.wait()
        guard let result = box.value else { preconditionFailure("evaluation thread produced no result") }
        return result
    }

    /// Carries the result from the helper thread back.
    // @unchecked: written once by the helper thread before it signals the semaphore, read only
    // by the waiting thread after the wait returns.
    private final class ResultBox<Value>: @unchecked Sendable {
        var value: Value?
    }
}
