"""The package's namespace (``swissframe/__init__.py``): every public name, loaded on use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import swissframe as sf

ROOT = Path(__file__).resolve().parents[1]


def _fresh(code: str) -> str:
    """What ``code`` prints in a fresh interpreter (this checkout's package)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    return out.stdout.strip()


def test_every_public_name_resolves_and_is_listed() -> None:
    for name in sf.__all__:
        assert getattr(sf, name) is not None, name
    assert set(sf.__all__) <= set(dir(sf))


def test_import_leaves_the_readers_unloaded_until_used() -> None:
    # the file readers and the archive recomputation are most of the package's own import
    # time; `import swissframe` (every CLI command, every notebook) does not load them
    code = ("import sys, swissframe as sf\n"
            "mods = ('swissframe.io.decklist', 'swissframe.io.tom', 'swissframe.io.trf', "
            "'swissframe.bulk', 'simdjson', 'isal')\n"
            "print([m for m in mods if m in sys.modules])\n"
            "from swissframe import read_tom\n"
            "import swissframe.io.tom as tom\n"
            "print(read_tom is tom.read_tom, sf.TomEvents is tom.TomEvents, "
            "'swissframe.io.tom' in sys.modules)\n")
    assert _fresh(code).splitlines() == ["[]", "True True True"]



def test_the_command_line_parser_leaves_the_readers_unloaded() -> None:
    """Every command builds the whole parser, which imports every command module: those
    imported the readers, the archive recomputation and tqdm at their top (about 50 ms of
    CPU of every command's 470–520: benchmarks/README.md, twenty-third session). They load
    when the command that reads them runs."""
    code = ("import sys\n"
            "from swissframe.cli._main import build_parser\n"
            "parser, modules = build_parser()\n"
            "mods = ('swissframe.io.decklist', 'swissframe.io.tom', 'swissframe.io.trf', "
            "'swissframe.bulk', 'tqdm', 'simdjson', 'isal')\n"
            "print(len(modules), [m for m in mods if m in sys.modules])\n")
    assert _fresh(code) == "11 []"

def test_functions_named_as_their_modules_stay_functions() -> None:
    # importing a subpackage sets it on the package: `sf.simulate` must stay the function
    # even once `swissframe.simulate._simulate` (or any module of that name) was imported
    names = ("standings", "simulate", "report", "verify", "explain", "validate", "compare",
             "sensitivity")
    code = ("import importlib, inspect, swissframe as sf\n"
            f"names = {names!r}\n"
            "for n in names:\n"
            "    importlib.import_module('swissframe.' + n)\n"
            "import swissframe.simulate._simulate, swissframe.report._event, "
            "swissframe.verify.published\n"
            "print([n for n in names if not inspect.isfunction(getattr(sf, n))])\n")
    assert _fresh(code) == "[]"


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        sf.no_such_name  # type: ignore[attr-defined]  # noqa: B018
