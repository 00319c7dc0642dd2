"""The report in a real browser: headless Chromium (Debian's package, installed
by the fixture when missing) loads report.html, and through the DevTools
protocol the test reads the verdict, sorts a table by clicking its header, and
records every request the page makes: only the file itself and its embedded
data: images may load, nothing from the network.

The DevTools client is the few lines of WebSocket a test needs (standard
library only): text frames out, text frames in."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rnsim.games.red_notice.synthetic import random_results, write_run
from rnsim.report import write_report


def _find_chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, installed with apt-get when missing (CI runs as root
    on a fresh machine)."""
    path = _find_chromium()
    if path is None:
        if shutil.which("apt-get") is None or os.geteuid() != 0:
            pytest.skip("chromium is not installed and apt-get (as root) is not available to install it")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
            res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
            assert res.returncode == 0, f"{' '.join(cmd)} failed: {res.stderr[-2000:]}"
        path = _find_chromium()
    assert path is not None, "apt-get installed chromium, but it is not on PATH"
    return path


class DevTools:
    """A DevTools-protocol session over one WebSocket."""

    def __init__(self, url: str) -> None:
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        assert m, url
        self.sock = socket.create_connection((m.group(1), int(m.group(2))), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert b" 101 " in head.split(b"\r\n")[0], head
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def _recv_exact(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            buf += chunk
        return buf

    def _recv(self) -> dict[str, Any]:
        data = b""
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            data += self._recv_exact(n)  # the server never masks
            if b0 & 0x80:  # FIN: the message is complete
                return json.loads(data)  # type: ignore[no-any-return]

    def _send(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
                                if n < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = self._recv()
            if msg.get("id") == self.next_id:
                assert "error" not in msg, msg
                return msg.get("result", {})  # type: ignore[no-any-return]
            self.events.append(msg)

    def wait_for(self, method: str, timeout: float = 60) -> dict[str, Any]:
        end = time.monotonic() + timeout
        for e in self.events:
            if e.get("method") == method:
                return e
        while time.monotonic() < end:
            msg = self._recv()
            self.events.append(msg)
            if msg.get("method") == method:
                return msg
        raise TimeoutError(method)

    def js(self, expression: str) -> Any:
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in res, res
        return res["result"].get("value")


@contextlib.contextmanager
def open_browser(chromium: str, width: int = 1200, height: int = 1500) -> Iterator[DevTools]:
    """A headless Chromium with a DevTools session on its page; stopped (by
    its process id) on exit."""
    profile = tempfile.mkdtemp(prefix="rnsim-chromium-")
    proc = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
         "--disable-background-networking", "--hide-scrollbars", "--remote-debugging-port=0",
         "--remote-allow-origins=*", f"--window-size={width},{height}", f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        port = None
        end = time.monotonic() + 60
        while port is None and time.monotonic() < end:
            line = proc.stderr.readline()
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = int(m.group(1))
            elif not line and proc.poll() is not None:
                break
        assert port, "chromium did not start its DevTools server"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            pages = [p for p in json.load(r) if p.get("type") == "page"]
        dt = DevTools(pages[0]["webSocketDebuggerUrl"])
        dt.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        yield dt
        dt.sock.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)


def load(dt: DevTools, html: Path) -> None:
    """Open a page and wait until it (and its images) finished loading."""
    dt.call("Network.enable")
    dt.call("Page.enable")
    dt.events.clear()
    dt.call("Page.navigate", url=html.as_uri())
    dt.wait_for("Page.loadEventFired")


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[DevTools]:
    with open_browser(chromium) as dt:
        yield dt


@pytest.fixture(scope="module")
def page(browser: DevTools, tmp_path_factory: pytest.TempPathFactory) -> DevTools:
    run = tmp_path_factory.mktemp("browser") / "run"
    write_run(run, random_results(3000, seed=11, strategy_pairs=[("random", "random"), ("rule", "random")]))
    load(browser, write_report(run, svg=False))
    return browser


def test_verdict_is_the_first_thing_on_the_page(page: DevTools) -> None:
    first = page.js("document.querySelector('h1').nextElementSibling.className + '|' + "
                    "document.querySelector('h1').nextElementSibling.textContent")
    cls, text = first.split("|", 1)
    assert cls == "verdict"
    # two cells: both verdicts corrected for the other (Holm), the error games named
    assert re.fullmatch(r"(Jessah is favoured|Angela is favoured|No side is measurably favoured): Angela wins "
                        r"\d+\.\d% \[\d+\.\d, \d+\.\d\] of [\d,]+ played random games, "
                        r"\d+\.\d points (below|above) an even game \(p [=<] [\d.e-]+; [<\d.e -]+ after Holm's "
                        r"correction for 2 verdicts\); \d+\.\d% are timeouts; \d+ games? \(\d+\.\d%\) ended in an "
                        r"error and (is|are) not counted\.", text), text
    # the outcome figure right after the verdicts
    assert page.js("document.querySelector('p.verdict ~ figure img').naturalWidth") > 100


def test_clicking_a_header_sorts_the_table(page: DevTools) -> None:
    # the first cell's identity pairs: ranked best to worst; sort by games played, then by pair name
    col = page.js("""(() => {
        const t = document.querySelectorAll('table.sortable')[2];
        const names = Array.from(t.tHead.rows[0].cells).map(c => c.textContent);
        return names.indexOf('identity pair');
    })()""")
    assert col == 1
    read = """(() => {
        const t = document.querySelectorAll('table.sortable')[2];
        return Array.from(t.tBodies[0].rows).map(r => r.cells[%d].textContent);
    })()"""
    before = page.js(read % 1)
    page.js("document.querySelectorAll('table.sortable')[2].tHead.rows[0].cells[1].click()")
    after = page.js(read % 1)
    assert after == sorted(before) and after != before
    assert page.js("document.querySelectorAll('table.sortable')[2].tHead.rows[0].cells[1]"
                   ".getAttribute('aria-sort')") == "ascending"
    page.js("document.querySelectorAll('table.sortable')[2].tHead.rows[0].cells[1].click()")
    assert page.js(read % 1) == sorted(before, reverse=True)
    # a numeric column sorts by its number (Angela's win rate), not as text
    page.js("document.querySelectorAll('table.sortable')[2].tHead.rows[0].cells[3].click()")
    rates = [float(x.split("%")[0]) for x in page.js(read % 3)]
    assert rates == sorted(rates)


def test_nothing_loads_from_the_network(page: DevTools) -> None:
    urls = [e["params"]["request"]["url"] for e in page.events if e.get("method") == "Network.requestWillBeSent"]
    assert urls and urls[0].startswith("file://")
    assert all(u.startswith(("file://", "data:")) for u in urls), [u[:80] for u in urls
                                                                  if not u.startswith(("file://", "data:"))]
    assert page.js("document.querySelectorAll('script[src], link[href], iframe, object, embed').length") == 0


@pytest.fixture(scope="module")
def partial_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run with one shard lost, reported with --partial."""
    from click.testing import CliRunner

    from rnsim.cli import main

    run = tmp_path_factory.mktemp("partial") / "run"
    write_run(run, random_results(3000, seed=11, strategy_pairs=[("random", "random"), ("rule", "random")]))
    lost = sorted((run / "shards").glob("part-00003-*.parquet"))[0]
    lost.unlink()
    assert CliRunner().invoke(main, ["report", str(run)]).exit_code == 1  # refused without --partial
    r = CliRunner().invoke(main, ["report", str(run), "--partial"])
    assert r.exit_code == 0, r.output
    return run


def test_a_partial_report_says_so_before_anything_else(browser: DevTools, partial_run: Path) -> None:
    load(browser, partial_run / "report.html")
    first = browser.js("""(() => {
        const b = document.body.firstElementChild, h = document.querySelector('h1');
        const s = getComputedStyle(b);
        return {cls: b.className, text: b.textContent, top: b.getBoundingClientRect().top,
                h1: h.getBoundingClientRect().top, bg: s.backgroundColor, border: s.borderTopColor,
                shown: b.offsetHeight > 0 && s.visibility === 'visible' && s.display !== 'none',
                title: document.title};
    })()""")
    assert first["cls"] == "partial" and first["shown"]
    assert first["top"] < first["h1"]  # above the title, the first thing a reader sees
    assert re.match(r"Partial report: 2,900 of 3,000 planned games on disk \(96\.7%\)\. Every number below is over "
                    r"the games that are there, not the whole run\. Cell 3: games 0-99 missing\.", first["text"]), first["text"]
    assert first["bg"] != "rgba(0, 0, 0, 0)" and first["border"] == "rgb(178, 24, 43)"  # a red box, not plain text
    assert first["title"].endswith("(partial)")


def test_the_identities_chart_axes_read_in_percent(browser: DevTools, partial_run: Path) -> None:
    """The chart as a person sees it: the SVG opened in the browser, its tick
    labels read off the page."""
    svg = sorted((partial_run / "figures").glob("*-identities.svg"))[0]
    load(browser, svg)
    texts = browser.js("Array.from(document.querySelectorAll('text')).map(t => t.textContent.trim())")
    ticks = [t for t in texts if re.fullmatch(r"[\d.]+%?", t)]
    assert {"0%", "20%", "40%", "60%", "80%", "100%"} <= set(ticks), ticks
    assert not [t for t in ticks if re.fullmatch(r"0\.\d+|1\.0", t)], ticks  # no fraction of 1 anywhere


@pytest.fixture(scope="module")
def band_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run with a strength band (rule players, two probes), reported."""
    from rnsim.tournament import run_tournament
    from tests.test_band import _cfg

    run = tmp_path_factory.mktemp("band") / "run"
    assert run_tournament(_cfg(out=run), progress=False).complete
    return write_report(run, svg=False, workers=1)


def test_the_band_is_stated_under_the_verdict_and_shown_in_its_section(browser: DevTools, band_report: Path) -> None:
    load(browser, band_report)
    got = browser.js("""(() => {
        const v = document.querySelectorAll('p.verdict');
        const h = document.getElementById('band');
        const tables = [];
        for (let e = h.nextElementSibling; e && e.tagName !== 'H2'; e = e.nextElementSibling) {
            const t = e.tagName === 'TABLE' ? e : e.querySelector('table');
            if (t) tables.push(Array.from(t.tBodies[0].rows).map(r => r.cells[1].textContent));
        }
        return {second: v[1].textContent, heading: h.textContent, shown: h.offsetHeight > 0,
                contents: Array.from(document.querySelectorAll('nav a')).some(a => a.getAttribute('href') === '#band'),
                tables: tables};
    })()""")
    assert "with the expert pair" in got["second"] and "with the rule pair" in got["second"]
    assert got["heading"] == "Strength band" and got["shown"] and got["contents"]
    matrix, probes = got["tables"]
    assert matrix == ["the expert pair", "rule as Angela (expert Jessah)", "rule as Jessah (expert Angela)",
                      "the rule pair"]
    assert sorted(probes) == ["leak_reader", "pow_denier"]
