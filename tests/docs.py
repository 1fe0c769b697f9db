#!/usr/bin/env python3
"""The documentation, checked (make test).

README.md is the front door: at most 200 lines, and every command in its
code blocks uses only options that `gputui --help all` lists. Every link in
README.md and docs/*.md points at a file that exists (and a heading that
exists, for a #fragment). Every page of docs/ says at its top who it is
for, and README.md links every one of them.

Usage: tests/docs.py BIN   (BIN: the gputui whose --help all is the reference)
Prints one line per check, then "docs: N passed, M failed"."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_README = 200
from checks import check, summary


def slug(heading):
    """A heading's anchor as GitHub makes it."""
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def outside_code(text):
    """The text with its fenced code blocks and inline code blanked."""
    text = re.sub(r'^```.*?^```', '', text, flags=re.M | re.S)
    return re.sub(r'`[^`\n]*`', '', text)


def anchors(path):
    text = open(path, encoding='utf-8').read()
    text = re.sub(r'^```.*?^```', '', text, flags=re.M | re.S)
    return {slug(h) for h in re.findall(r'^#+ (.*)$', text, re.M)}


def check_links(pages):
    bad = []
    for page in pages:
        text = outside_code(open(page, encoding='utf-8').read())
        for target in re.findall(r'\]\(([^)\s]+)\)', text):
            if re.match(r'[a-z]+:', target):
                continue        # a URL: not checked here (no network)
            file, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file else page
            rel = os.path.relpath(page, ROOT)
            if not os.path.exists(dest):
                bad.append(f'{rel}: {target}: no such file')
            elif frag and (not dest.endswith('.md') or frag not in anchors(dest)):
                bad.append(f'{rel}: {target}: no heading "{frag}" there')
    check(not bad, f'every link in README.md and docs/ points at something ({len(pages)} pages)',
          bad)


def help_options(bin_):
    out = subprocess.run([bin_, '--help', 'all'], capture_output=True, text=True, timeout=30).stdout
    opts = set(re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]*)', out))
    opts |= set(re.findall(r'^\s+(-[a-zA-Z]),', out, re.M))
    return opts


def check_commands(bin_):
    opts = help_options(bin_)
    text = open(os.path.join(ROOT, 'README.md'), encoding='utf-8').read()
    bad, n = [], 0
    for block in re.findall(r'^```[^\n]*\n(.*?)^```', text, re.M | re.S):
        for line in block.split('\n'):
            line = line.split('#')[0].strip()
            if not line.startswith('gputui'):
                continue
            n += 1
            for word in line.split()[1:]:
                if word.startswith('-'):
                    name = word.split('=')[0]
                    if name not in opts:
                        bad.append(f'{line}: {name} is not in gputui --help')
    check(n > 0 and not bad, f'the {n} commands in README.md use options gputui --help lists',
          bad)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    readme = os.path.join(ROOT, 'README.md')
    lines = open(readme, encoding='utf-8').read().count('\n')
    check(lines <= MAX_README, f'README.md is {lines} lines (at most {MAX_README})')
    docs = sorted(os.path.join(ROOT, 'docs', f) for f in os.listdir(os.path.join(ROOT, 'docs'))
                  if f.endswith('.md'))
    check_links([readme] + docs)
    check_commands(sys.argv[1])
    bad = []
    linked = set(re.findall(r'\]\(docs/([^)#]+)', open(readme, encoding='utf-8').read()))
    for d in docs:
        body = open(d, encoding='utf-8').read().split('\n')
        first = next((l for l in body[1:] if l.strip()), '')
        if not first.startswith('For '):
            bad.append(f'{os.path.relpath(d, ROOT)}: the first line under the title does not '
                       f'say who it is for ("For ...")')
        if os.path.basename(d) not in linked:
            bad.append(f'{os.path.relpath(d, ROOT)}: README.md does not link it')
    check(not bad, f'each of the {len(docs)} pages of docs/ says who it is for, and README.md '
          f'links it', bad)
    return summary('docs')


if __name__ == '__main__':
    sys.exit(main())
