#!/usr/bin/env python3
"""Summarises the CLGRADE_TRACE file of a `clgrade batch`: what came before the first grade (the
sandbox probe, the trusted timings and the grades that waited for them), how many grades ran at once
over time and the tail at the end, and each kind of process a grade starts: how long it lived, how
much of that was spent before its first span and after its last (the sandbox and the loader; the
driver's teardown), and how much of it in its "start" spans (opening the device, making its context). For developers and closing notes: nothing is graded on it.

usage: trace_batch.py TRACE"""
import statistics
import sys
from collections import defaultdict

from trace_timeline import load  # the same file format: a JSON array whose closing bracket may be missing


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    events = load(sys.argv[1])
    names = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M"}
    spans = [e for e in events if e.get("ph") == "X"]
    if not spans:
        print("no spans in the trace", file=sys.stderr)
        return 1
    t0 = min(e["ts"] for e in spans)
    t1 = max(e["ts"] + e["dur"] for e in spans)
    start = lambda e: (e["ts"] - t0) / 1e6
    secs = lambda e: e["dur"] / 1e6
    print(f"trace: {(t1 - t0) / 1e6:.2f} s from its first span to its last")

    print("before and after the grades:")
    fixed = [e for e in spans if e["name"] in ("sandbox probe", "time trusted kernels for the batch") or e["cat"] == "batch"]
    for e in sorted(fixed, key=lambda e: e["ts"]):
        print(f"  {start(e):8.2f} .. {start(e) + secs(e):8.2f}  {secs(e):6.2f} s  {e['name']}")
    # Not those that found them ready.
    waits = [e for e in spans if e["name"] == "the batch's trusted figures" and secs(e) >= 0.01]
    if waits:
        print(f"  grades waiting for the trusted figures: {len(waits)}, longest {max(secs(e) for e in waits):.2f} s, "
              f"{sum(secs(e) for e in waits):.2f} s in all")

    grades = [e for e in spans if e["cat"] == "submission"]
    if grades:
        lengths = sorted(secs(e) for e in grades)
        ends = sorted(start(e) + secs(e) for e in grades)
        print(f"grades: {len(grades)}, the first from {min(start(e) for e in grades):.2f} s, the last until "
              f"{ends[-1]:.2f} s; each {statistics.median(lengths):.2f} s (median), {lengths[0]:.2f} to {lengths[-1]:.2f}")
        step = 2.0
        at, line = 0.0, []
        while at < (t1 - t0) / 1e6:
            line.append(sum(1 for e in grades if start(e) <= at < start(e) + secs(e)))
            at += step
        print(f"  grades at once, every {step:.0f} s: " + "".join(str(min(n, 9)) for n in line))
        print("  the last ends: " + " ".join(f"{x:.1f}" for x in ends[-8:]))
        # A batch in three parts: its start (the trusted timings, then the first grades, to the first
        # end), its steady state (grades a minute, from the first end to the last start) and its tail
        # (the last start to the end). The start and the tail are as long on one GPU as on two, so
        # they weigh twice as much in a two-GPU figure (docs/performance.md).
        last_start = max(start(e) for e in grades)
        steady = [x for x in ends if ends[0] <= x <= last_start]
        if last_start > ends[0] and len(steady) > 1:
            print(f"  start {ends[0]:.1f} s, steady state {len(steady) / (last_start - ends[0]) * 60:.1f} a minute "
                  f"over {last_start - ends[0]:.1f} s, tail {ends[-1] - last_start:.1f} s")
    # Each GPU's timing lock: how much of the trace some process held one (summed over all GPUs).
    held = sum(secs(e) for e in spans if e["name"] == "holding the timing lock")
    if held:
        print(f"the timing locks held {held:.1f} s in all: {held * 100 / ((t1 - t0) / 1e6):.0f} % of the trace "
              f"(one GPU's lock cannot be held more than 100 %)")

    # Each process the keeper started (its "process" span), against the spans the process itself wrote,
    # copied over under its own name when it ended: a process of each kind gets the next number as
    # its spans are adopted, so the n-th to end of a kind wrote the n-th such copy.
    by_pid = defaultdict(list)
    for e in spans:
        by_pid[e["pid"]].append(e)
    children = defaultdict(list)  # the keeper's name for the process -> (pid, first, last), by pid
    for pid in sorted(by_pid):
        label = names.get(pid, "")
        if label.startswith("runner") or label.startswith("profiled"):
            own = by_pid[pid]
            kind = "counters session" if label.startswith("profiled") else label
            starting = sum(e["dur"] for e in own if e["cat"] == "sandboxed:start")  # the device and its context
            children[kind].append((min(e["ts"] for e in own), max(e["ts"] + e["dur"] for e in own), starting))
    kinds = defaultdict(lambda: defaultdict(list))
    processes = defaultdict(list)
    for e in spans:
        if e["cat"] == "process":
            processes[e["name"]].append(e)
    for name, started in processes.items():
        started.sort(key=lambda e: e["ts"] + e["dur"])
        life = kinds[name]
        life["lived"] = [secs(p) for p in started]
        pairs = list(zip(started, children.get(name, [])))
        # Only where every copy lies within its process (a trace cut short, or spans a runner could
        # not write, leave the kind's life unsplit).
        if len(pairs) == len(started) and all(first >= p["ts"] and last <= p["ts"] + p["dur"] + 1000
                                              for p, (first, last, _) in pairs):
            for p, (first, last, starting) in pairs:
                life["before"].append((first - p["ts"]) / 1e6)
                life["inside"].append((last - first) / 1e6)
                life["after"].append((p["ts"] + p["dur"] - last) / 1e6)
                life["starting"].append(starting / 1e6)
    if kinds:
        print("processes (means; before its first span, inside, after its last; of inside, opening the device"
              " and making its context):")
        for kind, life in sorted(kinds.items()):
            parts = "".join(f", {part} {statistics.mean(life[part]):.2f} s" for part in ("before", "inside", "after")
                            if life[part])
            if any(life["starting"]):
                parts += f", starting {statistics.mean(life['starting']):.2f} s"
            print(f"  {kind:26} {len(life['lived']):4}: lived {statistics.median(life['lived']):.2f} s (median)"
                  f", {sum(life['lived']):.1f} s in all{parts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
