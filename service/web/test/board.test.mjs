// The analysis board in a real browser: headless Chromium (the system's,
// driven by puppeteer-core) against a real `caberd --web`. Each game loads
// with no failing call and takes a legal move by clicks; an illegal move is
// refused by click and by text; analysis lines arrive and stop; a record
// loads, steps and is reviewed; moves show in numbered rows of turns, and a
// record of 894 plies stays in its panel; Schotten Totten names a drawn
// card to its owner alone and marks the cards an analysis line samples. Anything the page throws or logs as an error
// fails the test. Screenshots go to target/web-screenshots/.
//
// CABERD (default ../../target/release/caberd) and CHROMIUM (default
// /usr/bin/chromium) say where the binaries are.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import puppeteer from "puppeteer-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const caberdPath = process.env.CABERD ?? path.join(root, "target/release/caberd");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const shots = path.join(root, "target/web-screenshots");

let caberd;
let base;
let browser;

before(async () => {
  caberd = spawn(caberdPath, ["--listen", "127.0.0.1:0", "--web"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, RUST_LOG: "warn" },
  });
  const lines = createInterface({ input: caberd.stdout });
  for await (const line of lines) {
    const m = line.match(/^caberd analysis board on (http:\/\/\S+)\/$/);
    if (m) {
      base = m[1];
      break;
    }
  }
  assert.ok(base, "caberd printed the board's address");
  browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  caberd?.kill("SIGTERM");
});

/** The gRPC status of a finished gRPC-Web response: its header (an answer
 * with no message) or its trailer frame (flag 0x80, after the messages). */
async function grpcStatus(response) {
  const header = response.headers()["grpc-status"];
  if (header !== undefined) return Number(header);
  const body = await response.buffer();
  for (let at = 0; at + 5 <= body.length; at += 5 + body.readUInt32BE(at + 1)) {
    if (body[at] & 0x80) {
      const trailer = body.subarray(at + 5, at + 5 + body.readUInt32BE(at + 1)).toString();
      return Number(trailer.match(/grpc-status:\s*(\d+)/i)?.[1]);
    }
  }
  return undefined;
}

/** A page of the board for `game`, failing the test on any error it shows;
 * `calls` resolve to each unary call's method and gRPC status. */
async function open(game) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const calls = [];
  page.on("response", (r) => {
    const method = r.url().match(/\/caber\.v1\.GameEngine\/(\w+)$/)?.[1];
    // Streams (Analyze, Review) may be cancelled by the page.
    if (method && method !== "Analyze" && method !== "Review") {
      // A page closed before the body was read leaves the status unknown
      // (undefined), which a test that awaits its calls reports as failing.
      const status = grpcStatus(r).catch(() => undefined);
      calls.push(status.then((status) => ({ method, status })));
    }
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(`thrown: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("requestfailed", (r) => {
    // An analysis stopped by the page is a request it cancelled itself.
    if (!r.url().endsWith("/Analyze")) errors.push(`request failed: ${r.url()}`);
  });
  await page.goto(`${base}/?game=${game}`, { waitUntil: "load" });
  await ready(page, 0);
  return { page, errors, calls };
}

/** Waits until the board shows ply `ply` of the line. */
async function ready(page, ply) {
  try {
    await page.waitForFunction((p) => document.querySelector("#board")?.dataset.ready === String(p), {}, ply);
  } catch (error) {
    const shown = await page.$eval("body", (b) => `${b.querySelector("#status").textContent} | ${b.querySelector("#notice").textContent}`);
    throw new Error(`ply ${ply} never shown (${shown}): ${error.message}`);
  }
}

const moveCount = (page) => page.$$eval("#move-list .move", (items) => items.length);
const moveTexts = (page) => page.$$eval("#move-list .move", (items) => items.map((i) => i.textContent));

/** Plays a legal move as a person would: click what is highlighted until
 * the move is played, choosing the first offered move when several are. */
async function clickLegalMove(page) {
  for (let step = 0; step < 6; step++) {
    if ((await moveCount(page)) === 1) return;
    const choice = await page.$("#choices .choice");
    if (choice) {
      await choice.click();
    } else {
      const next = await page.$("#board [data-name].next");
      assert.ok(next, "something to click is highlighted");
      await next.click();
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The games the page offers: the service's ListGames, whatever they are. */
async function listedGames() {
  const { page, errors } = await open("tablut");
  const games = await page.$$eval("#game option", (o) => o.map((g) => g.value));
  assert.deepEqual(errors, []);
  await page.close();
  assert.ok(games.length >= 4 && games.includes("tablut"), `games offered: ${games}`);
  return games;
}

test("every game loads with no failing call and takes a legal move by clicks", async () => {
  for (const game of await listedGames()) {
    const { page, errors, calls } = await open(game);
    const loaded = await Promise.all(calls);
    assert.deepEqual(loaded.filter((c) => c.status !== 0), [], `${game}: calls that failed on load`);
    const methods = new Set(loaded.map((c) => c.method));
    for (const m of ["ListGames", "NewGame", "LegalMoves", "Render"]) assert.ok(methods.has(m), `${game}: ${m} called`);
    assert.equal(await page.$eval("#game", (s) => s.value), game);
    const moves = Number(await page.$eval("#board", (b) => b.dataset.moves));
    assert.ok(moves > 0, `${game}: legal moves shown`);
    assert.ok((await page.$$("#board [data-name].next")).length > 0, `${game}: moves highlighted`);
    await page.screenshot({ path: path.join(shots, `${game}.png`) });
    await clickLegalMove(page);
    await ready(page, 1);
    assert.equal(await moveCount(page), 1, `${game}: one move played`);
    await page.screenshot({ path: path.join(shots, `${game}-after-a-move.png`) });
    assert.deepEqual(errors, [], game);
    await page.close();
  }
});

test("every variant of every game loads", async () => {
  for (const game of await listedGames()) {
    const { page, errors } = await open(game);
    const variants = await page.$$eval("#variant option", (o) => o.map((v) => v.value));
    assert.ok(variants.length > 0, game);
    let shown = 0;
    for (const variant of variants) {
      await page.select("#variant", variant);
      // A new game of the variant is its line's start again.
      await page.waitForFunction(
        (v) => document.querySelector("#board svg title")?.textContent.includes(`(${v})`),
        {},
        variant,
      );
      assert.ok(Number(await page.$eval("#board", (b) => b.dataset.moves)) > 0, `${game} ${variant}`);
      shown++;
    }
    assert.equal(shown, variants.length);
    assert.deepEqual(errors, [], game);
    await page.close();
  }
});

test("a piece dragged to a cell moves there", async () => {
  const { page, errors } = await open("tablut");
  const centre = async (name) => {
    const box = await (await page.$(`#board [data-name="${name}"]`)).boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const [fx, fy] = await centre("d1");
  const [tx, ty] = await centre("d3");
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  await page.mouse.move(tx, ty, { steps: 5 });
  await page.mouse.up();
  await ready(page, 1);
  assert.deepEqual(await moveTexts(page), ["d1-d3"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a pasted position loads, and a bad one is refused with the service's reason", async () => {
  const { page, errors } = await open("tablut");
  const text = "4bb3/2wbb4/b6w1/4w3b/bb1wkwwbb/b3w3b/4w4/4b4/3bbb3 w -";
  await page.$eval("#load-text", (t, v) => {
    t.value = v;
  }, text);
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "white to move");
  assert.equal(await page.$eval("#board", (b) => b.dataset.ready), "0");
  await page.$eval("#load-text", (t) => {
    t.value = "4bb3/2wbb4 w -";
  });
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelector("#notice")?.dataset.kind === "error");
  assert.match(await page.$eval("#notice", (n) => n.textContent), /position/);
  assert.equal(await page.$eval("#status", (s) => s.textContent), "white to move", "nothing changed");
  // White moves second in bga: its move opens the first row after a gap.
  await page.type("#move-input", "c2-c3");
  await page.click("#move-form button");
  await ready(page, 1);
  const rows = await page.$$eval("#move-list li", (l) => l.map((r) => [...r.children].map((c) => c.textContent)));
  assert.deepEqual(rows, [["1.", "…", "c2-c3"]]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a hidden-information game shows one player's hand", async () => {
  const { page, errors } = await open("schotten-totten");
  assert.equal(await page.$eval("#seat-label", (l) => l.hidden), false);
  const faceDown = await page.$$eval("#board .card.hand.second.back", (c) => c.length);
  const mine = await page.$$eval("#board .card.hand.first:not(.back)", (c) => c.length);
  assert.deepEqual([faceDown, mine], [6, 6], "first's six cards shown, second's six face down");
  assert.deepEqual(errors, []);
  await page.close();
});

test("an illegal move is refused, by click and by text, and nothing changes", async () => {
  const { page, errors } = await open("tablut");
  // Black moves first in bga: a white soldier's cell starts no move.
  await page.click('#board [data-name="e3"]');
  await page.waitForFunction(() => document.querySelector("#notice")?.dataset.kind === "refused");
  assert.match(await page.$eval("#notice", (n) => n.textContent), /No legal move with e3/);
  await page.type("#move-input", "e3-e1");
  await page.click("#move-form button");
  await page.waitForFunction(() => /e3-e1 refused/.test(document.querySelector("#notice")?.textContent ?? ""));
  assert.equal(await moveCount(page), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("analysis lines stream in, can be stopped and played out", async () => {
  const { page, errors } = await open("tablut");
  await page.$eval("#seconds", (s) => {
    s.value = "30";
  });
  await page.click("#analyze");
  await page.waitForFunction(() => document.querySelectorAll("#lines li").length >= 2, { timeout: 15000 });
  // White's view whoever is to move (black, in bga's start), as Lichess shows.
  assert.match(await page.$eval("#win-text", (t) => t.textContent), /^white: \d+% to win \(-?\d+\.\d\d\)$/);
  await page.click("#stop");
  await page.waitForFunction(() => document.querySelector("#lines")?.dataset.state === "stopped");
  assert.equal(await page.$eval("#analyze", (b) => b.disabled), false);
  const pv = await page.$eval("#lines li", (li) => li.textContent.trim().split(/\s+/).slice(1));
  await page.click("#lines li");
  await ready(page, pv.length);
  assert.deepEqual(await moveTexts(page), pv);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a record loads, steps through and is reviewed with its chart", async () => {
  const { page, errors } = await open("tablut");
  const record = '[Game "tablut"]\n[Variant "bga"]\n\n1. d1-d2\n2. e3-h3\n3. a4-a3\n4. c5-c2\n';
  await page.$eval("#load-text", (t, r) => {
    t.value = r;
  }, record);
  await page.click("#load-record");
  await page.waitForFunction(() => document.querySelectorAll("#move-list .move").length === 4);
  // Numbered pairs: black's move, then white's.
  const rows = await page.$$eval("#move-list li", (l) => l.map((r) => [...r.children].map((c) => c.textContent)));
  assert.deepEqual(rows, [["1.", "d1-d2", "e3-h3"], ["2.", "a4-a3", "c5-c2"]]);
  await ready(page, 0);
  await page.click("#forward");
  await ready(page, 1);
  await page.click("#last");
  await ready(page, 4);
  await page.click("#back");
  await ready(page, 3);
  await page.$eval("#seconds", (s) => {
    s.value = "1";
  });
  await page.click("#review");
  await page.waitForFunction(() => document.querySelector("#chart")?.dataset.state === "done", { timeout: 30000 });
  assert.equal(await page.$eval("#chart", (c) => c.dataset.moves), "4");
  // White's chance, as `caber review --chart` plots it, though black moves first.
  assert.match(await page.$eval("#chart .caption", (c) => c.textContent), /^white's win probability /);
  assert.match(await page.$eval("#summary", (s) => s.textContent), /black: accuracy \d+%/);
  await page.screenshot({ path: path.join(shots, "tablut-review.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

/** How many pixels of each rectangle of a PNG are not `colour` (RGB), and
 * the first such colour; decoded by a blank page's canvas. */
async function pixelsNot(png, colour, rects) {
  const blank = await browser.newPage();
  try {
    return await blank.evaluate(
      async (data, colour, rects) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext("2d");
        context.drawImage(image, 0, 0);
        return rects.map(({ x, y, width, height }) => {
          const d = context.getImageData(x, y, width, height).data;
          let count = 0;
          let first;
          for (let i = 0; i < d.length; i += 4) {
            if (d[i] !== colour[0] || d[i + 1] !== colour[1] || d[i + 2] !== colour[2]) {
              count++;
              first ??= [d[i], d[i + 1], d[i + 2]];
            }
          }
          return { count, first, pixels: d.length / 4 };
        });
      },
      png.toString("base64"),
      colour,
      rects,
    );
  } finally {
    await blank.close();
  }
}

test("a side's moves in a row share its cell: Schotten Totten's Recruiter and its return", async () => {
  const { page, errors } = await open("schotten-totten");
  const moves = ["p:G7@1/d:clan", "p:G3@4/d:tactic", "p:B1@8/d:clan", "p:R2@2/d:tactic", "p:B4@6/d:clan", "p:RECRUITER:0+3", "r:B8,R4", "p:G4@1/d:clan", "p:P8@1/d:clan"];
  const record = `[Game "schotten-totten"]\n[Variant "tactics"]\n[Seed "2"]\n\n${moves.map((m, i) => `${i + 1}. ${m}\n`).join("")}`;
  await page.$eval("#load-text", (t, r) => {
    t.value = r;
  }, record);
  await page.click("#load-record");
  await page.waitForFunction((n) => document.querySelectorAll("#move-list .move").length === n, {}, moves.length);
  const rows = await page.$$eval("#move-list li", (l) =>
    l.map((r) => [r.querySelector(".number").textContent, ...[...r.querySelectorAll(".turn")].map((c) => [...c.querySelectorAll(".move")].map((m) => m.textContent))]),
  );
  assert.deepEqual(rows, [
    ["1.", [moves[0]], [moves[1]]],
    ["2.", [moves[2]], [moves[3]]],
    ["3.", [moves[4]], [moves[5], moves[6]]],
    ["4.", [moves[7]], [moves[8]]],
  ]);
  assert.deepEqual(errors, []);
  await page.close();
});

// tablut-894-plies.record: a Tablut (bga) game of 894 moves, each picked
// at random (seed 894) among the legal moves (`caber legal`) that do not
// end the game (`caber apply`).
test("a record of 894 plies stays inside its panel, in numbered pairs, the current move in view", async () => {
  const { page, errors } = await open("tablut");
  const record = readFileSync(path.join(here, "tablut-894-plies.record"), "utf8");
  const moves = record.split("\n").filter((l) => /^\d+\. /.test(l)).map((l) => l.split(" ")[1]);
  assert.equal(moves.length, 894);
  await page.$eval("#load-text", (t, r) => {
    t.value = r;
  }, record);
  await page.click("#load-record");
  await page.waitForFunction(() => document.querySelectorAll("#move-list .move").length === 894, { timeout: 20000 });
  const rows = await page.$$eval("#move-list li", (l) => l.map((r) => [...r.children].map((c) => c.textContent)));
  assert.equal(rows.length, 447);
  assert.deepEqual(rows[0], ["1.", moves[0], moves[1]]);
  assert.deepEqual(rows[446], ["447.", moves[892], moves[893]]);
  await page.click("#last");
  await ready(page, 894);
  const shown = await page.evaluate(() => {
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const list = document.querySelector("#move-list");
    const panel = list.closest("section");
    const current = list.querySelector(".current");
    const inList = (m) => {
      const r = m.getBoundingClientRect();
      const l = list.getBoundingClientRect();
      return r.left >= l.left && r.right <= l.right;
    };
    return {
      panel: box(panel),
      above: box(panel.previousElementSibling),
      below: box(panel.nextElementSibling),
      list: box(list),
      current: box(current),
      currentText: current.textContent,
      scrolls: list.scrollHeight > list.clientHeight && list.scrollTop > 0,
      wider: [...list.querySelectorAll(".move")].filter((m) => !inList(m)).length,
      pageWidth: document.documentElement.clientWidth,
      pageHeight: document.documentElement.clientHeight,
    };
  });
  const inside = (inner, outer) =>
    inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom;
  assert.ok(inside(shown.list, shown.panel), `the list ${JSON.stringify(shown.list)} in its panel ${JSON.stringify(shown.panel)}`);
  assert.ok(inside(shown.current, shown.list), `the current move ${JSON.stringify(shown.current)} in view ${JSON.stringify(shown.list)}`);
  assert.equal(shown.currentText, moves[893]);
  assert.ok(shown.scrolls, "the list scrolls within the panel, scrolled down");
  assert.equal(shown.wider, 0, "no move is wider than the list");
  assert.ok(shown.below.top < shown.pageHeight, "the gap below the panel is on the page");
  // What the screen shows: nothing of the list right of the panel, in the
  // gaps above and below it (the page's background), and the current move
  // painted in its highlight.
  const png = await page.screenshot({ path: path.join(shots, "tablut-894-plies.png") });
  const { panel, above, below, current } = shown;
  const rect = (left, top, right, bottom) => ({
    x: Math.ceil(left) + 1,
    y: Math.ceil(top) + 1,
    width: Math.floor(right) - Math.ceil(left) - 2,
    height: Math.floor(bottom) - Math.ceil(top) - 2,
  });
  const [right, gapAbove, gapBelow] = await pixelsNot(png, [0xf4, 0xf1, 0xea], [
    rect(panel.right, panel.top, shown.pageWidth, panel.bottom),
    rect(panel.left, above.bottom, panel.right, panel.top),
    rect(panel.left, panel.bottom, panel.right, below.top),
  ]);
  for (const [where, r] of Object.entries({ right, gapAbove, gapBelow })) {
    assert.ok(r.pixels > 0 && r.count === 0, `${where} of the panel: ${r.count} of ${r.pixels} pixels not background (${r.first})`);
  }
  const [highlight] = await pixelsNot(png, [0xff, 0xe0, 0x82], [rect(current.left, current.top, current.right, current.bottom)]);
  assert.ok(highlight.count < highlight.pixels / 2, `the current move highlighted: ${JSON.stringify(highlight)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Schotten Totten names a drawn card to its owner alone", async () => {
  const { page, errors } = await open("schotten-totten");
  const hand = () => page.$$eval("#board .card.hand.first:not(.back)", (c) => c.map((e) => e.dataset.name));
  const before = await hand();
  await clickLegalMove(page);
  await ready(page, 1);
  const notice = await page.$eval("#notice", (n) => n.textContent);
  const drawn = notice.match(/first draws from the clan deck; first draws ([A-Z0-9]+)$/)?.[1];
  assert.ok(drawn, notice);
  const after = await hand();
  assert.ok(after.includes(drawn) && !before.includes(drawn), `${drawn}: ${before} -> ${after}`);
  // Second's move, played by the engine: its card is not named to first.
  await page.click("#engine-move");
  await ready(page, 2);
  const theirs = await page.$eval("#notice", (n) => n.textContent);
  assert.match(theirs, /second draws from the clan deck$/);
  assert.doesNotMatch(theirs, /second draws [A-Z0-9]/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the cards a Schotten Totten analysis line samples are marked as samples", async () => {
  const { page, errors } = await open("schotten-totten");
  const hand = await page.$$eval("#board .card.hand.first:not(.back)", (c) => c.map((e) => e.dataset.name));
  await page.$eval("#seconds", (s) => {
    s.value = "2";
  });
  await page.click("#analyze");
  await page.waitForFunction(() => document.querySelector("#lines")?.dataset.state === "done", { timeout: 15000 });
  const samples = await page.$$eval("#lines .sample", (marks) =>
    marks.map((m) => {
      const style = getComputedStyle(m);
      return { text: m.firstChild.textContent, said: m.textContent, dotted: style.textDecorationStyle, italic: style.fontStyle };
    }),
  );
  assert.ok(samples.length > 0, "the lines name cards first has not seen");
  for (const s of samples) {
    assert.ok(!hand.includes(s.text), `${s.text} is in first's hand ${hand}`);
    assert.deepEqual(s, { text: s.text, said: `${s.text} (sample)`, dotted: "dotted", italic: "italic" });
  }
  assert.match(await page.$eval("#lines-note", (n) => (n.hidden ? "" : n.textContent)), /are samples: first has not seen them/);
  await page.screenshot({ path: path.join(shots, "schotten-totten-analysis.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the browser client docs/SERVICE.md shows is the page's", () => {
  const docs = readFileSync(path.join(root, "docs/SERVICE.md"), "utf8");
  const shown = docs.match(/```ts\n([\s\S]*?)```/)?.[1];
  assert.equal(shown, readFileSync(path.join(here, "../src/client.ts"), "utf8"));
});
