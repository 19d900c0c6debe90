// The analysis board in a real browser: headless Chromium (the system's,
// driven by puppeteer-core) against a real `caberd --web`. Each game loads
// and takes a legal move by clicks; an illegal move is refused by click and
// by text; analysis lines arrive and stop; a record loads, steps and is
// reviewed. Anything the page throws or logs as an error fails the test.
// Screenshots of every game's board go to target/web-screenshots/.
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

/** A page of the board for `game`, failing the test on any error it shows. */
async function open(game) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
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
  return { page, errors };
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

const moveCount = (page) => page.$$eval("#move-list li", (items) => items.length);

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

test("every game loads and takes a legal move by clicks", async () => {
  for (const game of await listedGames()) {
    const { page, errors } = await open(game);
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
  assert.deepEqual(await page.$$eval("#move-list li", (l) => l.map((i) => i.textContent)), ["d1-d3"]);
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
  assert.match(await page.$eval("#win-text", (t) => t.textContent), /black: \d+% to win/);
  await page.click("#stop");
  await page.waitForFunction(() => document.querySelector("#lines")?.dataset.state === "stopped");
  assert.equal(await page.$eval("#analyze", (b) => b.disabled), false);
  const pv = await page.$eval("#lines li", (li) => li.textContent.trim().split(/\s+/).slice(1));
  await page.click("#lines li");
  await ready(page, pv.length);
  assert.deepEqual(await page.$$eval("#move-list li", (l) => l.map((i) => i.textContent)), pv);
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
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 4);
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
  assert.match(await page.$eval("#summary", (s) => s.textContent), /black: accuracy \d+%/);
  await page.screenshot({ path: path.join(shots, "tablut-review.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the browser client docs/SERVICE.md shows is the page's", () => {
  const docs = readFileSync(path.join(root, "docs/SERVICE.md"), "utf8");
  const shown = docs.match(/```ts\n([\s\S]*?)```/)?.[1];
  assert.equal(shown, readFileSync(path.join(here, "../src/client.ts"), "utf8"));
});
