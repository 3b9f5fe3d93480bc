#!/usr/bin/env python3
"""Checks the #include structure of src/ (docs/DESIGN.md, "What each folder may include"):

  1. no include cycle between modules: a module is a .c and its .h (src/sim/sim.c + sim.h);
     a test-only header X_test.h and a private header X_internal.h belong to module X;
  2. each folder includes only the folders its row of the table allows.

Prints each problem on a line and exits 1, or prints a summary and exits 0.
Usage: tools/check_includes.py [SOURCE_DIR]  (default: the checkout this script is in)
"""
import os, re, sys

# What each folder of src/ may include besides itself (docs/DESIGN.md keeps the same table).
MAY_INCLUDE = {
    'core': set(),
    'gpu': {'core'},
    'sort': {'core', 'gpu'},
    'sim': {'core', 'gpu', 'sort'},
    'render': {'core', 'gpu'},
    # src/app is three rooms, one floor above the other: the session (what a run is), the window
    # (loop, actions, script, recorder, pacing) and the commands (run, sort, bench).
    'app/session': {'core', 'gpu', 'sort', 'sim', 'render'},
    'app/window': {'core', 'gpu', 'sort', 'sim', 'render', 'app/session'},
    'app/cmd': {'core', 'gpu', 'sort', 'sim', 'render', 'app/session', 'app/window'},
    '': {'core', 'gpu', 'sort', 'sim', 'render', 'app/cmd'},  # src/main.c
}

def folder_of(rel):
    """The row of MAY_INCLUDE a file answers to: its top folder, or app/ROOM under src/app."""
    parts = rel.split('/')[:-1]
    if not parts:
        return ''
    if parts[0] == 'app':
        return '/'.join(parts[:2])
    return parts[0]

def module_of(rel):
    base = os.path.splitext(rel)[0]
    for suffix in ('_test', '_internal'):
        if base.endswith(suffix):
            return base[:-len(suffix)]
    return base

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    src = os.path.join(root, 'src')
    files = []
    for d, _, names in os.walk(src):
        for n in names:
            if n.endswith(('.c', '.h')):
                files.append(os.path.relpath(os.path.join(d, n), src))
    known = set(files)
    edges, problems = {}, []
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for f in sorted(files):
        text = open(os.path.join(src, f), encoding='utf-8', errors='replace').read()
        m = module_of(f)
        top = folder_of(f)
        for target in inc.findall(text):
            if target not in known:
                continue  # a header outside src/ (stb, a shader layout text)
            t = module_of(target)
            tfolder = folder_of(target)
            if tfolder != top and tfolder not in MAY_INCLUDE.get(top, set()):
                problems.append(f'{f}: includes {target}, but src/{top or "."} may include only '
                                f'{", ".join(sorted(MAY_INCLUDE.get(top, set()))) or "itself"}')
            if t != m:
                edges.setdefault(m, set()).add(t)
    # Cycles: Tarjan's strongly connected components.
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: sccs.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(set(edges) | {t for ts in edges.values() for t in ts}):
        if v not in index: visit(v)
    for comp in sccs:
        links = [f'{a} -> {b}' for a in comp for b in sorted(edges.get(a, ())) if b in comp]
        problems.append('include cycle between modules: ' + ', '.join(comp) + ' (' + '; '.join(links) + ')')
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f'PASS: {len({module_of(f) for f in files})} modules, {sum(len(v) for v in edges.values())} module includes, no cycle, every folder within its row')
    return 0

sys.exit(main())
