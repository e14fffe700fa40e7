#!/usr/bin/env python3
"""The files a student reads name no hidden case: every hidden case id of REPORT_DIR/report.json is
absent from each FILE (relative to REPORT_DIR), and so are the sizes those ids name (1280x720, unless
a visible case has that size too) and the hidden seed.

usage: no_hidden_cases.py REPORT_DIR FILE...
Exit 0 when it holds, 1 with the reasons otherwise."""
import json, os, re, sys


def main():
    report_dir, files = sys.argv[1], sys.argv[2:]
    report = json.load(open(os.path.join(report_dir, 'report.json')))
    cases = [c for t in report['tasks'] for k in t['checks'] for c in k['cases']]
    ids = sorted({c['case'] for c in cases if not c['visible']})
    shown = {size for c in cases if c['visible'] for size in re.findall(r'\d+x\d+', c['case'])}
    sizes = sorted({size for i in ids for size in re.findall(r'\d+x\d+', i)} - shown)
    seed = str(report.get('reproducibility', {}).get('hidden_seed', ''))
    if not ids:
        print('FAIL: the report has no hidden case: nothing to look for')
        return 1
    problems = []
    for name in files:
        text = open(os.path.join(report_dir, name), encoding='utf-8', errors='replace').read()
        problems += [f'{name} names hidden case {i!r}' for i in ids if i in text]
        problems += [f'{name} names the hidden size {s!r}' for s in sizes if s in text]
        if seed and seed in text:
            problems.append(f'{name} holds the hidden seed')
    for p in problems:
        print('FAIL:', p)
    print(f'{len(ids)} hidden cases and {len(sizes)} hidden sizes looked for in {len(files)} files: '
          f'{"ok" if not problems else "found"}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
