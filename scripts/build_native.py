"""The compiled builds in place, with the command line of `make install`'s
step: a front end to setup.py's build_ext, which is the one build (of the
wheel, of `pip install .`, of an editable install and of `make install`; see
setup.py and rnsim/compiled.py).

    python scripts/build_native.py                 # rebuild them all
    python scripts/build_native.py --stale         # only those missing or older than their sources
    python scripts/build_native.py fbi-strategies  # some: engine, strategies, fbi-engine, fbi-strategies, chance
    python scripts/build_native.py --jobs 1        # one compiler at a time (default: 2)
    python scripts/build_native.py --clean         # remove them (the Python source is used)

The generated C stays in build/temp.*/mypyc/TARGET (for `callgrind_annotate
--auto=yes OUT FILE.c`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    args, jobs = list(argv), "2"
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = args[i + 1] if i + 1 < len(args) else ""
        if not jobs.isdigit() or int(jobs) < 1:
            print("--jobs: a whole number of compilers at a time, at least 1", file=sys.stderr)
            return 2
        del args[i:i + 2]
    flags = [a for a in args if a.startswith("-")]
    bad = [f for f in flags if f not in ("--clean", "--stale")]
    if bad:
        print(f"unknown option {bad[0]!r}; options: --stale, --clean, --jobs N", file=sys.stderr)
        return 2
    names = [a for a in args if not a.startswith("-")]
    targets = [f"--targets={','.join(names)}"] if names else []
    if "--clean" in flags:
        cmd = ["clean_compiled", *targets]
    else:
        cmd = ["build_ext", "--inplace", f"--parallel={jobs}", *(["--force"] if "--stale" not in flags else []), *targets]
    return subprocess.call([sys.executable, "setup.py", "-q", *cmd], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
