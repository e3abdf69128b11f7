import Dispatch
import Glibc
import Synchronization

/// Writes the `--record` files off the service threads. Journals hand it lines; its one thread
/// appends them to their files and flushes at least every `flushMillis`, so a record is on disk
/// while its session runs (a server killed with SIGKILL loses at most that last interval) and no
/// service thread ever waits for the disk. ``finish()`` returns once everything handed over so
/// far is written and flushed (the server calls it when it stops).
package final class RecordWriter: Sendable {
    private enum Operation {
        case write(path: String, bytes: [UInt8])
        case close(path: String)
        /// Everything before is written: signal, and end the thread.
        case finished(DispatchSemaphore)
    }

    /// The `--record` directory.
    package let directory: String
    /// Operations not yet taken by the writer thread; `stopped` once ``finish()`` was called.
    private let queue = Mutex<(operations: [Operation], stopped: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)
    private let flushMillis: Int
    private let logger: Logger

    package init(directory: String, flushMillis: Int = 20, logger: Logger) {
        self.directory = directory
        self.flushMillis = flushMillis
        self.logger = logger
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                let writer = Unmanaged<RecordWriter>.fromOpaque(argument!).takeRetainedValue()
                writer.run()
                return nil
            }, box)
        if rc == 0 { pthread_detach(thread) } else { Unmanaged<RecordWriter>.fromOpaque(box).release() }
    }

    /// The record file of session `id`.
    package func path(ofSession id: String) -> String { "\(directory)/\(id).jsonl" }

    /// Appends `line` (with its newline) to the file at `path`, creating it on first use.
    package func append(_ line: String, to path: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        queue.withLock { $0.operations.append(.write(path: path, bytes: bytes)) }
    }

    /// Flushes and closes `path` after the lines handed over before.
    package func close(_ path: String) {
        queue.withLock { $0.operations.append(.close(path: path)) }
    }

    /// Blocks until every line handed over so far is written and flushed, then ends the
    /// writer's thread (the server has stopped; later lines are not written). Again: no-op.
    package func finish() {
        let done = DispatchSemaphore(value: 0)
        let running = queue.withLock { queue in
            guard !queue.stopped else { return false }
            queue.operations.append(.finished(done))
            queue.stopped = true
            return true
        }
        guard running else { return }
        wake.signal()
        done.wait()
    }

    /// The writer thread: one per server, until the server stops.
    private func run() {
        var files: [String: UnsafeMutablePointer<FILE>] = [:]
        var failed: Set<String> = []
        var running = true
        while running {
            _ = wake.wait(timeout: .now() + .milliseconds(flushMillis))
            let operations = queue.withLock { queue in
                let taken = queue.operations
                queue.operations.removeAll(keepingCapacity: true)
                return taken
            }
            guard !operations.isEmpty else { continue }
            var touched: Set<String> = []
            var waiting: [DispatchSemaphore] = []
            for operation in operations {
                switch operation {
                case .write(let path, let bytes):
                    guard let file = files[path] ?? open(path, &files, &failed) else { continue }
                    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                    touched.insert(path)
                case .close(let path):
                    if let file = files.removeValue(forKey: path) { fclose(file) }
                    touched.remove(path)
                    failed.remove(path)
                case .finished(let semaphore):
                    waiting.append(semaphore)
                    running = false
                }
            }
            for path in touched { if let file = files[path] { fflush(file) } }
            for semaphore in waiting { semaphore.signal() }
        }
        for file in files.values { fclose(file) }
    }

    private func open(
        _ path: String, _ files: inout [String: UnsafeMutablePointer<FILE>], _ failed: inout Set<String>
    )
        -> UnsafeMutablePointer<FILE>?
    {
        guard !failed.contains(path) else { return nil }
        guard let file = fopen(path, "w") else {
            failed.insert(path)
            logger(.error, "--record: cannot write \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        files[path] = file
        return file
    }
}
