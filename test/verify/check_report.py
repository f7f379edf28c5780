#!/usr/bin/env python3
"""check_report.py REPORT.json [--html REPORT.html --chromium PATH [--screenshot PNG]] [--no-stray DIR]

Asserts what `libtorch-tidy verify` measured on the anomaly-mode example:
every original run has at least one aten::_local_scalar_dense per step,
every fixed run none; both variants ran the same number of steps (> 0);
the scratch copy is gone; no process runs a program from DIR. With --html,
renders the page in headless Chromium and checks what a reader sees: no
debug output, the steps/s and finding -> metric tables above the plots, and
each variant's timeline drawn on its own time axis (0 to the end of that
variant's median run). Prints one line per fact, for FileCheck.
"""
import argparse
import html
import json
import os
import subprocess
import sys
import tempfile


def fail(message):
    sys.exit("check_report: " + message)


def stray_processes(directory):
    """PIDs of processes whose executable or command line is under directory."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            exe = os.readlink("/proc/%s/exe" % pid)
        except OSError:
            continue
        if exe.startswith(directory) or (argv and argv[0].decode(errors="replace").startswith(directory)):
            found.append(pid)
    return found


# Appended to a copy of the page (the page itself has no script): measures,
# after layout, what the browser drew, into <pre id="check-result"> as JSON.
MEASURE = """
<script>
window.addEventListener('load', function () {
  function top(el) { return el ? el.getBoundingClientRect().top : null; }
  var out = {text: document.body.innerText, timelines: [],
             summary: document.getElementById('summary'),
             findings: document.getElementById('findings')};
  out.summaryTop = top(out.summary);
  out.findingsTop = top(out.findings);
  out.summary = out.summary ? out.summary.innerText : '';
  out.findings = out.findings ? out.findings.innerText : '';
  document.querySelectorAll('svg.timeline').forEach(function (svg) {
    var plot = svg.querySelector('rect.plot').getBBox();
    var line = svg.querySelector('polyline.series');
    var ticks = svg.querySelectorAll('text.tick');
    var t = {variant: svg.getAttribute('data-variant'),
             seconds: parseFloat(svg.getAttribute('data-seconds')),
             top: top(svg), plotX: plot.x, plotWidth: plot.width,
             lastTick: ticks.length ? ticks[ticks.length - 1].textContent : '',
             points: 0, length: 0, lineX: 0, lineWidth: 0};
    if (line) {
      var box = line.getBBox();
      t.points = line.points.numberOfItems;
      t.length = line.getTotalLength();
      t.lineX = box.x;
      t.lineWidth = box.width;
    }
    out.timelines.push(t);
  });
  var pre = document.createElement('pre');
  pre.id = 'check-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def median_run(report, variant):
    ok = sorted((r for r in report["runs"] if r["variant"] == variant and r["ok"]),
                key=lambda r: r["wall_s"])
    return ok[(len(ok) - 1) // 2] if ok else None


def chromium(binary, *args):
    return subprocess.run(
        [binary, "--headless", "--no-sandbox", "--disable-gpu",
         "--virtual-time-budget=5000"] + list(args),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        universal_newlines=True, timeout=120).stdout


def check_html(path, binary, report):
    with open(path, encoding="utf-8") as f:
        page = f.read()
    if "<script" in page:
        fail("the page has a script; it should be static")
    with tempfile.TemporaryDirectory() as tmp:
        measured = os.path.join(tmp, "measured.html")
        with open(measured, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", MEASURE + "</body>"))
        dom = chromium(binary, "--window-size=1000,1400", "--dump-dom",
                       "file://" + measured)
    start = dom.find('<pre id="check-result">')
    end = dom.find("</pre>", start)
    if start < 0 or end < 0:
        fail("the page did not render (no measurement in the dumped DOM)")
    got = json.loads(html.unescape(dom[start:end].split(">", 1)[1]))

    # No debug output: the old page printed "<variant> points=N length=N"
    # into <pre id="render-check">.
    for leftover in ("points=", "length="):
        if leftover in got["text"]:
            fail("the page shows debug output (%r)" % leftover)
    if "render-check" in page:
        fail("the page has a render-check block")
    print("html: no debug output")

    timelines = {t["variant"]: t for t in got["timelines"]}
    for variant in ("original", "fixed"):
        t = timelines.get(variant)
        if not t or t["points"] < 2 or t["length"] <= 0:
            fail("the %s series was not drawn (%s)" % (variant, t))
    print("html: both series drawn (%s)" % ", ".join(sorted(timelines)))

    # Each variant on its own time axis: the axis ends at the end of that
    # variant's median run, and its last sample is drawn where its own time
    # falls on that axis (on a shared axis the shorter run's would not be).
    for variant in ("original", "fixed"):
        t, run = timelines[variant], median_run(report, variant)
        samples = run["gpu_samples"] or run["cpu_samples"]
        wall = max([run["wall_s"]] + [s[0] for s in samples])
        if abs(t["seconds"] - wall) > 0.01:
            fail("the %s axis ends at %.3f s, its run at %.3f s"
                 % (variant, t["seconds"], wall))
        if abs(float(t["lastTick"].split()[0]) - wall) > 0.051:
            fail("the %s axis's last label is %r, its run lasted %.3f s"
                 % (variant, t["lastTick"], wall))
        right = (t["lineX"] + t["lineWidth"] - t["plotX"]) / t["plotWidth"]
        expected = samples[-1][0] / wall
        if abs(right - expected) > 0.01:
            fail("the %s series ends at %.3f of its plot's width, its last "
                 "sample at %.3f of its run" % (variant, right, expected))
    print("html: each variant on its own time axis")

    if got["summaryTop"] is None or got["findingsTop"] is None:
        fail("the page has no summary or findings table")
    first_plot = min(t["top"] for t in got["timelines"])
    if max(got["summaryTop"], got["findingsTop"]) >= first_plot:
        fail("the tables are not above the plots")
    if "steps/s" not in got["summary"]:
        fail("the summary table has no steps/s: %r" % got["summary"])
    for finding in report["findings"]:
        if finding["check"] not in got["findings"]:
            fail("the findings table lacks %s: %r" % (finding["check"],
                                                     got["findings"]))
    print("html: steps/s and findings tables above the plots")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--html")
    parser.add_argument("--chromium")
    parser.add_argument("--screenshot",
                        help="also save a PNG of the page (to look at)")
    parser.add_argument("--no-stray")
    args = parser.parse_args()
    with open(args.report) as f:
        report = json.load(f)

    runs = report["runs"]
    if not runs:
        fail("no runs in the report")
    steps = {}
    for run in runs:
        variant, probe = run["variant"], run["probe"]
        if not run["ok"]:
            fail("%s run %d failed: %s" % (variant, run["index"], run["failure"]))
        if probe["steps"] <= 0:
            fail("%s run %d: no steps" % (variant, run["index"]))
        per_step = probe["local_scalar_dense"] / probe["steps"]
        if variant == "original" and per_step < 1:
            fail("original run %d: %.2f _local_scalar_dense per step, expected >= 1"
                 % (run["index"], per_step))
        if variant == "fixed" and probe["local_scalar_dense"] != 0:
            fail("fixed run %d: %d _local_scalar_dense, expected 0"
                 % (run["index"], probe["local_scalar_dense"]))
        steps.setdefault(variant, set()).add(probe["steps"])
    if set(steps) != {"original", "fixed"}:
        fail("expected runs of both variants, got %s" % sorted(steps))
    if steps["original"] != steps["fixed"] or len(steps["original"]) != 1:
        fail("step counts differ: %s" % steps)
    print("runs: %d original, %d fixed" % (
        sum(r["variant"] == "original" for r in runs),
        sum(r["variant"] == "fixed" for r in runs)))
    print("steps per run: %d in both variants" % next(iter(steps["original"])))
    summary = report["summary"]
    print("original _local_scalar_dense per step >= 1: %s" %
          (summary["original"]["local_scalar_dense_per_step"] >= 1))
    print("fixed _local_scalar_dense per step: %g" %
          summary["fixed"]["local_scalar_dense_per_step"])
    applied = [f["check"] for f in report["findings"] if f["fix_applied"]]
    print("fix-its applied: %s" % ", ".join(applied))

    scratch = report.get("scratch_dir", "")
    if not scratch:
        fail("the report names no scratch directory")
    if os.path.exists(scratch):
        fail("the scratch copy %s is still there" % scratch)
    print("scratch copy removed")
    if args.no_stray:
        left = stray_processes(os.path.abspath(args.no_stray))
        if left:
            fail("processes left running: %s" % ", ".join(left))
        print("no process left running")

    if args.html:
        check_html(args.html, args.chromium, report)
        if args.screenshot:
            chromium(args.chromium, "--window-size=1000,1400",
                     "--screenshot=" + os.path.abspath(args.screenshot),
                     "file://" + os.path.abspath(args.html))


if __name__ == "__main__":
    main()
