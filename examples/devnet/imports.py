#!/usr/bin/env python3
"""Draw the file-level import map of a Rust crate's src/ and report every cycle.

An edge A -> B means a file A names (in a `use`, or inline as `crate::..`/`super::..`/
`self::..`) an item defined in file B, or module B itself. Module declarations (`mod x;`)
are not edges; `pub use` re-exports are followed to the defining file."""
import os, re, sys

root = sys.argv[1]
files = {}  # module path tuple -> file
for d, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith('.rs'):
            continue
        p = os.path.join(d, f)
        rel = os.path.relpath(p, root)[:-3].split(os.sep)
        if rel[-1] in ('mod',):
            rel = rel[:-1]
        if rel == ['lib'] or rel == ['main']:
            mod = () if rel == ['lib'] else ('<main>',)
        else:
            mod = tuple(rel)
        files[mod] = p

def strip(src):
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'"(\\.|[^"\\])*"', '""', src)
    return src

# inline modules: name -> the file (e.g. genesis::staking, tests)
def inline_mods(src):
    return set(re.findall(r'\bmod\s+(\w+)\s*\{', src))

srcs = {m: strip(open(p).read()) for m, p in files.items()}
inl = {m: inline_mods(s) for m, s in srcs.items()}

def expand(tree, prefix=''):
    """Expand a use tree like a::{b, c::{d as e}, self} into full paths."""
    tree = tree.strip()
    out = []
    i = tree.find('{')
    if i < 0:
        t = re.sub(r'\s+as\s+\w+$', '', tree)
        return [prefix + t]
    head = tree[:i]
    body = tree[i+1:tree.rfind('}')]
    parts, depth, cur = [], 0, ''
    for ch in body:
        if ch == '{': depth += 1
        if ch == '}': depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur); cur = ''
        else:
            cur += ch
    parts.append(cur)
    for p in parts:
        if p.strip():
            out += expand(p, prefix + head)
    return out

def uses(src):
    paths = []
    for m in re.finditer(r'\buse\s+([^;]+);', src):
        paths += [(p, m.start()) for p in expand(m.group(1))]
    # inline paths
    for m in re.finditer(r'(?<![\w:])((?:crate|super|self)(?:::\w+)+)', src):
        paths.append((m.group(1), m.start()))
    # inline paths through a child module, without `self::` (`subnets::check_auth(..)`)
    for m in re.finditer(r'(?<![\w:])([a-z_]\w*(?:::\w+)+)', src):
        if m.group(1).split('::')[0] not in ('crate', 'super', 'self'):
            paths.append(('self::' + m.group(1), m.start()))
    return paths

def reexports(mod):
    """name -> full path for `pub use` in module mod."""
    out = {}
    for m in re.finditer(r'\bpub(?:\([^)]*\))?\s+use\s+([^;]+);', srcs[mod]):
        for p in expand(m.group(1)):
            name = p.split('::')[-1]
            out[name] = p
    return out

def in_inline_mod(src, pos):
    # depth of inline `mod x {` blocks enclosing pos
    depth = 0
    for m in re.finditer(r'\bmod\s+\w+\s*\{', src[:pos]):
        # find the matching brace
        d, j = 0, m.end() - 1
        while j < len(src):
            if src[j] == '{': d += 1
            elif src[j] == '}':
                d -= 1
                if d == 0: break
            j += 1
        if j > pos:
            depth += 1
    return depth

def resolve(mod, path, pos, seen=0):
    segs = [s for s in path.split('::') if s]
    src = srcs[mod]
    if segs[0] == 'crate':
        cur = (); segs = segs[1:]
    elif segs[0] in ('super', 'self'):
        cur = mod
        depth = in_inline_mod(src, pos)
        while segs and segs[0] in ('super', 'self'):
            if segs[0] == 'super':
                if depth > 0: depth -= 1
                else: cur = cur[:-1]
            segs = segs[1:]
    else:
        # relative to current module: a submodule or a re-export or extern crate
        cur = mod
        if not segs or (cur + (segs[0],)) not in files:
            return None
    while segs and (cur + (segs[0],)) in files:
        cur = cur + (segs[0],); segs = segs[1:]
    if segs and segs[0] not in ('self', '*') and seen < 5:
        rx = reexports(cur)
        if segs[0] in rx:
            r = resolve(cur, rx[segs[0]], 0, seen + 1)
            if r: return r
    return cur

edges = {}
for mod in files:
    for p, pos in uses(srcs[mod]):
        t = resolve(mod, p, pos)
        if t is None or t == mod or t not in files:
            continue
        edges.setdefault(files[mod], set()).add(files[t])

# cycles: strongly connected components (Tarjan)
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def strong(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v: break
        if len(c) > 1: sccs.append(c)
sys.setrecursionlimit(10000)
for v in sorted(files.values()):
    if v not in index: strong(v)

short = lambda p: os.path.relpath(p, root)
if '-v' in sys.argv:
    for a in sorted(edges):
        print(short(a), '->', ', '.join(sorted(short(b) for b in edges[a])))
print(f'{len(files)} files, {sum(len(v) for v in edges.values())} edges')
if not sccs:
    print('no import cycle')
for c in sccs:
    print('CYCLE among:', ', '.join(sorted(short(x) for x in c)))
    cs = set(c)
    for a in sorted(c):
        print('   ', short(a), '->', ', '.join(sorted(short(b) for b in edges[a] if b in cs)))
sys.exit(1 if sccs else 0)
