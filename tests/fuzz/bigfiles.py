#!/usr/bin/env python3
"""Large hostile recordings, made in a second from small pieces: a gzip
file may hold one member after another, so a block of lines compressed
once and written N times is N times the lines. Used by make fuzz (inputs
past libFuzzer's 64 KiB) and by tests/e2e/bombs.sh.

  bigfiles.py DIR [NAME...]   writes DIR/NAME.gtr.gz for each NAME (all
                              when none is named):
    samples4g   one configuration, then 4 GiB of one sample line
    newlines4g  4 GiB of newlines, no header
    configs200k 200,000 configurations, a sample each
    configs1m   1,000,000 configurations with their set-up: more than a
                reader keeps (it refuses the file)
    fill        the samples' and the extras' budgets filled: 64
                configurations of 65,536 samples and 4,000 call traces
    blanks      a recording with a run of 100,000 blank lines in it"""
import os
import sys
import zlib

HDR = (b'{"type":"header","format":[1,5],"tool":"gputui","version":"0.1.0",'
       b'"created":"2026-11-27T00:00:00Z","device":{"ordinal":0,"name":"big file"}}\n')


def member(data):
    """data as one gzip member."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def config(gen, size=None, setup=False):
    vals = b'{"size":"%d"}' % size if size else b'{}'
    extra = (b',"setup":[{"what":"device: cudaMalloc","seconds":0.001},'
             b'{"what":"source: cudaMallocHost","seconds":0.03}],"verification":"every byte"'
             if setup else b'')
    return (b'{"type":"config","gen":%d,"t":0,"experiment":"transfer","values":%s%s}\n'
            % (gen, vals, extra))


def sample(gen, t=0.5):
    return (b'{"type":"sample","gen":%d,"t":%g,"series":0,"verify":"full","sec":0.001,'
            b'"bytes":67108864}\n' % (gen, t))


def samples4g(f):
    f.write(member(HDR + config(1)))
    block = sample(1) * ((1 << 20) // len(sample(1)))
    m = member(block)
    for _ in range((4 << 30) // len(block)):
        f.write(m)


def newlines4g(f):
    m = member(b'\n' * (16 << 20))
    for _ in range(256):
        f.write(m)


def configs(f, n, setup):
    f.write(member(HDR))
    step = 10000
    for first in range(1, n + 1, step):
        part = b''.join(config(g, 4096 * (g % 1000000 + 1), setup) + sample(g, g)
                        for g in range(first, min(first + step, n + 1)))
        f.write(member(part))


def fill(f):
    f.write(member(HDR))
    for g in range(1, 4001):
        lines = config(g, 4096 * g) + b'{"type":"trace","gen":%d,"calls":[]}\n' % g
        if g <= 64:
            lines += sample(g) * 65536
        f.write(member(lines))


def blanks(f):
    f.write(member(HDR + config(1) + sample(1) + b'\n' * 100000 + config(2, 8 << 20)))


MAKERS = {
    'samples4g': samples4g,
    'newlines4g': newlines4g,
    'configs200k': lambda f: configs(f, 200000, False),
    'configs1m': lambda f: configs(f, 1000000, True),
    'fill': fill,
    'blanks': blanks,
}


def main():
    out = sys.argv[1]
    for name in sys.argv[2:] or sorted(MAKERS):
        with open(os.path.join(out, name + '.gtr.gz'), 'wb') as f:
            MAKERS[name](f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
