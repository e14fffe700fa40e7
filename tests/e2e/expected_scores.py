#!/usr/bin/env python3
# Recomputes the "scores" of every submissions/<name>/expected.json from the checks it expects to fail
# and the shipped rubrics (run from the repository root after changing a rubric or a sample):
#   python3 tests/e2e/expected_scores.py
# Written independently of the C++ scoring, so the end-to-end tests compare two implementations.
import json, sys, xml.etree.ElementTree as ET, glob, os
NOT_MEASURABLE = set()  # checks no CPU-only machine can measure
# Speed criteria (performance="kernels") are never graded on a CPU device: not_measured, 0 points.
rubrics = {os.path.basename(p)[:-4]: ET.parse(p).getroot() for p in sorted(glob.glob('rubrics/*.xml'))}
for name in open('tests/e2e/CASES').read().split('\n'):
    name = name.split('#')[0].strip()
    if not name: continue
    path = f'submissions/{name}/expected.json'
    e = json.load(open(path))
    scores = {}
    for rid, root in rubrics.items():
        total = 0
        for task in root.iter('task'):
            for c in task.iter('criterion'):
                keys = [task.get('id') + '.' + k for k in c.get('checks').split()]
                if c.get('performance'):
                    continue
                if all(k not in e['checks'] and k not in NOT_MEASURABLE for k in keys):
                    total += float(c.get('points'))
        scores[rid] = total
    e['scores'] = scores
    json.dump(e, open(path, 'w'), indent=2); open(path, 'a').write('\n')
    print(name, scores)
