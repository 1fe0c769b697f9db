#!/usr/bin/env python3
"""The structure of the source tree, checked (make test).

Folders: each folder of src/core/ says in its README.md what it may call
("May call: base, device"); its .c files and its headers under
include/gputui/FOLDER/ include only their own folder's headers and those
of the folders named there, never the faces of the other parts (ui/ui.h,
cuda_backend.h, kernels.h), curses or CUDA. The folders' rules themselves
form no circle.

The parts: src/gpu/ and src/ui/ say the same way which folders of src/core/
they may call (and gpu/, "kernels"); neither reaches the other, and only
gpu/ includes a CUDA header.

The experiments: src/experiments/NAME/ holds all of one experiment. Its
table row and what the row shares (NAME.c, NAME.h, other .c) count as the
folder src/core/experiments/ and keep its rule; its GPU side
(NAME_gpu*.c) counts as src/gpu/, its kernels (*.cu) as kernels/. An
experiment's folder reaches no other experiment's; outside the folders
only the registry (src/core/experiments/registry.c) and the back-end's
list (src/gpu/cuda_backend.c) name one (by the list, all.h), and no file
of src/ outside them includes one's header or compares a name with one.

Files: read from the symbols of the objects in BUILD (nm), so calls through
a shared private header (ui_priv.h, gpu.h) count too. No files of src/ call
each other, directly or round a circle; a file of src/core/, src/gpu/ or
src/ui/ calls only into what its README allows; a file of src/ui/ calls
only files listed before it in ui_priv.h's list, which names every file of
src/ui/.

Usage: tests/layers.py [BUILD]   (without BUILD only the folders are checked)
Prints one line per check, then "layers: N passed, M failed"."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, 'src', 'core')
EXPS = os.path.join(ROOT, 'src', 'experiments')
LISTS = ('src/core/experiments/registry.c', 'src/gpu/cuda_backend.c')   # read all.h
OTHER_PART = re.compile(r'#\s*include\s*"(ui|gpu)/')   # an experiment's: check_experiments
EXP_INCLUDE = re.compile(r'#\s*include\s*"experiments/([a-z0-9_]+)/([a-z0-9_]+\.h)"')


def experiment_of(path):
    """NAME for a file of src/experiments/NAME/, else None."""
    p = path.split('/')
    return p[2] if len(p) == 4 and p[0] == 'src' and p[1] == 'experiments' else None


def exp_kind(path):
    """'row', 'gpu' or 'kernels' for a file of an experiment's folder."""
    n = os.path.basename(path)
    return 'kernels' if n.endswith(('.cu', '_kernels.h')) else 'gpu' if re.search(r'_gpu(_\w+)?\.[ch]$', n) else 'row'


def core_folder(path):
    """The folder of src/core/ a file counts as: its own, or 'experiments'
    for an experiment's row; None for the other parts."""
    p = path.split('/')
    if len(p) == 4 and p[:2] == ['src', 'core']:
        return p[2]
    if experiment_of(path) and exp_kind(path) == 'row':
        return 'experiments'
    return None


def part_of(path):
    """'gpu' or 'ui' for the parts' files (an experiment's GPU side: gpu)."""
    p = path.split('/')
    if len(p) == 3 and p[0] == 'src' and p[1] in ('gpu', 'ui'):
        return p[1]
    if experiment_of(path) and exp_kind(path) == 'gpu':
        return 'gpu'
    return None


def experiment_files():
    """Paths (from ROOT) of every .c, .h and .cu of src/experiments/NAME/."""
    out = []
    if os.path.isdir(EXPS):
        for d in sorted(os.listdir(EXPS)):
            if os.path.isdir(os.path.join(EXPS, d)):
                out += [f'src/experiments/{d}/{n}' for n in sorted(os.listdir(os.path.join(EXPS, d)))
                        if n.endswith(('.c', '.h', '.cu'))]
    return out


FACES = ('cuda_backend.h', 'kernels.h')   # include/gputui/: the other parts
FORBIDDEN_SYS = re.compile(r'#\s*include\s*<(n?curses\.h|cuda[a-z_]*\.h|nvml\.h)>')
INCLUDE = re.compile(r'#\s*include\s*"gputui/(?:([a-z0-9_]+)/)?([a-z0-9_]+\.h)"')

from checks import check, summary


def folders():
    return sorted(d for d in os.listdir(CORE) if os.path.isdir(os.path.join(CORE, d)))


def may_call(f, top=CORE):
    try:
        text = open(os.path.join(top, f, 'README.md'), encoding='utf-8').read()
    except OSError:
        return None
    m = re.search(r'^May call: *(.*)$', text, re.M)
    if not m:
        return None
    names = [n.strip() for n in m.group(1).split(',') if n.strip()]
    return set() if names == ['nothing'] else set(names)


def find_cycle(graph):
    """One circle of the graph as a list of nodes, or None."""
    state = {}

    def visit(v, path):
        state[v] = 1
        path.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                c = visit(w, path)
                if c:
                    return c
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            c = visit(v, [])
            if c:
                return c
    return None


def check_folders():
    names = folders()
    rules = {}
    for f in names:
        m = may_call(f)
        check(m is not None, f'src/core/{f}/README.md has a "May call:" line')
        rules[f] = m or set()
        unknown = sorted(rules[f] - set(names))
        check(not unknown, f'src/core/{f}: "May call" names folders of src/core/ only',
              [f'unknown: {", ".join(unknown)}'] if unknown else ())
    inc = os.path.join(ROOT, 'include', 'gputui')
    extra = sorted(d for d in os.listdir(inc) if os.path.isdir(os.path.join(inc, d)) and d not in names)
    check(not extra, 'include/gputui/ mirrors the folders of src/core/',
          [f'include/gputui/{d}/ has no src/core/{d}/' for d in extra])
    loose = sorted(h for h in os.listdir(inc) if h.endswith('.h') and h not in FACES)
    check(not loose, 'include/gputui/ itself holds only the faces of ui/, gpu/ and kernels/',
          [f'include/gputui/{h}: move it into the folder of its module' for h in loose])
    c = find_cycle(rules)
    check(not c, 'the folders\' rules form no circle', [' -> '.join(c)] if c else ())
    outside = sorted(n for n in os.listdir(CORE) if n.endswith(('.c', '.h')))
    check(not outside, 'every file of src/core/ stands in a folder',
          [f'src/core/{n}: move it into the folder of its concern' for n in outside])

    bad = []
    for f in names:
        files = [os.path.join('src', 'core', f, n) for n in sorted(os.listdir(os.path.join(CORE, f)))
                 if n.endswith('.c')]
        hdir = os.path.join('include', 'gputui', f)
        if os.path.isdir(os.path.join(ROOT, hdir)):
            files += [os.path.join(hdir, n) for n in sorted(os.listdir(os.path.join(ROOT, hdir)))
                      if n.endswith('.h')]
        for path in files:
            for lineno, line in enumerate(open(os.path.join(ROOT, path), encoding='utf-8'), 1):
                m = INCLUDE.search(line)
                if m:
                    g, h = m.group(1), m.group(2)
                    if g is None:
                        bad.append(f'{path}:{lineno}: includes gputui/{h}, the face of another part')
                    elif g != f and g not in rules[f]:
                        bad.append(f'{path}:{lineno}: includes gputui/{g}/{h}, but src/core/{f}/ '
                                   f'may call only: {", ".join(sorted(rules[f])) or "nothing"}')
                if FORBIDDEN_SYS.search(line):
                    bad.append(f'{path}:{lineno}: {line.strip()} (core/ builds without curses and CUDA)')
                if OTHER_PART.search(line):
                    bad.append(f'{path}:{lineno}: {line.strip()}: the header of another part')
    check(not bad, 'every include of src/core/ and include/gputui/FOLDER/ keeps its folder\'s rule', bad)

    bad = []
    for path in experiment_files():
        if exp_kind(path) != 'row':
            continue
        for lineno, line in enumerate(open(os.path.join(ROOT, path), encoding='utf-8'), 1):
            m = INCLUDE.search(line)
            if m and (m.group(1) is None or (m.group(1) != 'experiments' and
                                             m.group(1) not in rules.get('experiments', ()))):
                bad.append(f'{path}:{lineno}: includes {m.group(0)[m.group(0).index(chr(34)):]}, but an '
                           f'experiment\'s row may call only: experiments, '
                           f'{", ".join(sorted(rules.get("experiments", ())))}')
            if FORBIDDEN_SYS.search(line):
                bad.append(f'{path}:{lineno}: {line.strip()} (a row builds without curses and CUDA)')
    check(not bad, 'every include of an experiment\'s row keeps the rule of src/core/experiments/', bad)
    return rules


PARTS = ('gpu', 'ui')
PART_FACE = {'gpu': ('cuda_backend.h', 'kernels.h'), 'ui': ()}
CUDA_SYS = re.compile(r'#\s*include\s*<(cuda[a-z_]*\.h|nvml\.h)>')


def check_parts(folders_):
    rules = {}
    for part in PARTS:
        top = os.path.join(ROOT, 'src')
        m = may_call(part, top)
        check(m is not None, f'src/{part}/README.md has a "May call:" line')
        rules[part] = m or set()
        unknown = sorted(rules[part] - set(folders_) - {'kernels'})
        check(not unknown, f'src/{part}: "May call" names folders of src/core/ (or kernels) only',
              [f'unknown: {", ".join(unknown)}'] if unknown else ())
        paths = [os.path.join('src', part, n) for n in sorted(os.listdir(os.path.join(top, part)))
                 if n.endswith(('.c', '.h'))]
        if part == 'gpu':
            paths += [p for p in experiment_files() if exp_kind(p) == 'gpu']
        bad = []
        for path in paths:
            for lineno, line in enumerate(open(os.path.join(ROOT, path), encoding='utf-8'), 1):
                mm = INCLUDE.search(line)
                if mm:
                    g, h = mm.group(1), mm.group(2)
                    if g is None and h not in PART_FACE[part]:
                        bad.append(f'{path}:{lineno}: includes gputui/{h}, the face of another part')
                    elif g is not None and g not in rules[part]:
                        bad.append(f'{path}:{lineno}: includes gputui/{g}/{h}, but src/{part}/ may '
                                   f'call only: {", ".join(sorted(rules[part]))}')
                if part != 'gpu' and CUDA_SYS.search(line):
                    bad.append(f'{path}:{lineno}: {line.strip()} (only src/gpu/ calls CUDA)')
        check(not bad, f'every include of src/{part}/' + (' and the experiments\' GPU sides'
                                                          if part == 'gpu' else '') +
              ' keeps its rule', bad)
    return rules


NAME_COMPARED = r'(?:strn?cmp|strcasecmp)\s*\([^;]*"({names})"'


def check_experiments():
    """An experiment's folder reaches no other's, and nothing outside the
    folders includes an experiment's header or compares a name with one."""
    names = listed_experiments()
    if not names:
        return
    bad = []
    for path in experiment_files():
        own = experiment_of(path)
        for lineno, line in enumerate(open(os.path.join(ROOT, path), encoding='utf-8'), 1):
            m = EXP_INCLUDE.search(line)
            if m and m.group(1) != own:
                bad.append(f'{path}:{lineno}: includes experiments/{m.group(1)}/{m.group(2)}, '
                           f'another experiment\'s')
    check(not bad, 'an experiment\'s folder includes no other experiment\'s headers', bad)
    cmp_rx = re.compile(NAME_COMPARED.format(names='|'.join(names)))
    bad_inc, bad_cmp = [], []
    for top, _, files in os.walk(os.path.join(ROOT, 'src')):
        for f in sorted(files):
            path = os.path.relpath(os.path.join(top, f), ROOT)
            if experiment_of(path) or not f.endswith(('.c', '.h')):
                continue
            code = c_code(open(os.path.join(ROOT, path), encoding='utf-8').read())
            for lineno, line in enumerate(code.split('\n'), 1):
                if EXP_INCLUDE.search(line):
                    bad_inc.append(f'{path}:{lineno}: {line.strip()}: ask the row (its hooks) instead')
                if cmp_rx.search(line):
                    bad_cmp.append(f'{path}:{lineno}: {line.strip()[:70]}: ask the row (its hooks) instead')
    check(not bad_inc, 'no file of src/ outside src/experiments/ includes an experiment\'s header',
          bad_inc)
    check(not bad_cmp, 'no file of src/ outside src/experiments/ compares a name with an '
          'experiment\'s', bad_cmp)


def listed_experiments():
    try:
        text = open(os.path.join(EXPS, 'all.h'), encoding='utf-8').read()
    except OSError:
        return []
    return re.findall(r'^GT_EXP\((\w+)\)$', text, re.M)


def symbols(build):
    """{file: (defined, undefined)} for the objects of src/ and kernels/ in
    BUILD whose source still exists (a stale object of a renamed file is
    left out)."""
    objs = []
    for sub in ('src', 'kernels'):
        top = os.path.join(build, sub)
        for dirpath, _, names in os.walk(top):
            for n in names:
                if n.endswith('.o'):
                    obj = os.path.join(dirpath, n)
                    stem = os.path.join(sub, os.path.relpath(obj, top))[:-2]
                    src = next((stem + e for e in ('.c', '.cu') if os.path.exists(os.path.join(ROOT, stem + e))),
                               None)
                    if src:
                        objs.append((obj, src))
    out = {}
    for obj, src in objs:
        text = subprocess.run(['nm', '-P', obj], capture_output=True, text=True).stdout
        defined, undefined = set(), set()
        for line in text.splitlines():
            p = line.split()
            if len(p) < 2:
                continue
            (undefined if p[1] == 'U' else defined if p[1] in 'TDBRCVWS' else set()).add(p[0])
        out[src] = (defined, undefined)
    return out


PORT = os.path.join('src', 'core', 'base', 'port.c')
NOT_PORTABLE = [
    (re.compile(r'^\s*#\s*define\s+_(GNU|DEFAULT|BSD|DARWIN_C)_SOURCE'), 'a feature macro beyond POSIX/X-Open'),
    (re.compile(r'#\s*include\s*<(sys/(eventfd|epoll|inotify|syscall|prctl|sysinfo)|linux/|mach-o/|mach/)'),
     'a Linux or Darwin header'),
    (re.compile(r'"/(proc|sys)/'), 'a path of /proc or /sys'),
    (re.compile(r'\b(renameat2|eventfd|renamex_np|_NSGetExecutablePath|fopencookie|funopen)\s*\('),
     'a Linux or Darwin call'),
    (re.compile(r'__start_|__stop_|section\s*\('), 'a linker section'),
]


def check_portable():
    """Outside port.c nothing in src/core/, src/ui/ or src/main.c (and no
    /proc or /sys path in src/gpu/) names what only Linux or macOS has."""
    bad = []
    paths = [os.path.join('src', 'main.c')]
    for top in ('src/core', 'src/ui', 'src/gpu', 'src/experiments', 'include/gputui'):
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            paths += [os.path.relpath(os.path.join(dirpath, n), ROOT) for n in sorted(names)
                      if n.endswith(('.c', '.h'))]
    for path in sorted(paths):
        if path == PORT:
            continue
        gpu = path.startswith(os.path.join('src', 'gpu')) or part_of(path) == 'gpu'
        for lineno, line in enumerate(open(os.path.join(ROOT, path), encoding='utf-8'), 1):
            if line.lstrip().startswith(('/*', '*', '//')):
                continue
            for rx, what in NOT_PORTABLE:
                if gpu and what not in ('a path of /proc or /sys',):
                    continue        # src/gpu/ is the Linux-only part
                if rx.search(line):
                    bad.append(f'{path}:{lineno}: {what} ({line.strip()[:60]}): only port.c may')
    check(not bad, 'only src/core/base/port.c names what Linux or macOS alone has', bad)


OUT = os.path.join('src', 'core', 'base', 'out.c')
# What writes to the process's own outputs without a stream of out.h.
RAW_OUTPUT = {'stdout', 'stderr', 'printf', 'vprintf', 'puts', 'putchar', 'perror'}


def check_outputs(syms):
    """Text leaves gputui through out.h's streams alone: no object of
    src/core/, src/ui/ or main.c but out.c names stdout or stderr, or calls
    what writes to them (src/gpu/'s child processes talk over pipes)."""
    bad = []
    for src, (_, undefined) in sorted(syms.items()):
        if part_of(src) == 'gpu' or src.endswith('.cu') or src == OUT:
            continue
        raw = sorted(undefined & RAW_OUTPUT)
        if raw:
            bad.append(f'{src}: {", ".join(raw)}: write through gt_stdout() or gt_stderr() (out.h)')
    check(not bad, 'text leaves gputui only through out.h (no stdout or stderr named elsewhere)', bad)


def check_list():
    """Every experiment's folder, table row and GPU side stand in the one
    list, src/experiments/all.h."""
    listed = listed_experiments()
    if not listed:
        check(False, 'src/experiments/all.h lists every experiment', ['no GT_EXP(NAME) line found'])
        return
    folders_ = sorted(d for d in os.listdir(EXPS) if os.path.isdir(os.path.join(EXPS, d)))
    rows, gpu = {}, {}
    for path in experiment_files():
        text = open(os.path.join(ROOT, path), encoding='utf-8').read()
        for m in re.finditer(r'^GT_EXPERIMENT\(gt_exp_(\w+)\)', text, re.M):
            rows[m.group(1)] = path
        for m in re.finditer(r'^GT_GPU_OPS\((\w+)\)', text, re.M):
            gpu[m.group(1)] = path
    bad = [f'src/experiments/{d}/ is not a line of all.h' for d in folders_ if d not in listed]
    bad += [f'all.h lists {n}, which has no folder src/experiments/{n}/' for n in listed
            if n not in folders_]
    bad += [f'{f}: the row of {r} stands outside src/experiments/{r}/{r}.c' for r, f in sorted(rows.items())
            if f != f'src/experiments/{r}/{r}.c']
    bad += [f'{f}: the GPU side of {g} stands outside src/experiments/{g}/' for g, f in sorted(gpu.items())
            if experiment_of(f) != g or exp_kind(f) != 'gpu']
    bad += [f'all.h lists {n}, which has no GT_EXPERIMENT(gt_exp_{n})' for n in listed if n not in rows]
    bad += [f'all.h lists {n}, which has no GT_GPU_OPS({n})' for n in listed if n not in gpu]
    bad += [f'all.h lists {n} twice' for n in sorted(set(listed)) if listed.count(n) > 1]
    check(not bad, f'experiments/all.h lists every experiment ({len(listed)}), its folder, row and '
          f'GPU side, once', bad)


def check_files(build, rules, part_rules):
    syms = symbols(build)
    check_outputs(syms)
    check(len(syms) > 0, f'objects of src/ found in {build}',
          ['build gputui first (make)'] if not syms else ())
    if not syms:
        return
    owner = {}
    for f, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, f)
    graph, why = {}, {}
    for f, (_, undefined) in syms.items():
        graph[f] = set()
        for s in undefined:
            g = owner.get(s)
            if g and g != f:
                graph[f].add(g)
                why.setdefault((f, g), []).append(s)
    c = find_cycle(graph)
    check(not c, 'no files of src/ call each other, directly or round a circle',
          [' -> '.join(c)] + [f'{a} -> {b}: {", ".join(sorted(why[(a, b)])[:6])}'
                              for a, b in zip(c, c[1:])] if c else ())

    bad = []
    for (a, b), names in sorted(why.items()):
        fa, fb = core_folder(a), core_folder(b)
        if fa and fb:
            if fa != fb and fb not in rules.get(fa, set()):
                bad.append(f'{a} calls {b} ({", ".join(sorted(names)[:4])}), but src/core/{fa}/ '
                           f'may call only: {", ".join(sorted(rules.get(fa, ()))) or "nothing"}')
        elif fa:
            bad.append(f'{a} calls {b} ({", ".join(sorted(names)[:4])}): core/ calls no other part')
    check(not bad, 'every call from src/core/ (and the experiments\' rows) keeps its folder\'s rule', bad)

    bad = []
    for (a, b), names in sorted(why.items()):
        pa = part_of(a)
        if pa not in part_rules:
            continue
        if core_folder(b):
            target = core_folder(b)
        elif b.startswith('kernels/') or b.endswith('.cu'):
            target = 'kernels'
        elif part_of(b) == pa:
            continue
        else:
            target = b
        if target not in part_rules[pa]:
            bad.append(f'{a} calls {b} ({", ".join(sorted(names)[:4])}), but src/{pa}/ may call '
                       f'only: {", ".join(sorted(part_rules[pa]))}')
    check(not bad, 'every call from src/gpu/ and src/ui/ (and the GPU sides) keeps its part\'s rule', bad)

    bad = []
    for (a, b), names in sorted(why.items()):
        ea, eb = experiment_of(a), experiment_of(b)
        if eb and ea != eb and a not in LISTS and not (ea is None and b.endswith('.cu')):
            bad.append(f'{a} calls {b} ({", ".join(sorted(names)[:4])}): only the lists '
                       f'({", ".join(LISTS)}) reach into an experiment\'s folder')
    check(not bad, 'nothing but the lists calls into an experiment\'s folder, and no experiment '
          'calls another', bad)

    priv = open(os.path.join(ROOT, 'src', 'ui', 'ui_priv.h'), encoding='utf-8').read()
    order = re.findall(r'^ \*   ([a-z_]+\.c) ', priv, re.M)
    ui_files = sorted(n for n in os.listdir(os.path.join(ROOT, 'src', 'ui')) if n.endswith('.c'))
    missing = sorted(set(ui_files) - set(order))
    check(not missing, 'ui_priv.h lists every file of src/ui/',
          [f'{m} is not in the list' for m in missing])
    bad = []
    for (a, b), names in sorted(why.items()):
        if a.startswith('src/ui/') and b.startswith('src/ui/'):
            na, nb = os.path.basename(a), os.path.basename(b)
            if na in order and nb in order and order.index(nb) > order.index(na):
                bad.append(f'{na} calls {nb} ({", ".join(sorted(names)[:4])}), listed after it')
    check(not bad, 'src/ui/: a file calls only files listed before it in ui_priv.h', bad)


def c_code(text):
    """text with its comments blanked (newlines kept) and its strings and
    characters left whole."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('/*', i):
            j = text.index('*/', i) + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
        elif text[i] in '"\'':
            j = i + 1
            while text[j] != text[i]:
                j += 2 if text[j] == '\\' else 1
            j += 1
            out.append(text[i:j])
        else:
            j = i + 1
            out.append(text[i])
        i = j
    return ''.join(out)


def top_level(body):
    """The elements of a braced initializer's body, split at its own commas."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(body):
        c = body[i]
        if c in '"\'':
            j = i + 1
            while body[j] != c:
                j += 2 if body[j] == '\\' else 1
            cur.append(body[i:j + 1])
            i = j + 1
            continue
        depth += c in '{(['
        depth -= c in '})]'
        if c == ',' and depth == 0:
            parts.append(''.join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append(''.join(cur))
    return [p for p in parts if p.strip()]


def src_c_files():
    """Each C file of src/, in order, as its path and its code (comments
    blanked: c_code)."""
    for top, _, files in sorted(os.walk(os.path.join(ROOT, 'src'))):
        for f in sorted(files):
            if f.endswith('.c'):
                path = os.path.join(top, f)
                yield path, c_code(open(path, encoding='utf-8').read())


def check_tables():
    """Every row of a table (an array of structs: parameters, keys, lessons'
    and inspections' rows, device properties...) in src/ names its fields:
    .name = "size", .type = GT_P_SIZE, ... (DESIGN.md, convention 11)."""
    bad = []
    for path, code in src_c_files():
        for m in re.finditer(r'\]\s*=\s*\{', code):
            i, depth = m.end() - 1, 0
            for j in range(i, len(code)):
                depth += code[j] == '{'
                depth -= code[j] == '}'
                if depth == 0:
                    break
            for e in top_level(code[i + 1:j]):
                if re.match(r'\s*(\[[^\]]*\]\s*=\s*)?\{\s*[^.\s}]', e):
                    line = code.count('\n', 0, i) + 1
                    bad.append(f'{os.path.relpath(path, ROOT)}:{line}: a row without '
                               f'field names: {" ".join(e.split())[:70]}')
                    break
    check(not bad, 'table rows in src/ name their fields (designated initializers)', bad)


# Formatters that write into a buffer and return it, and the buffer's place
# among their arguments.
BUFFER_FORMATTERS = {'gt_format_size': 1, 'gt_dp_format': 2, 'gt_param_format': 2}


def check_shared_buffers():
    """No statement in src/ passes two formatters the same buffer: the
    order in which a call's arguments are evaluated is unspecified, so one
    result overwrites the other (a check's message once named the free
    memory as the size asked for, and aarch64 swapped two sizes)."""
    bad = []
    for path, code in src_c_files():
        for m in re.finditer(r'[^;{}]+;', code):
            st, bufs = m.group(0), []
            for name, at in BUFFER_FORMATTERS.items():
                for call in re.finditer(r'\b' + name + r'\(', st):
                    i, depth = call.end(), 1
                    for j in range(i, len(st)):
                        depth += st[j] == '('
                        depth -= st[j] == ')'
                        if depth == 0:
                            break
                    args = top_level(st[i:j])
                    if len(args) > at:
                        bufs.append(args[at].strip())
            twice = sorted({b for b in bufs if bufs.count(b) > 1})
            if twice:
                line = code.count('\n', 0, m.start()) + 1 + len(st) - len(st.lstrip('\n'))
                bad.append(f'{os.path.relpath(path, ROOT)}:{line}: {", ".join(twice)} '
                           f'formatted into twice in one statement')
    check(not bad, 'no statement in src/ formats two values into one buffer', bad)


def main():
    rules = check_folders()
    part_rules = check_parts(sorted(rules))
    check_list()
    check_experiments()
    check_portable()
    check_tables()
    check_shared_buffers()
    if len(sys.argv) > 1:
        check_files(sys.argv[1], rules, part_rules)
    return summary('layers')


if __name__ == '__main__':
    sys.exit(main())
