#!/usr/bin/env python3
"""Prints a CLGRADE_TRACE file as a text timeline: per process, its spans of the chosen categories
with start and end in seconds from the first event, and the longest lock waits. For a terminal or a
closing note; Perfetto (ui.perfetto.dev) shows the same file as a picture."""
import json
import sys
from collections import defaultdict


def load(path):
    text = open(path).read().rstrip().rstrip(',')
    # A second opening bracket, from two first spans at once (traces written before clgrade's writer
    # took a lock for its first line).
    text = text[:1] + text[1:].replace('\n[\n', '\n')
    if not text.endswith(']'):
        text += ']'
    return json.loads(text)


def main():
    if len(sys.argv) < 2:
        print("usage: trace_timeline.py TRACE [category ...]", file=sys.stderr)
        return 2
    events = load(sys.argv[1])
    cats = set(sys.argv[2:]) or {"phase", "process", "replay", "lock"}
    names = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M"}
    spans = [e for e in events if e.get("ph") == "X"]
    if not spans:
        return 0
    t0 = min(e["ts"] for e in spans)
    by_pid = defaultdict(list)
    for e in spans:
        by_pid[e["pid"]].append(e)
    sums = defaultdict(float)
    for pid in sorted(by_pid, key=lambda p: min(e["ts"] for e in by_pid[p])):
        print(f"== {names.get(pid, 'process ' + str(pid))}")
        for e in sorted(by_pid[pid], key=lambda e: e["ts"]):
            sums[(names.get(pid, str(pid)), e["name"])] += e["dur"] / 1e6
            cat = e["cat"].removeprefix("sandboxed:")  # a runner's own spans (untrusted: its code could forge them)
            if cat not in cats or (cat == "lock" and e["dur"] < 200000):
                continue
            start = (e["ts"] - t0) / 1e6
            print(f"  {start:7.2f} .. {start + e['dur'] / 1e6:7.2f}  {e['dur'] / 1e6:6.2f} s  {cat:8} {e['name']}")
    print("== sums (s)")
    for (who, name), s in sorted(sums.items(), key=lambda kv: -kv[1])[:40]:
        print(f"  {s:7.2f}  {who}: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
