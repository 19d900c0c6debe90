// Turning clicks into moves: each element of a diagram that a move names
// carries `data-name` (a cell, a card, a stone), and a move is the list of
// named elements its text mentions, in order. Clicks pick elements one by
// one; the legal moves that start with the picks are the candidates.

/** A legal move and the named elements it mentions, in order. */
export interface Candidate {
  text: string;
  parts: string[];
}

const alnum = /[A-Za-z0-9]/;

/** Whether `name` occurs in `text` at `at` as a whole name (a cell `a1`
 * is not part of `a10`). */
function whole(text: string, name: string, at: number): boolean {
  const before = text[at - 1];
  const after = text[at + name.length];
  const first = name[0];
  const last = name[name.length - 1];
  const left = !alnum.test(first) || before === undefined || !alnum.test(before);
  const right = !alnum.test(last) || after === undefined || !alnum.test(after);
  return left && right;
}

/** The named elements `text` mentions, in order of mention. */
export function parts(text: string, names: readonly string[]): string[] {
  const found: { at: number; name: string }[] = [];
  for (const name of names) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
      if (whole(text, name, at)) found.push({ at, name });
    }
  }
  // A longer name wins where two start at the same place.
  found.sort((a, b) => a.at - b.at || b.name.length - a.name.length);
  const out: string[] = [];
  let end = -1;
  for (const f of found) {
    if (f.at < end) continue;
    out.push(f.name);
    end = f.at + f.name.length;
  }
  return out;
}

/** The moves whose parts start with `picked`. */
export function matching(moves: readonly Candidate[], picked: readonly string[]): Candidate[] {
  return moves.filter(
    (m) => m.parts.length >= picked.length && picked.every((p, i) => m.parts[i] === p),
  );
}

/** The names that may be picked next after `picked`. */
export function nextNames(moves: readonly Candidate[], picked: readonly string[]): Set<string> {
  const next = new Set<string>();
  for (const m of matching(moves, picked)) {
    const name = m.parts[picked.length];
    if (name !== undefined) next.add(name);
  }
  return next;
}
