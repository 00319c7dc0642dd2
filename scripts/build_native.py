"""Compile the hot modules with mypyc: the engine (about 3x faster games) and
the expert strategy (about 1.4x). See rnsim/compiled.py for how a build is
chosen over its Python source (only while its stamp matches the sources).
`make install` runs this; it is safe to run again at any time.

    python scripts/build_native.py                 # build both
    python scripts/build_native.py strategies      # build one: engine or strategies
    python scripts/build_native.py --clean         # remove the compiled modules
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Load rnsim/compiled.py by path: importing the rnsim package would import
# the engine, which is what is being rebuilt.
_spec = importlib.util.spec_from_file_location("_rnsim_compiled", ROOT / "rnsim" / "compiled.py")
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
sys.modules["_rnsim_compiled"] = compiled  # dataclasses look the module up by name
_spec.loader.exec_module(compiled)


def build(target: compiled.CompiledBuild) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    target.clean()
    paths = [str(p.relative_to(ROOT)) for p in target.sources()]
    tmp = tempfile.mkdtemp(prefix="rnsim-native-")
    old = os.getcwd()
    os.chdir(ROOT)  # mypy reads its settings from pyproject.toml here
    try:
        setup(
            name=f"rnsim-native-{target.package}",
            packages=[],
            ext_modules=mypycify(paths, opt_level="3", group_name=target.group),
            script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp, "--build-lib", tmp],
        )
    finally:
        os.chdir(old)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(ROOT / "build", ignore_errors=True)
    target.stamp.write_text(target.source_hash() + "\n")
    print(f"compiled {target.label} built: {', '.join(target.modules)}")


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")] or list(compiled.TARGETS)
    unknown = [n for n in names if n not in compiled.TARGETS]
    if unknown:
        print(f"unknown target {unknown[0]!r}; targets: {', '.join(compiled.TARGETS)}", file=sys.stderr)
        return 2
    for name in names:
        target = compiled.TARGETS[name]
        if "--clean" in argv:
            target.clean()
            print(f"compiled {target.label} removed")
        else:
            build(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
