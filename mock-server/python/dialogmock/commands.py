"""The wheel's console scripts: each runs the binary the wheel carries in ``dialogmock/bin``.

``dialogmock-server`` → ``mock-server``, ``dialogmock-conformance`` → ``conformance``,
``dialogmock-adapter`` → ``dialogmock-adapter``; arguments and exit status pass through (the
process is replaced, so signals reach the binary itself). ``dialogmock-server`` runs on the poll
event loop unless told ``--event-loop`` (see ``server.bundled_event_loop``).
"""

from __future__ import annotations

import os
import sys
from typing import List, NoReturn, Optional

from .server import bundled_binary, bundled_event_loop

__all__ = ["mock_server", "conformance", "adapter", "run"]


def run(name: str, argv: Optional[List[str]] = None) -> NoReturn:
    """Replaces this process with the bundled binary ``name`` and ``argv`` (default: this
    command's arguments). Exit status 127 with a message when this install has no binaries."""
    path = bundled_binary(name)
    if path is None:
        sys.stderr.write(
            f"dialogmock: this install of the dialogmock package carries no {name} binary (a source "
            "install has none; install the platform wheel, or build it with `swift build`)\n")
        sys.exit(127)
    arguments = sys.argv[1:] if argv is None else list(argv)
    if name == "mock-server":
        arguments += bundled_event_loop(arguments)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path, *arguments])


def mock_server() -> NoReturn:
    run("mock-server")


def conformance() -> NoReturn:
    run("conformance")


def adapter() -> NoReturn:
    run("dialogmock-adapter")
