import Glibc

/// A thread of its own, not one of the concurrency pool's: for work that blocks (a child's
/// pipes, a sleeping sampler), so it never holds a pool thread.
package enum DetachedThread {
    /// Runs `body` on a new detached pthread; if none can be created, `body` does not run.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        guard
            pthread_create(
                &thread, nil,
                { argument in
                    Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
                    return nil
                }, box) == 0
        else {
            Unmanaged<Body>.fromOpaque(box).release()
            return
        }
        pthread_detach(thread)
    }
}
