# SPDX-License-Identifier: Apache-2.0
"""The HTML timeline in headless Chromium (Debian's chromium, driven by
Playwright pointed at it: no browser download): lanes, marks, runs, zoom,
hover and the window selection's figures, for a trace recorded in this
run; a screenshot is kept in the artefacts directory."""
import os
import shutil

import pytest

from limentrace import analysis, decode as d, html, timeline

CHROMIUM = os.environ.get("LIMEN_CHROMIUM") or shutil.which("chromium") or \
    shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)")


@pytest.fixture(scope="module")
def page_of(qemu_run, tmp_path_factory, artefacts):
    tr = d.load(os.path.join(qemu_run[0], "pc-unique.lmtrace"))
    path = tmp_path_factory.mktemp("html") / "unique.html"
    path.write_text(html.render(tr, "unique"), encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 400})
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())
        page.wait_for_selector("#marks")
        yield tr, page, requests
        page.screenshot(path=os.path.join(artefacts, "timeline-unique.png"), full_page=True)
        browser.close()


def us(tr, t):
    return round(tr.us(t - tr.records[0].t), 3)


def test_lanes_marks_runs(page_of):
    tr, page, requests = page_of
    tl = timeline.build(tr)
    lanes = page.eval_on_selector_all("text.lane-label", "els => els.map(e => e.dataset.name)")
    assert lanes == ["idle", "A", "B", "C", "D"] == [ln["name"] for ln in tl["lanes"]]
    marks = page.locator("line.mark").count()
    assert marks == len(tr.records) == len(tl["marks"])
    preempt = sum(1 for r in tr.records if r.type == d.SWITCH and r.arg in d.R_PREEMPTS)
    assert page.locator("line.mark.preemption").count() == preempt > 0
    assert page.locator("line.mark.switch").count() == sum(
        1 for r in tr.records if r.type == d.SWITCH)
    assert page.locator("rect.run").count() == len(tl["runs"])
    # Each switch joins the two lanes with a line.
    assert page.locator("line.swline").count() == sum(
        1 for r in tr.records if r.type == d.SWITCH)
    # One file, nothing fetched: the page's only request is itself.
    assert [u for u in requests if not u.startswith(("file:", "data:"))] == []


def test_selection_of_one_cycle(page_of):
    tr, page, _ = page_of
    m = analysis.marks(tr, "cycle")
    a, b = m[5], m[6]
    st = analysis.analyse(tr, a, b)
    t0, t1 = us(tr, tr.records[a].t), us(tr, tr.records[b].t)
    got = page.evaluate(f"limenTimeline.select({t0}, {t1})")
    assert got["switches"] == st.counters["context_switches"] == 18
    assert got["preemptions"] == st.counters["preemptions"] == 9
    assert got["elapsed_us"] == pytest.approx(st.elapsed_us, abs=1e-3)
    report = page.eval_on_selector_all("#report .fig",
                                       "els => Object.fromEntries(els.map(e => "
                                       "[e.dataset.name, e.textContent]))")
    assert report["context switches"] == "context switches: 18"
    assert report["preemptions"] == "preemptions: 9"
    assert report["elapsed"] == f"elapsed: {st.elapsed_us:.3f} µs"
    assert page.locator("#selection").count() == 1


def test_mouse_selection_zoom_hover(page_of):
    tr, page, _ = page_of
    box = page.locator("#tl").bounding_box()
    y = box["y"] + 30 + 2 * 26  # inside lane A
    x0, x1 = box["x"] + box["width"] * 0.4, box["x"] + box["width"] * 0.7
    page.keyboard.down("Shift")
    page.mouse.move(x0, y)
    page.mouse.down()
    page.mouse.move(x1, y, steps=5)
    page.mouse.up()
    page.keyboard.up("Shift")
    sel = page.evaluate("limenTimeline.selection()")
    assert 0 < sel["from"] < sel["to"]
    # The same window counted by the Python side (start <= t < end).
    hz, base = tr.timestamp_hz, tr.records[0].t
    first = next(r.index for r in tr.records if us(tr, r.t) >= sel["from"])
    end = next((r.index for r in tr.records if us(tr, r.t) >= sel["to"]), len(tr.records))
    st = analysis.analyse(tr, first, end)
    assert sel["switches"] == st.counters["context_switches"] > 0
    assert sel["preemptions"] == st.counters["preemptions"]
    assert sel["records"] == end - first
    del hz, base
    # Zoom in around the middle: fewer marks drawn, each further apart.
    before = page.locator("line.mark").count()
    page.mouse.move(box["x"] + box["width"] / 2, y)
    for _ in range(6):
        page.mouse.wheel(0, -100)
    page.wait_for_timeout(100)
    after = page.locator("line.mark").count()
    assert 0 < after < before
    # Hover over a run bar shows its details: a bar the pointer can reach
    # (not under an event mark or the selection drawn above), the widest
    # first.
    bars = page.locator("rect.run")
    spans = []  # the part of each bar inside the drawing: (width, middle x, middle y)
    for i in range(bars.count()):
        bb = bars.nth(i).bounding_box()
        if bb is None:
            continue
        # The plot area: right of the 130-pixel lane labels, left of the
        # 10-pixel margin (tools/limentrace/html.py, LABEL and PAD).
        lo = max(bb["x"], box["x"] + 130)
        hi = min(bb["x"] + bb["width"], box["x"] + box["width"] - 10)
        if hi > lo:
            spans.append((hi - lo, (lo + hi) / 2, bb["y"] + bb["height"] / 2))
    spans.sort(reverse=True)
    on_top = "(p => { const e = document.elementFromPoint(p[0], p[1]); " \
             "return e ? e.getAttribute('class') : null; })"
    reachable = [(mx, my) for _, mx, my in spans if page.evaluate(on_top, [mx, my]) == "run"]
    assert reachable
    page.mouse.move(*reachable[0])
    tip = page.locator("#tip")
    assert tip.is_visible() and " runs " in tip.text_content()
    # Reset shows the whole trace again.
    page.click("#reset")
    assert page.locator("line.mark").count() == before
