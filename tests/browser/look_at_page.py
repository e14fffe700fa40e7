#!/usr/bin/env python3
"""Opens an HTML page of clgrade in headless Chromium, keeps a screenshot and checks what a person
would see: the page renders (not blank), the texts it must show are in the rendered DOM, and the
pictures load (the screenshot holds the colours of the difference heat map / the charts).

usage: look_at_page.py PAGE.html SCREENSHOT.png [--text T]... [--colour R,G,B]... [--absent T]...
                       [--above-fold ID:PIXELS] [--no-hidden-cases REPORT.json]
Exit 0 when every check holds, 1 with the reasons otherwise, 77 (skipped) without chromium."""
import argparse, json, os, re, shutil, struct, subprocess, sys, tempfile, zlib


def read_png(path):
    """Width, height and rows of RGB(A) pixels of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and interlace == 0 and colour in (2, 6), 'unsupported PNG layout'
            channels = 3 if colour == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows


def element_top(common, page, element_id, width):
    """The top of the element with `element_id` in CSS pixels, as laid out at `width`: a copy of the page
    (beside it, so its pictures load) with its no-script policy removed and a script that writes the
    position into the DOM that --dump-dom prints. None when the element is missing."""
    html = open(page, encoding='utf-8', errors='replace').read()
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', '', html)
    probe = ('<script>window.addEventListener("load", function () { var e = document.getElementById(%s);'
             ' document.body.setAttribute("data-probe-top", e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : -1);'
             ' });</script>' % json.dumps(element_id))
    html = html.replace('</body>', probe + '</body>')
    copy = os.path.join(os.path.dirname(os.path.abspath(page)), '.probe-' + os.path.basename(page))
    try:
        open(copy, 'w', encoding='utf-8').write(html)
        dom = subprocess.run(common + ['--window-size=%d,1000' % width, '--virtual-time-budget=5000', '--dump-dom',
                                       'file://' + copy], capture_output=True, text=True, timeout=120).stdout
    finally:
        os.remove(copy)
    m = re.search(r'data-probe-top="(-?\d+)"', dom)
    return None if not m or m.group(1) == '-1' else int(m.group(1))


def hidden_case_ids(report_json):
    """Every hidden case's id in a report.json."""
    report = json.load(open(report_json))
    return sorted({c['case'] for t in report.get('tasks', []) for k in t.get('checks', []) for c in k.get('cases', [])
                   if not c.get('visible', True)})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('page')
    ap.add_argument('screenshot')
    ap.add_argument('--text', action='append', default=[])
    ap.add_argument('--colour', action='append', default=[], help='R,G,B that must appear (within 40 per channel)')
    ap.add_argument('--size', default='1280,2400')
    ap.add_argument('--absent', action='append', default=[], help='text the page file must not contain')
    ap.add_argument('--above-fold', help='ID:PIXELS: the element with that id starts within PIXELS of the top')
    ap.add_argument('--no-hidden-cases', help='REPORT.json: no hidden case id of that report is in the page file')
    a = ap.parse_args()
    browser = shutil.which('chromium') or shutil.which('chromium-browser') or shutil.which('google-chrome')
    if not browser:
        print('chromium not found: skipped')
        return 77
    url = 'file://' + os.path.abspath(a.page)
    with tempfile.TemporaryDirectory() as profile:
        common = [browser, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
                  '--user-data-dir=' + profile, '--allow-file-access-from-files']
        dom = subprocess.run(common + ['--dump-dom', url], capture_output=True, text=True, timeout=120).stdout
        subprocess.run(common + ['--window-size=' + a.size, '--screenshot=' + os.path.abspath(a.screenshot), url],
                       capture_output=True, timeout=120)
        top = element_top(common, a.page, a.above_fold.split(':')[0], int(a.size.split(',')[0])) if a.above_fold else None
    problems = []
    raw = open(a.page, encoding='utf-8', errors='replace').read()
    absent = list(a.absent)
    if a.no_hidden_cases:
        ids = hidden_case_ids(a.no_hidden_cases)
        if not ids:
            problems.append(f'{a.no_hidden_cases} has no hidden case: nothing to look for')
        absent += ids
    for t in absent:
        if t in raw:
            problems.append(f'the page holds {t!r}, which it must not')
    if a.above_fold:
        name, limit = a.above_fold.split(':')
        if top is None:
            problems.append(f'no element with id {name!r}')
        elif top > int(limit):
            problems.append(f'#{name} starts {top} px down the page, below the fold at {limit} px')
        else:
            print(f'#{name} starts {top} px down the page (fold at {limit} px)')
    for t in a.text:
        if t not in dom:
            problems.append(f'the rendered page does not show {t!r}')
    if not os.path.exists(a.screenshot):
        problems.append('no screenshot was written')
    else:
        w, h, ch, rows = read_png(a.screenshot)
        colours = set()
        for row in rows[::3]:
            for x in range(0, w * ch, ch * 3):
                colours.add((row[x] >> 3, row[x + 1] >> 3, row[x + 2] >> 3))
        if len(colours) < 8:
            problems.append(f'the screenshot is nearly blank ({len(colours)} colours)')
        for spec in a.colour:
            want = [int(v) for v in spec.split(',')]
            if not any(all(abs((c[i] << 3) + 4 - want[i]) <= 40 for i in range(3)) for c in colours):
                problems.append(f'no pixel near colour {spec}: a picture did not load')
    for p in problems:
        print('FAIL:', p)
    print(f'{a.page}: {"ok" if not problems else "problems"}; screenshot {a.screenshot}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
