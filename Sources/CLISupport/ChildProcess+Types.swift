extension ChildProcess {
    /// Where the child's stdin comes from.
    package enum Input: Sendable {
        /// /dev/null: the child reads end of input at once.
        case null
        /// A pipe written with ``write(_:)`` and closed with ``closeInput()``.
        case pipe
    }

    /// Where one of the child's outputs goes.
    package enum Output: Sendable {
        /// Shared with this process.
        case inherit
        /// Kept for ``standardOutput`` / ``standardError``, up to `limit` bytes (the rest is read and dropped).
        case keep(limit: Int = 64 << 20)
        /// The complete lines of each read (without their newlines; an unterminated last line at
        /// end of output too), handed over on the reader thread as they arrive.
        case lines(@Sendable ([String]) -> Void)
    }

    /// How the child ended.
    package enum Termination: Sendable, Hashable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit code, or the number of the signal that ended it.
        package var status: Int32 {
            switch self {
            case .exited(let code), .signalled(let code): code
            }
        }

        /// "exit N" or "signal N".
        package var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "signal \(signal)"
            }
        }

        /// From a wait status (WIFEXITED, WEXITSTATUS and WTERMSIG are macros: the low 7 bits are the signal).
        init(waitStatus: Int32) {
            self = waitStatus & 0x7F == 0 ? .exited((waitStatus >> 8) & 0xFF) : .signalled(waitStatus & 0x7F)
        }
    }

    /// A child that could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// What a child run to its end left (``run(_:_:environment:workingDirectory:input:timeout:)``).
    package struct Completed: Sendable {
        package let termination: Termination
        package let stdout: String
        package let stderr: String
        /// The exit code, or the number of the signal that ended it.
        package var status: Int32 { termination.status }
    }
}
