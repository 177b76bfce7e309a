"""The ``swissframe`` console script's entry point (``[project.scripts]`` in ``pyproject.toml``).

It lives beside the package, not in it: importing anything under :mod:`swissframe` first
runs the package's ``__init__`` (Polars, the engine, the analyses: most of a second of
start-up), and a Ctrl-C while that ran was a Python traceback, where a Ctrl-C anywhere
else ends the command with one line and status 130 (bad data 149). This module imports
only what the interpreter's start-up has loaded (``sys``, ``contextlib``; ``signal`` when
called; not even ``typing``), so its own import is the one moment of start-up after the
interpreter's own that a Ctrl-C is not caught in (about a millisecond). Python callers
use :func:`swissframe.cli.main`, which says an interrupt in the same words
(:func:`interrupted`).
"""

from __future__ import annotations

import contextlib  # (loaded by the interpreter's start-up already)
import sys

__all__ = ["INTERRUPTED", "INTERRUPTED_STATUS", "interrupted", "main"]

#: What the command says when Ctrl-C (SIGINT) stops it, at any moment.
INTERRUPTED = "swissframe: interrupted"
#: Its exit status: 128 + SIGINT, as a shell reports a process Ctrl-C ended.
INTERRUPTED_STATUS = 130


def interrupted() -> int:
    """Say that the command was interrupted (one line on stderr) and give its exit status.

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     code = interrupted()
    >>> code, err.getvalue()
    (130, 'swissframe: interrupted\\n')
    """
    with contextlib.suppress(OSError):  # (stderr closed or gone: the status says it)
        print(INTERRUPTED, file=sys.stderr, flush=True)
    return INTERRUPTED_STATUS


def main() -> int:
    """Run the ``swissframe`` command of this process's arguments; its exit status.

    A Ctrl-C while the package is imported (or at any later moment) ends it as an
    interrupt of a command does: ``swissframe: interrupted``, status 130, no traceback.
    Once the command has ended, a further Ctrl-C (while the line is written, or while the
    interpreter shuts down) ends the process at once, by the signal's default action
    (status 130 to a shell), never with a traceback.
    """
    import signal

    try:
        from swissframe.cli._main import main as run

        return run()
    except KeyboardInterrupt:
        # (the command is over: a second Ctrl-C stops the process, with no traceback)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        return interrupted()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
