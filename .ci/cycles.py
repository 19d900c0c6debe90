#!/usr/bin/env python3
"""Import cycles between sibling modules of a Rust crate's source tree.

Reads every `.rs` file under the given directory (test modules, `tests/`
directories and reference implementations left out, comments skipped),
collects the modules each one names through `crate::` and `super::` paths
(in `use` items and inline), and prints every cycle among modules that are
not one inside the other. Exits 1 if there is any. A parent module naming
its children (and a child its parent) is not a cycle.

    python3 .ci/cycles.py engine/src
"""
import glob
import os
import re
import sys


def expand(prefix, body):
    """The paths of a `use` list body such as `a, b::{c, d}`."""
    out, depth, cur = [], 0, ""
    for ch in body:
        if ch == "{":
            depth += 1
        if ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    res = []
    for o in out:
        m = re.match(r"([\w:]*?)::\{(.*)\}$", o, re.S)
        if m:
            res += expand(prefix + "::" + m.group(1), m.group(2))
        else:
            res.append(prefix + "::" + o)
    return res


def module_of(root, path):
    rel = os.path.relpath(path, root)[:-3]
    if rel.endswith("/mod"):
        rel = rel[:-4]
    name = rel.replace("/", "::")
    return "" if name in ("lib", "main") else name


def graph(root):
    g = {}
    for f in glob.glob(root + "/**/*.rs", recursive=True):
        rel = os.path.relpath(f, root)
        if "/tests/" in rel or rel.startswith("tests/") or rel.endswith("reference.rs"):
            continue
        m = module_of(root, f)
        text = open(f).read()
        text = re.split(r"#\[cfg\(test\)\]\s*(pub(\(crate\))? )?mod tests", text)[0]
        text = "\n".join(l for l in text.split("\n") if not l.strip().startswith("//"))
        here = m.split("::") if m else []
        # `super` of a file module is its parent; of a `mod.rs`, the parent's parent.
        parent = here[:-1]
        deps = []
        for kind, rest in re.findall(r"use (crate|super)::(.*?);", text, re.S):
            rest = rest.strip()
            if rest.startswith("{"):
                paths = expand("", rest[1:-1])
            else:
                mm = re.match(r"([\w:]*?)::\{(.*)\}$", rest, re.S)
                paths = expand("::" + mm.group(1), mm.group(2)) if mm else ["::" + rest]
            for p in paths:
                parts = [x for x in p.split(" as ")[0].split("::") if x and x != "self"]
                deps.append(parts if kind == "crate" else parent + parts)
        for kind, rest in re.findall(r"(?<![\w:])(crate|super)::([\w:]+)", text):
            parts = [x for x in rest.split("::") if x]
            deps.append(parts if kind == "crate" else parent + parts)
        g[m] = deps
    return g


def main():
    root = sys.argv[1]
    g = graph(root)
    mods = set(g)

    def resolve(parts):
        for i in range(len(parts), -1, -1):
            c = "::".join(parts[:i])
            if c in mods:
                return c
        return None

    edges = {m: set() for m in g}
    for m, deps in g.items():
        for d in deps:
            r = resolve(d)
            if r is None or r == m or r == "":
                continue
            if (m + "::").startswith(r + "::") or r.startswith(m + "::"):
                continue
            edges[m].add(r)
    cycles = set()

    def dfs(start, node, path):
        for n in edges.get(node, ()):
            if n == start:
                cycles.add(tuple(path))
            elif n not in path and len(path) < 8:
                dfs(start, n, path + [n])

    for m in edges:
        dfs(m, m, [m])
    seen = set()
    for c in sorted(cycles):
        if frozenset(c) in seen:
            continue
        seen.add(frozenset(c))
        print(f"{root}: import cycle: {' -> '.join(c + (c[0],))}")
    sys.exit(1 if cycles else 0)


if __name__ == "__main__":
    main()
