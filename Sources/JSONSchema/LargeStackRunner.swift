internal import Glibc
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
        let thread = Job { box.value = body() }
        // Allocated, not `pthread_attr_t()`: the struct's Swift initializer belongs to whichever
        // C module first included its header (here CJansson, through WireJSON).
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        pthread_attr_init(attributes)
        defer {
            pthread_attr_destroy(attributes)
            attributes.deallocate()
        }
        pthread_attr_setstacksize(attributes, 64 << 20)
        var handle = pthread_t()
        let context = Unmanaged.passRetained(thread).toOpaque()
        let rc = pthread_create(
            &handle, attributes,
            { argument in
                Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            preconditionFailure("cannot start the evaluation thread: pthread_create returned \(rc)")
        }
        pthread_join(handle, nil)
        guard let result = box.value else { preconditionFailure("evaluation thread produced no result") }
        return result
    }

    /// What the helper thread runs.
    private final class Job: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Carries the result from the helper thread back.
    // @unchecked: written once by the helper thread before it exits, read only by the joining
    // thread after `pthread_join` returns.
    private final class ResultBox<Value>: @unchecked Sendable {
        var value: Value?
    }
}
