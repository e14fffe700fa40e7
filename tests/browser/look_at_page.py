#!/usr/bin/env python3
"""Opens an HTML page of clgrade in headless Chromium, keeps a screenshot and checks what a person
would see: the page renders (not blank), the texts it must show are in the rendered DOM, and the
pictures load (the screenshot holds the colours of the difference heat map / the charts).

usage: look_at_page.py PAGE.html SCREENSHOT.png [--text T]... [--colour R,G,B]...
Exit 0 when every check holds, 1 with the reasons otherwise, 77 (skipped) without chromium."""
import argparse, os, shutil, struct, subprocess, sys, tempfile, zlib


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('page')
    ap.add_argument('screenshot')
    ap.add_argument('--text', action='append', default=[])
    ap.add_argument('--colour', action='append', default=[], help='R,G,B that must appear (within 40 per channel)')
    ap.add_argument('--size', default='1280,2400')
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
    problems = []
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
