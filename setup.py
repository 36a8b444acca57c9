"""Build hook: compile the On The Way playout kernel and its policy with mypyc where a C compiler is found.

Every bot and every advice spends its time in those two modules (``bots/kernel.py``, ``bots/policy.py``):
compiled, they play the very same games about three times faster (``docs/bots.md``, "The playout
kernel"). Plain Python stays the fallback and gives the same results: without a C compiler or the
Python headers, or with ``COMPANION_PURE_PYTHON=1`` set, the build says so and installs the package
as plain Python. ``bots/native.py`` uses the compiled modules only while they match the sources.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PACKAGE = Path("companion/games/on_the_way/bots")
MODULE = PACKAGE.as_posix().replace("/", ".")
# bots/native.py (standard library only) names the compiled modules and hashes their sources; loaded by
# path, so that the build does not import the package and its dependencies.
_spec = importlib.util.spec_from_file_location("companion_native_build", PACKAGE / "native.py")
assert _spec is not None and _spec.loader is not None
native = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(native)


class BuildNative(build_ext):
    """Generate C with mypyc when a build needs it (not when pip only asks for metadata), compile it, and
    write the stamp; on any failure, say so and leave the package plain Python."""

    def finalize_options(self) -> None:
        modules = []
        if os.environ.get(native.PURE_ENV):
            print(f"companion: {native.PURE_ENV} is set: the playout kernel stays plain Python", file=sys.stderr)
        else:
            try:
                from mypyc.build import mypycify

                modules = mypycify([str(PACKAGE / f"{name}.py") for name in native.COMPILED], opt_level="3")
            except (Exception, SystemExit) as error:  # no mypyc here is no reason to fail the install
                plain_python(error)
        self.distribution.ext_modules = modules
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except (Exception, SystemExit) as error:  # nor is a C compiler or Python's headers missing
            plain_python(error)
            return
        stamp = Path(self.get_ext_fullpath(f"{MODULE}.kernel")).with_name(native.STAMP)
        stamp.write_text(native.sources_digest(PACKAGE) + "\n", encoding="utf-8")


def plain_python(error: BaseException) -> None:
    print(f"companion: the playout kernel stays plain Python (same games, about 3x slower): {error}", file=sys.stderr)


# A placeholder, replaced in ``BuildNative.run``: it tells setuptools that the package has compiled parts.
setup(
    ext_modules=[Extension(f"{MODULE}.{name}", []) for name in native.COMPILED],
    cmdclass={"build_ext": BuildNative},
)
