#!/usr/bin/env python3
"""The cycle check sees what it must: a cycle through a child module folded
into its parent, a cycle of siblings, and none where a parent and its
children name each other. Run by .ci/run.

    python3 .ci/cycles_test.py
"""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cycles.py")


def run(files):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        done = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
        return done.returncode, done.stdout.replace(root, "ROOT")


def main():
    # service/src as it was: convert -> search_runner -> games, and a child
    # of games (an adapter) -> convert.
    folded = {
        "lib.rs": "pub mod convert;\npub mod games;\npub mod search_runner;\n",
        "convert.rs": "use crate::search_runner::Notes;\n",
        "search_runner.rs": "use crate::games::{SearchJob, Searched};\n",
        "games/mod.rs": "mod tablut;\npub type SearchJob = ();\n",
        "games/tablut.rs": "use crate::convert::side;\n",
    }
    code, out = run(folded)
    assert code == 1, (code, out)
    assert "import cycle: convert -> search_runner -> games -> convert" in out, out
    # The same with the job types moved to the runner: no cycle.
    fixed = dict(folded)
    fixed["search_runner.rs"] = "pub type SearchJob = ();\n"
    fixed["games/mod.rs"] = "mod tablut;\nuse crate::search_runner::SearchJob;\n"
    code, out = run(fixed)
    assert code == 0, (code, out)
    # Siblings inside a module, through `super::`.
    siblings = {
        "lib.rs": "pub mod a;\n",
        "a/mod.rs": "mod x;\nmod y;\n",
        "a/x.rs": "use super::y::f;\n",
        "a/y.rs": "use super::x::g;\n",
    }
    code, out = run(siblings)
    assert code == 1 and "import cycle: a::x -> a::y -> a::x" in out, (code, out)
    # A parent and its children naming each other: no cycle.
    family = {
        "lib.rs": "pub mod a;\n",
        "a/mod.rs": "mod x;\npub use x::f;\npub struct T;\n",
        "a/x.rs": "use super::T;\npub fn f() {}\n",
    }
    code, out = run(family)
    assert code == 0, (code, out)
    # The architecture table: a use it does not list, and a module without a row.
    doc = (
        "## crate (`ROOTDIR`)\n\n| module | owns | may use |\n| --- | --- | --- |\n"
        "| `a` | the a | — |\n| `b` | the b | `a` |\n"
    )
    layered = {
        "lib.rs": "pub mod a;\npub mod b;\npub mod c;\n",
        "a.rs": "use crate::b::f;\n",
        "b.rs": "use crate::a::g;\n",
        "c.rs": "\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for path, text in layered.items():
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        doc_path = os.path.join(root, "ARCH.md")
        with open(doc_path, "w") as f:
            f.write(doc.replace("ROOTDIR", root))
        done = subprocess.run(
            [sys.executable, CHECK, root, "--doc", doc_path], capture_output=True, text=True
        )
    assert done.returncode == 1, done
    assert "uses `b`, which" in done.stdout and "no row for module `c`" in done.stdout, done.stdout
    print("cycles_test: 5 cases passed")


if __name__ == "__main__":
    main()
