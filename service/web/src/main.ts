// Caber's analysis board: every game and variant, drawn by the service
// (Render), moved by clicking or dragging (LegalMoves, Apply), analysed as
// the search streams (Analyze), stepped through along its moves, loaded from
// a position or a game record (Replay) and reviewed (Review). Schotten
// Totten is shown as one player sees it (View): the cards it draws named to
// it alone, the cards an analysis line deals it marked as samples. Every
// call is one a plain gRPC-Web client could make.
import { Code, ConnectError } from "@connectrpc/connect";
import { connect, type Engine } from "./client";
import { matching, nextNames, parts, type Candidate } from "./moves";
import { Judgement, type GameInfo, type AnalysisUpdate, type MoveReview, type PlayerReview, type PvLine, type Score } from "./gen/caber/v1/caber_pb";
import { Side } from "./gen/caber/v1/side_pb";
import "./board.css";

/** One position along the line: its text, the move that led to it and
 * whose turn it is (the mover of the next ply). */
interface Ply {
  text: string;
  move: string;
  toMove: Side;
}

const $ = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
};

const ui = {
  game: $<HTMLSelectElement>("game"),
  variant: $<HTMLSelectElement>("variant"),
  seed: $<HTMLInputElement>("seed"),
  seat: $<HTMLSelectElement>("seat"),
  seatLabel: $<HTMLLabelElement>("seat-label"),
  newGame: $<HTMLButtonElement>("new-game"),
  board: $<HTMLDivElement>("board"),
  status: $<HTMLDivElement>("status"),
  notice: $<HTMLDivElement>("notice"),
  choices: $<HTMLDivElement>("choices"),
  moveForm: $<HTMLFormElement>("move-form"),
  moveInput: $<HTMLInputElement>("move-input"),
  legal: $<HTMLDataListElement>("legal"),
  analyze: $<HTMLButtonElement>("analyze"),
  stop: $<HTMLButtonElement>("stop"),
  seconds: $<HTMLInputElement>("seconds"),
  engineMove: $<HTMLButtonElement>("engine-move"),
  winFill: $<HTMLDivElement>("win-fill"),
  winText: $<HTMLDivElement>("win-text"),
  searchInfo: $<HTMLDivElement>("search-info"),
  lines: $<HTMLOListElement>("lines"),
  linesNote: $<HTMLDivElement>("lines-note"),
  first: $<HTMLButtonElement>("first"),
  back: $<HTMLButtonElement>("back"),
  forward: $<HTMLButtonElement>("forward"),
  last: $<HTMLButtonElement>("last"),
  moveList: $<HTMLOListElement>("move-list"),
  loadText: $<HTMLTextAreaElement>("load-text"),
  loadFile: $<HTMLInputElement>("load-file"),
  loadPosition: $<HTMLButtonElement>("load-position"),
  loadRecord: $<HTMLButtonElement>("load-record"),
  review: $<HTMLButtonElement>("review"),
  chart: $<HTMLDivElement>("chart"),
  summary: $<HTMLDivElement>("summary"),
  token: $<HTMLInputElement>("token"),
};

let engine: Engine = connect(location.origin, sessionStorage.getItem("caber-token") ?? undefined);
let games: GameInfo[] = [];
let game: GameInfo | undefined;
/** Whether the game hides information (the service answers View for it). */
let hidden = false;
let variant = "";
let line: Ply[] = [];
let cursor = 0;
/** The record the line was loaded from, for Review. */
let record = "";
let reviewed: MoveReview[] = [];
/** The review's least loss judged an inaccuracy (sent with every update). */
let inaccuracy = 0;
/** The legal moves of what is shown, and the names picked so far. */
let candidates: Candidate[] = [];
let picked: string[] = [];
/** Bumped by every redraw: answers for an older one are dropped. */
let shown = 0;
/** Whose turn it is in the position shown, by name. */
let moverName = "";
/** The side to move of the shown position. */
let mover: Side = Side.UNSPECIFIED;
let analysis: AbortController | undefined;
let reviewing: AbortController | undefined;

const SVG_NS = "http://www.w3.org/2000/svg";

function position(text: string) {
  return { game: game?.name ?? "", variant, state: { case: "text" as const, value: text } };
}

/** What the service said, for the person at the board. */
function explain(error: unknown): string {
  return ConnectError.from(error).rawMessage;
}

function notice(text: string, kind: "info" | "refused" | "error" = "info") {
  ui.notice.textContent = text;
  ui.notice.dataset.kind = kind;
}

/** Runs an action of the page; the service's refusal is shown, never thrown. */
function act(action: () => Promise<void>): () => void {
  return () => {
    action().catch((error: unknown) => notice(explain(error), "error"));
  };
}

// ---- games and new games ----

async function loadGames() {
  games = (await engine.listGames({})).games;
  ui.game.replaceChildren(...games.map((g) => new Option(g.name, g.name)));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.name === wanted)) ui.game.value = wanted;
  await chooseGame();
}

async function chooseGame() {
  game = games.find((g) => g.name === ui.game.value);
  if (!game) return;
  ui.variant.replaceChildren(...game.variants.map((v) => new Option(v.name, v.name, v.isDefault, v.isDefault)));
  ui.seed.disabled = !game.chance;
  hidden = game.hiddenInformation;
  ui.seat.replaceChildren(
    new Option(`${game.players[0]}'s view`, String(Side.ONE)),
    new Option(`${game.players[1]}'s view`, String(Side.TWO)),
    new Option("both hands (referee)", String(Side.UNSPECIFIED)),
  );
  ui.seatLabel.hidden = !hidden;
  await newGame();
}

async function newGame() {
  if (!game) return;
  variant = ui.variant.value;
  const seed = BigInt(ui.seed.value || "0");
  const start = await engine.newGame({ game: game.name, variant, seed });
  record = "";
  setLine([{ text: start.position?.text ?? "", move: "", toMove: start.position?.sideToMove ?? Side.UNSPECIFIED }], 0);
}

function setLine(plies: Ply[], at: number) {
  line = plies;
  reviewed = [];
  ui.chart.replaceChildren();
  ui.summary.replaceChildren();
  ui.review.disabled = record === "";
  goTo(at);
}

// ---- the board ----

function goTo(at: number) {
  cursor = Math.max(0, Math.min(at, line.length - 1));
  stopAnalysis();
  ui.lines.replaceChildren();
  ui.linesNote.hidden = true;
  ui.winText.textContent = ui.searchInfo.textContent = "";
  ui.winFill.style.width = "50%";
  picked = [];
  void redraw();
}

async function redraw() {
  const mine = ++shown;
  const ply = line[cursor];
  const full = position(ply.text);
  const seat = Number(ui.seat.value) as Side;
  try {
    const legal = await engine.legalMoves({ position: full, includePosition: true });
    let drawn = full;
    if (hidden && seat !== Side.UNSPECIFIED) {
      const view = await engine.view({ position: full, player: seat });
      drawn = position(view.position?.text ?? "");
    }
    const { svg } = await engine.render({ position: drawn, lastMove: ply.move });
    if (mine !== shown) return;
    const report = legal.position;
    mover = report?.sideToMove ?? Side.UNSPECIFIED;
    moverName = report?.sideToMoveName ?? "";
    const yours = !hidden || seat === Side.UNSPECIFIED || seat === mover;
    ui.board.innerHTML = svg;
    const names = [...ui.board.querySelectorAll("[data-name]")].map((e) => e.getAttribute("data-name") ?? "");
    const moves = yours ? legal.moves.map((m) => m.text) : [];
    candidates = moves.map((text) => ({ text, parts: parts(text, names) }));
    ui.legal.replaceChildren(...moves.map((m) => new Option(m)));
    const outcome = report?.outcome;
    let status = outcome
      ? `Game over: ${outcome.winnerName ? `${outcome.winnerName} wins` : "draw"} (${outcome.reason})`
      : `${report?.sideToMoveName ?? ""} to move`;
    if (!outcome && !yours) status += ` — not your turn: press "Engine move"`;
    ui.status.textContent = status;
    ui.board.dataset.ready = String(cursor);
    ui.board.dataset.moves = String(moves.length);
    mark();
    drawMoveList();
    drawChart();
  } catch (error) {
    if (mine === shown) notice(explain(error), "error");
  }
}

/** Marks what may be picked next, what is picked, and offers the moves
 * complete with the picks when more than one is. */
function mark() {
  const next = nextNames(candidates, picked);
  for (const element of ui.board.querySelectorAll("[data-name]")) {
    const name = element.getAttribute("data-name") ?? "";
    element.classList.toggle("next", next.has(name));
    element.classList.toggle("picked", picked.includes(name));
  }
  const complete = picked.length ? matching(candidates, picked).filter((m) => m.parts.length === picked.length) : [];
  ui.choices.replaceChildren(
    ...complete.map((m) => {
      const button = document.createElement("button");
      button.textContent = m.text;
      button.className = "choice";
      button.onclick = act(() => play(m.text));
      return button;
    }),
  );
}

/** The named element under a pointer (a piece drawn over a cell included). */
function nameAt(event: PointerEvent): string | undefined {
  for (const element of document.elementsFromPoint(event.clientX, event.clientY)) {
    // A group (a card, a stone) is named, its shapes are what is hit.
    const named = element.closest("[data-name]");
    if (named && ui.board.contains(named)) return named.getAttribute("data-name") ?? undefined;
  }
  return undefined;
}

async function pick(name: string) {
  const next = nextNames(candidates, picked);
  if (next.has(name)) {
    picked = [...picked, name];
  } else if (nextNames(candidates, []).has(name)) {
    picked = [name];
  } else {
    const from = picked.length ? ` after ${picked.join(" ")}` : "";
    picked = [];
    mark();
    notice(`No legal move with ${name}${from}`, "refused");
    return;
  }
  notice("");
  const open = matching(candidates, picked);
  const complete = open.filter((m) => m.parts.length === picked.length);
  if (open.length === 1 && complete.length === 1) {
    await play(complete[0].text);
  } else {
    mark();
  }
}

let dragFrom: string | undefined;
ui.board.addEventListener("pointerdown", (event) => {
  const name = nameAt(event);
  dragFrom = name;
  if (name) act(() => pick(name))();
});
ui.board.addEventListener("pointerup", (event) => {
  const name = nameAt(event);
  if (name && dragFrom && name !== dragFrom && nextNames(candidates, picked).has(name)) {
    act(() => pick(name))();
  }
  dragFrom = undefined;
});

/** Plays `move` on the current position: the line after it is replaced.
 * What the move tells one player alone (the card it drew) is said only
 * when that player's view, or both hands, are shown. */
async function play(move: string) {
  const applied = await engine.apply({ position: position(line[cursor].text), move: { kind: { case: "text", value: move } } });
  const seat = Number(ui.seat.value) as Side;
  const told = applied.privateEvents.filter((p) => seat === Side.UNSPECIFIED || p.player === seat);
  const events = [...applied.events, ...told.map((p) => p.event)].map((e) => e?.text).join("; ");
  notice(events ? `${applied.move?.text}: ${events}` : "");
  record = "";
  ui.review.disabled = true;
  const after = applied.position;
  const ply = { text: after?.text ?? "", move: applied.move?.text ?? move, toMove: after?.sideToMove ?? Side.UNSPECIFIED };
  line = [...line.slice(0, cursor + 1), ply];
  goTo(cursor + 1);
}

ui.moveForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const move = ui.moveInput.value.trim();
  if (!move) return;
  engine
    .apply({ position: position(line[cursor].text), move: { kind: { case: "text", value: move } } })
    .then(() => play(move))
    .then(() => {
      ui.moveInput.value = "";
    })
    .catch((error: unknown) => notice(`${move} refused: ${explain(error)}`, "refused"));
});

// ---- the move list ----

const GLYPH: Partial<Record<Judgement, string>> = {
  [Judgement.INACCURACY]: "?!",
  [Judgement.MISTAKE]: "?",
  [Judgement.BLUNDER]: "??",
};

/** The moves in numbered rows, a turn of the side that moves first in the
 * variant then the other side's; a side's moves in a row (Schotten Totten's
 * Recruiter and the return of its cards) share its cell. The current move
 * is scrolled into view within the list. */
function drawMoveList() {
  const first = game?.variants.find((v) => v.name === variant)?.movesFirst ?? Side.ONE;
  const rows: HTMLLIElement[] = [];
  let cells: HTMLSpanElement[] = [];
  // The column of the last move placed; a move left of it starts a row.
  let column = 2;
  line.slice(1).forEach((ply, i) => {
    const side = line[i].toMove === first ? 0 : 1;
    if (side < column) {
      const row = document.createElement("li");
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${rows.length + 1}.`;
      cells = [0, 1].map(() => document.createElement("span"));
      for (const cell of cells) cell.className = "turn";
      row.append(number, ...cells);
      rows.push(row);
    }
    column = side;
    const item = document.createElement("span");
    const glyph = reviewed[i] ? (GLYPH[reviewed[i].judgement] ?? "") : "";
    item.textContent = ply.move + glyph;
    item.className = i + 1 === cursor ? "move current" : "move";
    if (i + 1 === cursor) item.setAttribute("aria-current", "step");
    item.onclick = () => goTo(i + 1);
    cells[side].append(item);
  });
  // A line that starts with the other side's move leaves a first cell empty.
  if (rows.length && !rows[0].children[1].hasChildNodes()) rows[0].children[1].textContent = "…";
  ui.moveList.replaceChildren(...rows);
  scrollToCurrent();
  ui.first.disabled = ui.back.disabled = cursor === 0;
  ui.forward.disabled = ui.last.disabled = cursor === line.length - 1;
}

/** Scrolls the move list (only it, not the page) to show the current move. */
function scrollToCurrent() {
  const list = ui.moveList;
  const current = list.querySelector<HTMLElement>(".current");
  if (!current) {
    list.scrollTop = 0;
    return;
  }
  // Boxes, not offsets: offsets are rounded, and a move half a pixel out shows cut.
  const shown = list.getBoundingClientRect();
  const box = current.getBoundingClientRect();
  if (box.top < shown.top) list.scrollTop -= Math.ceil(shown.top - box.top);
  else if (box.bottom > shown.bottom) list.scrollTop += Math.ceil(box.bottom - shown.bottom);
}

ui.first.onclick = () => goTo(0);
ui.back.onclick = () => goTo(cursor - 1);
ui.forward.onclick = () => goTo(cursor + 1);
ui.last.onclick = () => goTo(line.length - 1);
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
  if (event.key === "ArrowLeft") goTo(cursor - 1);
  if (event.key === "ArrowRight") goTo(cursor + 1);
});

// ---- analysis ----

/** The position the engine searches: a hidden-information game's mover's view. */
async function searched(): Promise<ReturnType<typeof position>> {
  const full = position(line[cursor].text);
  if (!hidden) return full;
  const view = await engine.view({ position: full });
  return position(view.position?.text ?? "");
}

/** The game's White (GameInfo.white): the side whose view the board's
 * scores and its review chart show, as records and `caber review` do. */
function white(): Side {
  return game?.white || Side.ONE;
}

/** White's name in the game ("white", "first", "red"). */
function whiteName(): string {
  return game?.players[white() === Side.TWO ? 1 : 0] ?? "white";
}

/** A score (the side to move's, as the API gives it) from White's view,
 * for people: `2.40`, `#3` (a forced win in 3 of the winner's moves, negative
 * when White loses), `draw`. */
function scoreText(score: Score | undefined): string {
  const sign = mover === white() ? 1 : -1;
  switch (score?.value.case) {
    case "centi":
      return ((sign * score.value.value) / 100).toFixed(2);
    case "matePlies": {
      const plies = score.value.value;
      return `#${sign * Math.sign(plies) * Math.ceil(Math.abs(plies) / 2)}`;
    }
    case "draw":
      return "draw";
    default:
      return "";
  }
}

/** A win probability (the side to move's) as White's. */
function whiteChance(p: number): number {
  return mover === white() ? p : 1 - p;
}

function drawAnalysis(update: AnalysisUpdate) {
  const stats = update.stats;
  const best = update.lines[0];
  if (best?.score) {
    const p = whiteChance(best.score.winProbability);
    ui.winFill.style.width = `${(100 * p).toFixed(1)}%`;
    ui.winText.textContent = `${whiteName()}: ${(100 * p).toFixed(0)}% to win (${scoreText(best.score)})`;
  }
  if (stats) {
    ui.searchInfo.textContent = `depth ${stats.depth}, ${stats.nodes} nodes, ${stats.timeMs} ms${update.final ? " — done" : ""}`;
  }
  ui.lines.replaceChildren(...update.lines.map(lineItem));
  const samples = update.lines.some((pv) => pv.sampled.length > 0);
  ui.linesNote.hidden = !samples;
  if (samples) {
    const mark = document.createElement("span");
    mark.className = "sample";
    mark.textContent = "Cards marked so";
    ui.linesNote.replaceChildren(mark, ` are samples: ${moverName} has not seen them, the search dealt them at random.`);
  }
}

/** An analysis line; the cards it names that the search dealt at random
 * are marked as samples, in text too ("(sample)") for screen readers. */
function lineItem(pv: PvLine): HTMLLIElement {
  const item = document.createElement("li");
  item.append(`${scoreText(pv.score)}  `);
  // Cards are whole words of a move's text: `G5` in `p:G5@3/d:clan`.
  for (const word of pv.moves.join(" ").split(/([^A-Za-z0-9]+)/)) {
    if (!pv.sampled.includes(word)) {
      item.append(word);
      continue;
    }
    const sample = document.createElement("span");
    sample.className = "sample";
    sample.title = "a sample: a card the search dealt at random";
    const note = document.createElement("span");
    note.className = "visually-hidden";
    note.textContent = " (sample)";
    sample.append(word, note);
    item.append(sample);
  }
  item.title = "play this line";
  item.onclick = act(() => playLine(pv.moves));
  return item;
}

async function analyze() {
  stopAnalysis();
  const controller = new AbortController();
  analysis = controller;
  ui.analyze.disabled = true;
  ui.stop.disabled = false;
  ui.lines.dataset.state = "running";
  const movetimeMs = Math.round(1000 * Math.max(0.1, Number(ui.seconds.value) || 5));
  try {
    const request = { position: await searched(), limits: { movetimeMs }, multipv: 3, reportIntervalMs: 200 };
    for await (const update of engine.analyze(request, { signal: controller.signal })) {
      drawAnalysis(update);
      if (update.final) ui.lines.dataset.state = "done";
    }
  } catch (error) {
    if (ConnectError.from(error).code !== Code.Canceled) notice(explain(error), "error");
  } finally {
    if (analysis === controller) {
      analysis = undefined;
      ui.analyze.disabled = false;
      ui.stop.disabled = true;
      if (ui.lines.dataset.state === "running") ui.lines.dataset.state = "stopped";
    }
  }
}

function stopAnalysis() {
  analysis?.abort();
}

/** Plays a line's moves one by one, as far as they are legal here. */
async function playLine(moves: string[]) {
  for (const move of moves) {
    await play(move);
  }
}

ui.analyze.onclick = () => void analyze();
ui.stop.onclick = () => stopAnalysis();
ui.engineMove.onclick = act(async () => {
  const best = await engine.bestMove({ position: await searched(), limits: { movetimeMs: 1000 } });
  if (best.bestMove) await play(best.bestMove.text);
});

// ---- loading and review ----

ui.loadFile.onchange = act(async () => {
  const file = ui.loadFile.files?.[0];
  if (file) ui.loadText.value = await file.text();
});

ui.loadPosition.onclick = act(async () => {
  const text = ui.loadText.value.trim();
  const legal = await engine.legalMoves({ position: position(text), includePosition: true });
  record = "";
  setLine([{ text: legal.position?.text ?? text, move: "", toMove: legal.position?.sideToMove ?? Side.UNSPECIFIED }], 0);
  notice("Position loaded");
});

ui.loadRecord.onclick = act(async () => {
  const text = ui.loadText.value;
  const replay = await engine.replay({ record: text });
  ui.game.value = replay.game;
  game = games.find((g) => g.name === replay.game);
  ui.variant.replaceChildren(...(game?.variants ?? []).map((v) => new Option(v.name, v.name)));
  ui.variant.value = replay.variant;
  variant = replay.variant;
  record = text;
  const start = { text: replay.start?.text ?? "", move: "", toMove: replay.start?.sideToMove ?? Side.UNSPECIFIED };
  const plies = [start, ...replay.moves.map((m) => ({ text: m.text, move: m.move?.text ?? "", toMove: m.sideToMove }))];
  setLine(plies, 0);
  notice(`Record loaded: ${replay.moves.length} moves`);
});

ui.review.onclick = act(async () => {
  reviewing?.abort();
  const controller = new AbortController();
  reviewing = controller;
  reviewed = [];
  ui.summary.textContent = "reviewing…";
  const movetimeMs = Math.round(1000 * Math.max(0.1, Number(ui.seconds.value) || 1) / 5);
  for await (const update of engine.review({ record, limits: { movetimeMs } }, { signal: controller.signal })) {
    inaccuracy = update.inaccuracy;
    if (update.move) {
      reviewed.push(update.move);
      ui.summary.textContent = `reviewing… ${reviewed.length}/${update.moves}`;
      drawChart();
      drawMoveList();
    }
    if (update.final) drawSummary(update.players);
  }
});

function drawSummary(players: PlayerReview[]) {
  ui.summary.replaceChildren(
    ...players.map((p) => {
      const row = document.createElement("div");
      const who = p.player ? `${p.sideName} (${p.player})` : p.sideName;
      row.textContent = `${who}: accuracy ${p.accuracy.toFixed(0)}%, ${p.inaccuracies} inaccuracies, ${p.mistakes} mistakes, ${p.blunders} blunders`;
      return row;
    }),
  );
  ui.chart.dataset.state = "done";
}

/** White's values along the game, as (ply, win probability):
 * its own search of each position it moves in, its best move's value at the
 * same ply, its value after its move; the other side's moves only through
 * its next search or, at the end, the outcome (as the CLI's chart). */
function curve(moves: MoveReview[]): [number, number][] {
  const points: [number, number][] = [];
  const push = (x: number, p: number) => {
    const last = points[points.length - 1];
    if (!last || last[0] !== x || Math.abs(last[1] - p) > 1e-9) points.push([x, p]);
  };
  moves.forEach((m, k) => {
    if (m.mover === white()) {
      if (m.before) push(k, m.before.winProbability);
      push(k, m.winBefore);
      push(k + 1, m.winAfter);
    } else if (k + 1 === moves.length && [0, 0.5, 1].includes(m.winAfter)) {
      push(k + 1, 1 - m.winAfter);
    }
  });
  return points;
}

/** The review's chart: White's win probability as it valued
 * each position (from what it knew), grey dashed where no marked move
 * explains a fall (two of its searches disagreeing, or the other side's move
 * better than it expected), the judged moves marked; a click goes to that
 * move. */
function drawChart() {
  if (reviewed.length === 0) return;
  const width = 300;
  const height = 120;
  const plies = line.length - 1;
  const x = (ply: number) => (width * ply) / Math.max(1, plies);
  const y = (p: number) => height * (1 - Math.min(1, Math.max(0, p)));
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  const add = (name: string, attrs: Record<string, string | number>, tip?: string) => {
    const element = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) element.setAttribute(k, String(v));
    if (tip) {
      const title = document.createElementNS(SVG_NS, "title");
      title.textContent = tip;
      element.append(title);
    }
    svg.append(element);
    return element;
  };
  add("line", { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "even" });
  const points = curve(reviewed);
  add("polyline", { points: points.map(([px, p]) => `${x(px)},${y(p)}`).join(" "), class: "win" });
  for (let i = 1; i < points.length; i++) {
    const [[x0, from], [x1, to]] = [points[i - 1], points[i]];
    const own = x0 === x1;
    const m = reviewed[x0];
    const unexplained = !own && from - to >= inaccuracy && m?.mover !== white() && !GLYPH[m?.judgement ?? Judgement.GOOD];
    if ((own && Math.abs(from - to) > 1e-9) || unexplained) {
      add("line", { x1: x(x0), x2: x(x1), y1: y(from), y2: y(to), class: "noise" },
        `${from.toFixed(2)} → ${to.toFixed(2)}: ${own ? "two searches, not a move" : "the other side's move, better than expected"}`);
    }
  }
  add("line", { x1: x(cursor), x2: x(cursor), y1: 0, y2: height, class: "cursor" });
  for (const r of reviewed) {
    const glyph = GLYPH[r.judgement];
    if (!glyph) continue;
    const at = [...points].reverse().find(([px]) => px === r.ply)?.[1] ?? (r.mover === white() ? r.winAfter : 1 - r.winAfter);
    const noise = r.noise >= 0.005 ? ` ±${r.noise.toFixed(2)}` : "";
    add("circle", { cx: x(r.ply), cy: y(at), r: 3.5, class: `judged j${r.judgement}` },
      `${r.ply}. ${r.played?.text}${glyph} (-${r.loss.toFixed(2)}${noise}, best ${r.best?.text})`);
  }
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    goTo(Math.round(((event.clientX - box.left) / box.width) * plies));
  };
  const caption = document.createElement("div");
  caption.className = "caption";
  caption.textContent = `${whiteName()}'s win probability as it valued each position; grey: noise, not a move`;
  ui.chart.replaceChildren(svg, caption);
  ui.chart.dataset.moves = String(reviewed.length);
}

// ---- start ----

ui.token.value = sessionStorage.getItem("caber-token") ?? "";
ui.token.onchange = act(async () => {
  sessionStorage.setItem("caber-token", ui.token.value);
  engine = connect(location.origin, ui.token.value || undefined);
  await loadGames();
});
ui.game.onchange = act(chooseGame);
ui.variant.onchange = act(newGame);
ui.newGame.onclick = act(newGame);
ui.seat.onchange = () => goTo(cursor);
act(loadGames)();
