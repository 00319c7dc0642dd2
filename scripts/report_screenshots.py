"""Screenshots of a report for the docs (docs/report-*.png), taken by headless
Chromium through the same DevTools client as the browser test.

    .venv/bin/python scripts/report_screenshots.py RUN_DIR [--out docs]

Writes report-top.png (the verdict, the outcome figure), report-pairs.png (the
first cell's identity pairs, its table sorted by clicking the "games" header)
and report-upgrades.png.
"""

from __future__ import annotations

import argparse
import base64
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_report_browser import _find_chromium, load, open_browser  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    args = ap.parse_args()
    chromium = _find_chromium()
    if chromium is None:
        sys.exit("chromium is not installed (apt-get install chromium)")
    html = args.run_dir / "report.html"
    if not html.is_file():
        sys.exit(f"{html}: no report; run `rnsim report {args.run_dir}` first")
    with open_browser(chromium, 1200, 1400) as dt:
        load(dt, html.resolve())

        def shot(name: str) -> None:
            data = dt.call("Page.captureScreenshot", format="png")["data"]
            (args.out / f"report-{name}.png").write_bytes(base64.b64decode(data))
            print(args.out / f"report-{name}.png")

        shot("top")
        dt.js("document.querySelector('h3[id$=\"-pairs\"]').scrollIntoView()")
        shot("pairs")
        dt.js("""(() => { const h = document.querySelector('h3[id$="-pairs"]');
                 let t = h.nextElementSibling; while (t && !t.querySelector('table')) t = t.nextElementSibling;
                 const th = Array.from(t.querySelectorAll('th')).find(c => c.textContent === 'games');
                 th.click(); t.scrollIntoView(); })()""")
        shot("sorted")
        dt.js("document.querySelector('h3[id$=\"-upgrades\"]').scrollIntoView()")
        shot("upgrades")


if __name__ == "__main__":
    main()
