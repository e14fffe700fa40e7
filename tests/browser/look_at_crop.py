#!/usr/bin/env python3
"""Checks the pixels of a failure crop (evidence/<task>/<case>/<check>_crop.png: expected | actual |
difference, magnified) where the wrong values are one column of the image: the difference panel must
show that column as one band of failing colour (red to yellow), as wide as one magnified pixel, the
whole height of the panel, with no failing colour beside it.

usage: look_at_crop.py REPORT_DIR TASK CHECK CASE
Exit 0 when it holds, 1 with the reasons otherwise."""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from look_at_page import read_png  # noqa: E402


def failing(px):
    r, g, b = px[0], px[1], px[2]
    return r >= 200 and b <= 60  # red (just over the limit) to yellow (the worst); not the cyan box


def main():
    report_dir, task, check, case = sys.argv[1:5]
    report = json.load(open(os.path.join(report_dir, 'report.json')))
    crop = None
    for t in report['tasks']:
        for k in t['checks']:
            for c in k['cases']:
                if t['id'] == task and k['id'] == check and c['case'] == case:
                    crop = next((e for e in c['evidence'] if e['path'].endswith('_crop.png')), None)
    if not crop:
        print(f'FAIL: no crop among the evidence of {task}.{check} on case {case}')
        return 1
    print(f'{crop["path"]}: {crop["label"]}')
    w, h, ch, rows = read_png(os.path.join(report_dir, crop['path']))
    counts = [sum(1 for y in range(h) if failing(rows[y][x * ch:x * ch + 3])) for x in range(w)]
    peak = max(counts)
    band = [x for x in range(w) if counts[x] >= 0.9 * peak]
    problems = []
    if peak < 100:
        problems.append(f'no column of failing colour: at most {peak} failing pixels in a column')
    elif band != list(range(band[0], band[-1] + 1)):
        problems.append(f'the failing columns are not one band: {band}')
    else:
        if not 4 <= len(band) <= 16:
            problems.append(f'the band is {len(band)} pixels wide, not one magnified pixel')
        if band[0] < 2 * w // 3:
            problems.append(f'the band is at x = {band[0]}, not in the difference panel (the right third)')
        beside = [x for x in range(w) if x not in band and counts[x] > 0.1 * peak]
        if beside:
            problems.append(f'failing colour beside the band too, at x = {beside[:10]}')
        print(f'one band of failing colour at x {band[0]}..{band[-1]} ({peak} of {h} rows)')
    for p in problems:
        print('FAIL:', p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
