#!/usr/bin/env python3
"""Files from a stranger, for tests/e2e/hostile.sh.

  hostile.py make BUNDLED.gtr.gz DIR   DIR/evil.gtr (the bundled recording's
        first configurations of each experiment, its inspection, every text
        a reader shows made hostile), DIR/data/ (the bundled data with a
        hostile lesson), DIR/cards/ (empty, for a fleet)
  hostile.py evil-card IN OUT   the card IN (--inspect --format json) with
        every string hostile
  hostile.py clean FILE...     exit 1 naming the first control byte found
  hostile.py json-name FILE NAME   the JSON report's device name is NAME
  hostile.py tui-bytes FILE    the terminal got none of the recording's
        escapes raw"""
import gzip
import json
import os
import sys

EVIL = '\u001b]0;pwned\u0007H200\u001b[2J\u009b31m\u007f'
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def evil_strings(o):
    """Every string of o made hostile (keys and numbers stay)."""
    if isinstance(o, dict):
        return {k: evil_strings(v) for k, v in o.items()}
    if isinstance(o, list):
        return [evil_strings(v) for v in o]
    if isinstance(o, str):
        return EVIL + o
    return o


def make(bundled, out):
    keep, per = set(), {}
    with gzip.open(bundled, 'rt') as f, open(os.path.join(out, 'evil.gtr'), 'w') as o:
        for n, line in enumerate(f):
            d = json.loads(line)
            if n == 0:
                d['device']['name'] = EVIL
                d['device']['pci_bus_id'] = '0000:\u001b[2J'
                d['device']['driver_version'] = '580\u009b2J'
                d['created'] = '\r\n2026\u001b]52;c;cHduZWQ=\u0007'
                d['version'] = '0.1\u009b2J'
            elif d['type'] == 'config':
                k = per.setdefault(d['experiment'], [])
                if len(k) >= 2:
                    continue
                k.append(d['gen'])
                keep.add(d['gen'])
                for s in d.get('setup', []):
                    s['what'] = EVIL + s['what']
                d['verification'] = EVIL
                d['timing'] = EVIL
            elif d['type'] == 'inspection':
                g = d['inspection']['gpu']
                g['device'], g['host'], g['uuid'] = EVIL, EVIL, EVIL
                card = d['inspection']
            elif d.get('gen') not in keep:
                continue
            elif d['type'] == 'error':
                d['message'] = EVIL
            o.write(json.dumps(d) + '\n')
    data = os.path.join(out, 'data')
    os.makedirs(os.path.join(data, 'lessons'))
    for name in os.listdir(os.path.join(ROOT, 'share', 'gputui')):
        if name.endswith('.gtr.gz') or name == 'inspect.json':
            os.symlink(os.path.join(ROOT, 'share', 'gputui', name), os.path.join(data, name))
    lesson = json.load(open(os.path.join(ROOT, 'share', 'gputui', 'lessons', '1-pinned.json')))
    for k in ('title', 'about'):
        lesson[k] = EVIL + lesson[k]
    for st in lesson['steps']:
        st['title'] = EVIL + st['title']
        st['say'] = [EVIL + s for s in st['say']]
        st['otherwise'] = EVIL + st['otherwise']
        for side in ('a', 'b'):
            if side in st['expect']:
                st['expect'][side]['label'] = EVIL + st['expect'][side]['label']
        st.pop('variants', None)
    lesson['lesson'] = 'evil'
    with open(os.path.join(data, 'lessons', '1-evil.json'), 'w') as f:
        json.dump(lesson, f)
    os.makedirs(os.path.join(out, 'cards'))


def clean(paths):
    for p in paths:
        b = open(p, 'rb').read()
        try:
            text = b.decode('utf-8')
        except UnicodeDecodeError as e:
            print(f'{p}: not UTF-8 at byte {e.start}: {b[max(0, e.start - 20):e.start + 8]!r}')
            return 1
        for i, c in enumerate(text):
            o = ord(c)
            if (o < 0x20 and c not in '\n\t') or 0x7f <= o <= 0x9f:
                print(f'{p}: control character U+{o:04X} at {i}: {text[max(0, i - 30):i + 10]!r}')
                return 1
    return 0


def main():
    what = sys.argv[1]
    if what == 'make':
        make(sys.argv[2], sys.argv[3])
        return 0
    if what == 'evil-card':
        with open(sys.argv[3], 'w') as f:
            json.dump(evil_strings(json.load(open(sys.argv[2]))), f)
        return 0
    if what == 'clean':
        return clean(sys.argv[2:])
    if what == 'json-name':
        d = json.load(open(sys.argv[2]))
        return 0 if d['device']['name'] == sys.argv[3] else 1
    if what == 'tui-bytes':
        b = open(sys.argv[2], 'rb').read()
        bad = [s for s in (b'\x1b]0;pwned', b'\x1b]52', b'\xc2\x9b', b'\x9b31m') if s in b]
        if bad or b'pwned' not in b:
            print(f'{sys.argv[2]}: {len(b)} bytes; raw: {bad}; the name drawn: {b"pwned" in b}')
            return 1
        return 0
    return 2


if __name__ == '__main__':
    sys.exit(main())
