"""Build hook: compile the On The Way playout kernel and its policy with mypyc where a C compiler is found.

Every bot and every advice spends its time in those two modules (``bots/kernel.py``, ``bots/policy.py``):
compiled, they play the very same games about twice as fast (``docs/bots.md``, "The playout kernel").
Plain Python stays the fallback and gives the same results: without mypy (32-bit ARM: see
pyproject.toml), a C compiler or the Python headers, or with ``COMPANION_PURE_PYTHON=1`` set, the
build says so and installs the package as plain Python, without compiled files of an earlier build.
``bots/native.py`` uses the compiled modules only while they match the sources.
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

# The commands that build the package (pip's metadata and sdist steps finalize build_ext too: no mypyc there).
BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


class BuildNative(build_ext):
    """Generate C with mypyc when the package is built, compile it and write the stamp; on any failure,
    say so and leave the package plain Python."""

    digest: str | None = None  # of the sources compiled, taken before compiling

    def finalize_options(self) -> None:
        # The placeholders stay where nothing is compiled: ``run`` then removes an earlier build's files.
        modules = list(self.distribution.ext_modules or [])
        if BUILDING.isdisjoint(self.distribution.commands):
            pass  # pip asks for metadata or an sdist: nothing is built now
        elif native.wants_pure(os.environ):
            print(f"companion: {native.PURE_ENV} is set: the playout kernel stays plain Python", file=sys.stderr)
        else:
            try:
                from mypyc.build import mypycify

                digest = native.sources_digest(PACKAGE)
                modules = mypycify([str(PACKAGE / f"{name}.py") for name in native.COMPILED], opt_level="3")
                self.digest = digest
            except (Exception, SystemExit) as error:  # no mypyc here is no reason to fail the install
                plain_python(error)
        self.distribution.ext_modules = modules
        super().finalize_options()

    def run(self) -> None:
        if self.digest is None:
            self.remove_compiled()
            return
        try:
            super().run()
        except (Exception, SystemExit) as error:  # nor is a C compiler or Python's headers missing
            plain_python(error)
            self.remove_compiled()
            return
        stamp = Path(self.get_ext_fullpath(f"{MODULE}.kernel")).with_name(native.stamp_name())
        stamp.write_text(self.digest + "\n", encoding="utf-8")

    def remove_compiled(self) -> None:
        """No compiled file of an earlier build in a plain-Python one (a wheel, or the tree in place)."""
        for top in {Path(self.build_lib), Path(".")} if self.inplace else {Path(self.build_lib)}:
            folder = top / PACKAGE
            for path in [folder / f"{n}{native.SUFFIX}" for n in native.COMPILED] + [folder / native.stamp_name()]:
                path.unlink(missing_ok=True)
            for shared in top.glob(f"*__mypyc{native.SUFFIX}"):
                shared.unlink()


def plain_python(error: BaseException) -> None:
    print(f"companion: the playout kernel stays plain Python (the same games, half as fast): {error}", file=sys.stderr)


# Placeholders, replaced in ``BuildNative.finalize_options``: they tell setuptools the package has compiled parts.
setup(
    ext_modules=[Extension(f"{MODULE}.{name}", []) for name in native.COMPILED],
    cmdclass={"build_ext": BuildNative},
)
