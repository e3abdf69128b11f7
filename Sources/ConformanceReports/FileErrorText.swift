internal import FoundationEssentials
internal import Glibc

/// A file system error as one short phrase for a message (`No such file or directory`):
/// the system's text for the POSIX error under a Foundation file error, else the error itself.
package func fileErrorText(_ error: any Error) -> String {
    if let error = error as? CocoaError, let posix = error.underlying as? POSIXError {
        return String(cString: strerror(posix.code.rawValue))
    }
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    return String(describing: error)
}
