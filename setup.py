"""Build hook: compile the modules ``companion/native.py`` names (the On The Way playout kernel and its
policy) with mypyc where a C compiler is found.

Every bot and every advice spends its time in those modules: compiled, they play the very same games
about twice as fast (``docs/bots.md``, "The playout kernel"). Plain Python stays the fallback and gives
the same results: without mypy (32-bit ARM: see pyproject.toml), a C compiler or the Python headers,
or with ``COMPANION_PURE_PYTHON=1`` set, the build says so and installs the package as plain Python,
without compiled files of an earlier build. ``companion/native.py`` uses the compiled modules only
while they match their sources.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# companion/native.py (standard library only) names the compiled modules and hashes their sources;
# loaded by its path, so that the build does not import the package and its dependencies.
_spec = importlib.util.spec_from_file_location("companion_native_build", Path("companion/native.py"))
assert _spec is not None and _spec.loader is not None
native = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(native)
HERE = Path.cwd()  # setuptools runs this file from the source tree
MODULES = [f"{package}.{name}" for package, compiled in native.COMPILED.items() for name in compiled.modules]

# The commands that build the package (pip's metadata and sdist steps finalize build_ext too: no mypyc there).
BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


class BuildNative(build_ext):
    """Generate C with mypyc when the package is built, compile it and write the stamps; on any failure,
    say so and leave the package plain Python."""

    digests: dict[str, str] | None = None  # package -> the hash of the sources compiled, taken before

    def finalize_options(self) -> None:
        # The placeholders stay where nothing is compiled: ``run`` then removes an earlier build's files.
        modules = list(self.distribution.ext_modules or [])
        if BUILDING.isdisjoint(self.distribution.commands):
            pass  # pip asks for metadata or an sdist: nothing is built now
        elif native.wants_pure(os.environ):
            print(f"companion: {native.PURE_ENV} is set: the compiled modules stay plain Python", file=sys.stderr)
        else:
            try:
                from mypyc.build import mypycify

                digests = {package: native.sources_digest(package, HERE) for package in native.COMPILED}
                modules = mypycify([m.replace(".", "/") + ".py" for m in MODULES], opt_level="3")
                self.digests = digests
            except (Exception, SystemExit) as error:  # no mypyc here is no reason to fail the install
                plain_python(error)
        self.distribution.ext_modules = modules
        super().finalize_options()

    def run(self) -> None:
        if self.digests is None:
            self.remove_compiled()
            return
        try:
            super().run()
        except (Exception, SystemExit) as error:  # nor is a C compiler or Python's headers missing
            plain_python(error)
            self.remove_compiled()
            return
        for package, digest in self.digests.items():
            first = native.COMPILED[package].modules[0]
            stamp = Path(self.get_ext_fullpath(f"{package}.{first}")).with_name(native.stamp_name())
            stamp.write_text(digest + "\n", encoding="utf-8")

    def remove_compiled(self) -> None:
        """No compiled file of an earlier build in a plain-Python one (a wheel, or the tree in place)."""
        for top in {Path(self.build_lib), HERE} if self.inplace else {Path(self.build_lib)}:
            for package, compiled in native.COMPILED.items():
                folder = native.folder_of(package, top)
                for path in [folder / f"{n}{native.SUFFIX}" for n in compiled.modules] + [folder / native.stamp_name()]:
                    path.unlink(missing_ok=True)
            for shared in top.glob(f"*__mypyc{native.SUFFIX}"):
                shared.unlink()


def plain_python(error: BaseException) -> None:
    print(f"companion: the compiled modules stay plain Python (the same results, slower): {error}", file=sys.stderr)


# Placeholders, replaced in ``BuildNative.finalize_options``: they tell setuptools the package has compiled parts.
setup(ext_modules=[Extension(module, []) for module in MODULES], cmdclass={"build_ext": BuildNative})
