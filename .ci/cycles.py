#!/usr/bin/env python3
"""Import cycles between modules of a Rust crate's source tree.

Reads every `.rs` file under the given directory (test modules, `tests/`
directories and reference implementations left out, comments skipped),
collects the modules each one names through `crate::` and `super::` paths
(in `use` items and inline), and prints every cycle among sibling modules,
each module folded into its parent as its parent's siblings see it: if
`a::x` uses `b` and `b` uses `a`, `a` and `b` form a cycle. Exits 1 if
there is any. A parent module naming its children (and a child its parent)
is not a cycle. `.ci/cycles_test.py` plants cycles to check that it sees them.

With `--doc FILE`, also checks the crate's table in that Markdown file (the
table after the heading that names the directory, as in
docs/ARCHITECTURE.md): every top-level module has a row, every row is a
module, and a module uses (itself or through its children) only the modules
its last column lists.

    python3 .ci/cycles.py engine/src [--doc docs/ARCHITECTURE.md]
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


def allowed(doc, root):
    """The crate's table in `doc`: module -> the modules it may use."""
    lines = open(doc).read().split("\n")
    name = root.rstrip("/")
    start = next(
        (i for i, l in enumerate(lines) if l.startswith("#") and f"(`{name}`)" in l), None
    )
    if start is None:
        sys.exit(f"{doc}: no section for `{name}`")
    table = {}
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        table[cells[0].strip("`")] = set(re.findall(r"`(\w+)`", cells[-1]))
    return table


def check_doc(doc, root, g, resolve):
    """Problems of the code against the crate's table in `doc`."""
    table = allowed(doc, root)
    top = {m.split("::")[0] for m in g if m}
    problems = [f"{doc}: no row for module `{m}` of {root}" for m in sorted(top - set(table))]
    problems += [f"{doc}: row `{m}` is no module of {root}" for m in sorted(set(table) - top)]
    for m, deps in g.items():
        if not m:
            continue
        t = m.split("::")[0]
        for d in deps:
            r = resolve(d)
            if r is None or r == "":
                continue
            rt = r.split("::")[0]
            if rt != t and t in table and rt not in table[t]:
                problems.append(f"{root}: {m} uses `{rt}`, which {doc} does not list for `{t}`")
    return sorted(set(problems))


def main():
    args = sys.argv[1:]
    doc = None
    if "--doc" in args:
        i = args.index("--doc")
        doc = args[i + 1]
        del args[i : i + 2]
    root = args[0]
    g = graph(root)
    mods = set(g)

    def resolve(parts):
        for i in range(len(parts), -1, -1):
            c = "::".join(parts[:i])
            if c in mods:
                return c
        return None

    edges = {}
    for m, deps in g.items():
        for d in deps:
            r = resolve(d)
            if r is None or r == m or r == "":
                continue
            if (m + "::").startswith(r + "::") or r.startswith(m + "::"):
                continue
            # Fold both into their ancestors that are siblings: a child's
            # imports are its parent's, as far as the parent's siblings see.
            a, b = m.split("::"), r.split("::")
            k = 0
            while a[k] == b[k]:
                k += 1
            edges.setdefault("::".join(a[: k + 1]), set()).add("::".join(b[: k + 1]))
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
    problems = check_doc(doc, root, g, resolve) if doc else []
    for p in problems:
        print(p)
    sys.exit(1 if cycles or problems else 0)


if __name__ == "__main__":
    main()
