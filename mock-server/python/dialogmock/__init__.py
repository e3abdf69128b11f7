"""dialogmock: drive the DialogMock ``mock-server`` from Python tests.

``MockServer`` starts the binary and wraps its control API; the pytest plugin
(``dialogmock.pytest_plugin``, registered through the ``pytest11`` entry point) adds the
``dialogmock_server`` and ``dialogmock`` fixtures. The wheel also carries the binaries
(``dialogmock/bin``: ``mock-server``, ``conformance``, ``dialogmock-adapter``) and the commands
``dialogmock-server``, ``dialogmock-conformance`` and ``dialogmock-adapter`` that run them.
"""

from .server import (
    DEFAULT_LIVE_MODEL,
    DEFAULT_REALTIME_MODEL,
    PROTOCOLS,
    BinaryNotFoundError,
    ControlAPIError,
    MockServer,
    MockServerError,
    bundled_binary,
    bundled_root,
    find_binary,
    find_repo_root,
    format_violation,
    violation_level,
)
from .testing import DialogMockTest

__version__ = "0.1.0"

__all__ = [
    "MockServer",
    "MockServerError",
    "BinaryNotFoundError",
    "ControlAPIError",
    "DialogMockTest",
    "find_binary",
    "bundled_binary",
    "bundled_root",
    "find_repo_root",
    "format_violation",
    "violation_level",
    "DEFAULT_REALTIME_MODEL",
    "DEFAULT_LIVE_MODEL",
    "PROTOCOLS",
    "__version__",
]
