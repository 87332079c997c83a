#!/usr/bin/env python3
"""Summarise the runs of Scripts/benchmark/poses-vs-peer.sh: parse `/usr/bin/time -v` output,
`evaluate-poses --json` reports and per-step timings, print a table, and append a dated markdown
section to the results file. Standard library only; called by poses-vs-peer.sh, which passes the
sitting's metadata in BENCH_* environment variables.

Usage: poses_report.py MANIFEST RESULTS_MD
  MANIFEST    tab-separated lines: tool-key, tool label, run number, run folder prefix
              (PREFIX.time, PREFIX.eval.json, PREFIX.log, PREFIX/timings.json)
"""

import json
import os
import re
import statistics
import sys
from pathlib import Path

OURS = "ours"
GB = 1e9  # decimal gigabytes; max RSS from GNU time is in KiB (1024 bytes)


def parse_time_v(path: Path):
    text = path.read_text()

    def field(label):
        m = re.search(r"^\s*" + re.escape(label) + r":\s*(.+)$", text, re.M)
        if not m:
            raise SystemExit(f"error: {path}: no \"{label}\" line (is this `/usr/bin/time -v` output?)")
        return m.group(1).strip()

    elapsed = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    seconds = 0.0
    for part in elapsed.split(":"):
        seconds = seconds * 60 + float(part)
    return {
        "wall": seconds,
        "user": float(field("User time (seconds)")),
        "sys": float(field("System time (seconds)")),
        "maxrss_kib": int(field("Maximum resident set size (kbytes)")),
        "exit": int(field("Exit status")),
    }


def steps_of(prefix: Path, key: str):
    """Per-step seconds as text: the peer's timings.json, or our `poses` summary line."""
    timings = Path(str(prefix)) / "timings.json"
    if timings.is_file():
        t = json.loads(timings.read_text())
        return ", ".join(f"{k} {v:.1f}" for k, v in t.items() if k != "total")
    log = Path(str(prefix) + ".log")
    if log.is_file():
        m = re.search(r"^registered .* in [\d.]+ s \((.*)\)\s*$", log.read_text(), re.M)
        if m:
            return m.group(1).replace(" s,", ",").removesuffix(" s")
    return "n/a"


def load_runs(manifest: Path):
    runs = []
    for line in manifest.read_text().splitlines():
        if not line.strip():
            continue
        key, label, run, prefix = line.split("\t")
        prefix = Path(prefix)
        record = {"key": key, "label": label, "run": int(run)}
        record.update(parse_time_v(Path(str(prefix) + ".time")))
        report = json.loads(Path(str(prefix) + ".eval.json").read_text())
        record.update({
            "registered": report["registeredCount"],
            "cameras": report["cameraCount"],
            "pos_med_mm": report["medianPositionError"] * 1000,
            "pos_max_mm": report["maxPositionError"] * 1000,
            "rot_med": report["medianRotationErrorDegrees"],
            "rot_max": report["maxRotationErrorDegrees"],
            "steps": steps_of(prefix, key),
        })
        runs.append(record)
    return runs


def summarise(runs, key):
    mine = [r for r in runs if r["key"] == key]
    med = lambda f: statistics.median(r[f] for r in mine)
    return {
        "label": mine[0]["label"], "n": len(mine),
        "wall": med("wall"), "cpu": statistics.median(r["user"] + r["sys"] for r in mine),
        "peak_gb": med("maxrss_kib") * 1024 / GB,
        "registered": min(r["registered"] for r in mine), "cameras": mine[0]["cameras"],
        "pos_med_mm": med("pos_med_mm"), "pos_max_mm": med("pos_max_mm"),
        "rot_med": med("rot_med"), "rot_max": med("rot_max"),
        "steps": mine[0]["steps"] if len(mine) == 1 else "per run in the table below",
    }


def row(s):
    return (f"| {s['label']} | {s['wall']:.1f} | {s['peak_gb']:.2f} | {s['registered']}/{s['cameras']} | "
            f"{s['pos_med_mm']:.2f} | {s['pos_max_mm']:.2f} | {s['rot_med']:.4f} | {s['rot_max']:.4f} |")


def main():
    manifest, results = Path(sys.argv[1]), Path(sys.argv[2])
    env = os.environ
    runs = load_runs(manifest)
    peer_key = env["BENCH_PEER_KEY"]
    ours, peer = summarise(runs, OURS), summarise(runs, peer_key)
    ratio = ours["wall"] / peer["wall"]
    mem_target = float(env.get("BENCH_MEM_TARGET_GB", "1.5"))
    pos_target = env.get("BENCH_POS_TARGET_MM", "")
    if pos_target:
        pos_target_mm, pos_source = float(pos_target), "best peer in ../shared/docs/targets.md"
    else:
        pos_target_mm, pos_source = peer["pos_med_mm"], "the peer's, this sitting; scene not in targets.md"
    yes = lambda ok: "**met**" if ok else "**not met**"
    checks = [
        (f"wall time ≤ ⅓ of the peer's (ratio ≤ 0.333)", f"{ratio:.3f}", ratio <= 1 / 3),
        (f"peak memory ≤ {mem_target:g} GB", f"{ours['peak_gb']:.2f} GB", ours["peak_gb"] <= mem_target),
        ("all cameras registered", f"{ours['registered']}/{ours['cameras']}", ours["registered"] == ours["cameras"]),
        (f"median position error ≤ {pos_target_mm:.2f} mm ({pos_source})", f"{ours['pos_med_mm']:.2f} mm",
         ours["pos_med_mm"] <= pos_target_mm + 1e-9),
    ]

    header = ("| tool | wall s | peak memory GB | registered | median pos. error mm | max pos. error mm "
              "| median rot. error ° | max rot. error ° |\n|---|---|---|---|---|---|---|---|")
    n = ours["n"]
    median_note = f" (medians of {n} runs each; registered = worst run)" if n > 1 else ""

    # Console summary.
    print()
    print(f"{env['BENCH_SCENE']}, {env['BENCH_DATE']}{median_note}")
    print(header.split("\n")[0])
    print(row(ours)); print(row(peer))
    print(f"ratio our wall / peer wall = {ratio:.3f} ({1 / ratio:.2f}× faster)" if ratio > 0 else "")
    for what, value, ok in checks:
        print(f"  {'OK  ' if ok else 'MISS'} {what}: {value}")

    lines = [
        "",
        f"## {env['BENCH_SCENE']} — {env['BENCH_DATE']}",
        "",
        f"- Command: `{env['BENCH_INVOCATION']}`",
        f"- Machine: {env['BENCH_MACHINE']}",
        f"- Load: `uptime` before the build `{env['BENCH_UPTIME_START']}`; before the runs `{env['BENCH_UPTIME_BEFORE']}`; "
        f"after `{env['BENCH_UPTIME_AFTER']}`."
        + (f" {env['BENCH_LOAD_NOTE']}" if env.get("BENCH_LOAD_NOTE") else ""),
        f"- Project: {env['BENCH_PROJECT']}",
        f"- Peer: {env['BENCH_PEER_DESC']}",
        f"- Data: `{env['BENCH_SCENE_REL']}` (read in place), known K from `images/K.txt`, held fixed by both tools; "
        "scored by `photogrammetry evaluate-poses --json` (7-DoF similarity alignment of camera centres, "
        "Strecha/openMVG protocol).",
        f"- Runs: {n} per tool, order alternating (ours first in odd runs){median_note}. "
        "Wall time and peak memory (max RSS) from `/usr/bin/time -v`; GB = 10⁹ bytes.",
        "",
        header,
        row(ours),
        row(peer),
        "",
        f"Per-step seconds — ours: {ours['steps']}; peer: {peer['steps']}.",
        "",
        f"**Ratio our wall / peer wall: {ratio:.3f}** ({ours['wall']:.1f} s / {peer['wall']:.1f} s; target ≤ 0.333).",
        "",
        "| target | measured | status |",
        "|---|---|---|",
    ]
    lines += [f"| {what} | {value} | {yes(ok)} |" for what, value, ok in checks]
    lines += ["", "<details><summary>Every run</summary>", "",
              "| run | tool | wall s | CPU s (user+sys) | max RSS KiB | registered | median pos. mm | steps (s) |",
              "|---|---|---|---|---|---|---|---|"]
    for r in sorted(runs, key=lambda r: (r["run"], r["key"] != OURS)):
        lines.append(f"| {r['run']} | {r['label']} | {r['wall']:.2f} | {r['user'] + r['sys']:.1f} | {r['maxrss_kib']} | "
                     f"{r['registered']}/{r['cameras']} | {r['pos_med_mm']:.2f} | {r['steps']} |")
    lines += ["", "</details>", "", "Exact commands, in the order run (from the repository root):", "", "```sh"]
    lines += Path(env["BENCH_COMMANDS_FILE"]).read_text().rstrip("\n").splitlines()
    lines += ["```", ""]

    if not results.exists():
        results.write_text("# Pose benchmark results\n\nSections are appended by "
                           "`Scripts/benchmark/poses-vs-peer.sh`, newest last. See `README.md` in this folder.\n")
    with results.open("a") as f:
        f.write("\n".join(lines))
    print(f"\nappended to {results}")


if __name__ == "__main__":
    main()
