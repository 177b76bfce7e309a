"""The ``swissframe`` console script's entry point (``[project.scripts]`` in ``pyproject.toml``).

It lives beside the package, not in it: importing anything under :mod:`swissframe` first
runs the package's ``__init__`` (Polars, the engine, the analyses: most of a second of
start-up), and a Ctrl-C while that ran was a Python traceback, where a Ctrl-C anywhere
else ends the command with one line and status 130 (bad data 149). This module imports
only what the interpreter's start-up has loaded (``sys``, ``os``, ``contextlib``; ``signal``
when called; not even ``typing``), so its own import is the one moment of start-up after the
interpreter's own that a Ctrl-C is not caught in (about a millisecond). Python callers
use :func:`swissframe.cli.main`, which says an interrupt in the same words
(:func:`interrupted`).
"""

from __future__ import annotations

import contextlib  # (loaded by the interpreter's start-up already)
import os
import sys

TYPE_CHECKING = False  # (typing itself is not imported: see above)
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["INTERRUPTED", "INTERRUPTED_STATUS", "TERMINATED", "TERMINATED_STATUS",
           "THREADS_PER_CORE", "Terminated", "interrupted", "interrupts_kept", "main",
           "thread_setting_problem"]

#: What the command says when Ctrl-C (SIGINT) stops it, at any moment.
INTERRUPTED = "swissframe: interrupted"
#: Its exit status: 128 + SIGINT, as a shell reports a process Ctrl-C ended.
INTERRUPTED_STATUS = 130


#: The most threads ``POLARS_MAX_THREADS`` may ask of Polars, per core of the machine:
#: Polars starts every thread asked for, and the cores run them in turn. On 2 cores a small
#: event's standings took 4 s with 64 threads, 6.5 s with 256, 15 s with 512 and more than
#: 100 s with 1,024.
THREADS_PER_CORE = 128


def thread_setting_problem(environ: os._Environ[str] | dict[str, str] | None = None
                           ) -> str | None:
    """What is wrong with ``POLARS_MAX_THREADS`` (None: unset, or a value Polars can run
    with; one it cannot read it passes over with its own warning). Polars stops at its
    first query with 0 (a panic, "Worker threads cannot be set to 0", which a reader then
    took for a damaged file), and more than :data:`THREADS_PER_CORE` a core ran as a hang
    (bad data 175). Read by the console script before anything is imported and by
    ``import swissframe`` before any query.

    >>> thread_setting_problem({"POLARS_MAX_THREADS": "2"}) is None
    True
    >>> print(thread_setting_problem({"POLARS_MAX_THREADS": "0"}))  # doctest: +ELLIPSIS
    POLARS_MAX_THREADS='0' is not a number of threads from 1 to ... Hint: ...
    """
    value = (os.environ if environ is None else environ).get("POLARS_MAX_THREADS")
    digits = (value or "").strip().lstrip("+")
    if not digits.isdigit() or not digits.isascii():
        return None  # (unset, or no number Polars reads: it says so itself, and runs with
        # its default)
    cores = os.cpu_count() or 1
    most = THREADS_PER_CORE * cores
    if 1 <= int(digits) <= most:
        return None
    return (f"POLARS_MAX_THREADS={value!r} is not a number of threads from 1 to {most:,} "
            f"({THREADS_PER_CORE} a core of this machine's {cores}): Polars stops at its "
            "first query with 0, and starts every thread asked for, which the cores run in "
            f"turn. Hint: unset it, or set a number up to {cores}, e.g. "
            f"POLARS_MAX_THREADS={cores}.")


#: What the command says when SIGTERM stops it (``kill``, a job's timeout, a container
#: stopped), and its exit status: 128 + SIGTERM.
TERMINATED = "swissframe: terminated"
TERMINATED_STATUS = 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the command is as a Ctrl-C is: Python's default for SIGTERM
    ends the process at once, so an output being written left its temporary file or a
    season's scratch folder (``.season.5991fbf2.part``) beside it, with no word (bad data
    217). As a ``KeyboardInterrupt``, every cleanup that outlasts a Ctrl-C runs for it."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


@contextlib.contextmanager
def interrupts_kept() -> Iterator[None]:
    """Within it, a Ctrl-C (or SIGTERM) that lands where Python cannot raise it is raised
    again where it can, instead of being lost.

    Python swallows an exception raised in an after-fork handler, a ``__del__`` or a
    weakref callback ("Exception ignored in: <function _releaseLock …>"): a Ctrl-C 0.5 s
    into ``swissframe standings`` of a decklist cache, as the reader forked its worker
    processes, printed that traceback and the command ran on, writing its output, exit 0
    (bad data 225). The interrupt is sent again, by its own signal, from another thread a
    moment later, and its handler raises it at the command's next step: one line, exit
    130 (143). Sent from here, its handler ran inside this hook, where the interrupt was
    lost again ("Exception ignored in sys.unraisablehook"); should it land in such a
    place once more, it comes back here and is sent again. Other unraisable exceptions go
    to the hook that was in place."""
    import signal

    previous = sys.unraisablehook

    def hook(args: sys.UnraisableHookArgs) -> None:
        lost = args.exc_value
        while isinstance(lost, KeyboardInterrupt):
            try:
                import threading

                sig = signal.SIGTERM if isinstance(lost, Terminated) else signal.SIGINT
                later = threading.Timer(0.001, os.kill, (os.getpid(), sig))
                later.daemon = True
                later.start()
                return
            except KeyboardInterrupt as again:
                # (the interrupt sent again, its handler run here, inside this hook, where
                # it is lost once more — "Exception ignored in sys.unraisablehook": on a
                # loaded machine the thread's signal came before the hook had returned, 9
                # times in 40; it is sent once more)
                lost = again
        previous(args)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


def interrupted(exc: BaseException | None = None) -> int:
    """Say that the command was interrupted (one line on stderr) and give its exit status:
    ``exc`` a :class:`Terminated` is said as SIGTERM, anything else as a Ctrl-C.

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     code = interrupted()
    >>> code, err.getvalue()
    (130, 'swissframe: interrupted\\n')
    """
    term = isinstance(exc, Terminated)
    with contextlib.suppress(OSError):  # (stderr closed or gone: the status says it)
        print(TERMINATED if term else INTERRUPTED, file=sys.stderr, flush=True)
    return TERMINATED_STATUS if term else INTERRUPTED_STATUS


def main() -> int:
    """Run the ``swissframe`` command of this process's arguments; its exit status.

    A Ctrl-C while the package is imported (or at any later moment) ends it as an
    interrupt of a command does: ``swissframe: interrupted``, status 130, no traceback.
    Once the command has ended, a further Ctrl-C (while the line is written, or while the
    interpreter shuts down) ends the process at once, by the signal's default action
    (status 130 to a shell), never with a traceback.
    """
    import signal

    problem = thread_setting_problem()
    if problem is not None:  # (before Polars is imported: no query may run with it)
        print(f"swissframe: error: {problem}", file=sys.stderr)
        return 2
    # (SIGTERM as an interrupt, unless the parent has it ignored: bad data 217)
    terminate = signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    if terminate:
        signal.signal(signal.SIGTERM, _terminate)
    try:
        with interrupts_kept():
            from swissframe.cli._main import main as run

            return run()
    except KeyboardInterrupt as exc:
        # (the command is over: a second Ctrl-C stops the process, with no traceback)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        return interrupted(exc)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if terminate:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
