// The stones a board tablet draws while offline (web/board-go.js): captures
// by hand, then every self-play game of fixtures/go/gnugo-selfplay replayed
// move by move, each position's captures and the final board equal to GNU
// Go's (the same oracle kifu-go is checked against).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, dirname } from "node:path";
import { place } from "../board-go.js";

test("a single stone in atari is taken, and only it", () => {
  const rows = [".X...", "XO...", ".X...", ".....", "....."];
  const { rows: after, taken } = place(rows, { x: 2, y: 1 }, "black");
  assert.equal(taken, 1);
  assert.deepEqual(after, [".X...", "X.X..", ".X...", ".....", "....."]);
});

test("a group is taken whole; a group with a liberty left is not", () => {
  // White's two stones in the corner have one liberty: Black's play there
  // takes both; a play elsewhere takes none.
  const corner = ["OO...", "XX...", ".....", ".....", "....."];
  assert.equal(place(corner, { x: 2, y: 0 }, "black").taken, 2);
  assert.equal(place(corner, { x: 3, y: 3 }, "black").taken, 0);
});

test("a play without liberty that takes nothing is drawn as placed (the server judges it)", () => {
  const rows = [".X...", "X....", ".....", ".....", "....."];
  const { rows: after, taken } = place(rows, { x: 0, y: 0 }, "white");
  assert.equal(taken, 0);
  assert.equal(after[0][0], "O");
});

test("a point off the board changes nothing", () => {
  const rows = [".....", ".....", ".....", ".....", "....."];
  assert.deepEqual(place(rows, { x: 7, y: 1 }, "black"), { rows, taken: 0 });
});

const here = dirname(fileURLToPath(import.meta.url));
const games = join(here, "..", "..", "..", "..", "fixtures", "go", "gnugo-selfplay");

test("every self-play game replayed ends on GNU Go's board with its captures", () => {
  const names = readdirSync(games).filter((n) => n.endsWith(".json") && n !== "INDEX.json");
  assert.ok(names.length >= 20, `${names.length} games`);
  let moves = 0;
  for (const name of names) {
    const g = JSON.parse(readFileSync(join(games, name), "utf8"));
    const n = g.board_size;
    const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    const at = (v) => ({ x: letters.indexOf(v[0]), y: n - Number(v.slice(1)) });
    let rows = Array.from({ length: n }, () => ".".repeat(n));
    for (const v of g.handicap_stones || []) rows = place(rows, at(v), "black").rows;
    for (const v of g.setup_white || []) rows = place(rows, at(v), "white").rows;
    const caps = { B: 0, W: 0 };
    g.moves.forEach(([colour, v], i) => {
      if (v.toLowerCase() !== "pass") {
        const r = place(rows, at(v), colour === "B" ? "black" : "white");
        rows = r.rows;
        caps[colour] += r.taken;
        moves++;
      }
      assert.deepEqual([caps.B, caps.W], g.captures_after_move[i], `${name}, ply ${i + 1} (${colour} ${v})`);
    });
    assert.deepEqual(rows, g.final_board, name);
  }
  assert.ok(moves > 1000, `${moves} moves`);
});
