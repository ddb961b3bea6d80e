// The board device's clocks (web/board-clock.js): faces counted from the
// projection, and presses applied on the device while it is offline.

import { test } from "node:test";
import assert from "node:assert/strict";
import { clockFrom, face, shows, press, standing, totalMs } from "../board-clock.js";

const fischer = { fischer: { main_ms: 600000, increment_ms: 10000, max_ms: 620000 } };

test("faces round up to the second, with hours when there are any", () => {
  assert.equal(face(0), "0:00");
  assert.equal(face(1), "0:01");
  assert.equal(face(59000), "0:59");
  assert.equal(face(3723000), "1:02:03");
  assert.equal(face(-5), "0:00");
});

test("the running player's turn began at his flag instant less all his time", () => {
  const st = {
    state: {
      genesis: { time_control: fischer },
      clock: {
        black: { main_ms: 590000, overtime: "none", used_ms: 0 },
        white: { main_ms: 600000, overtime: "none", used_ms: 0 },
        running: "white", flag_at_ms: 1_000_000, paused: null, remaining_ms: [590000, 599000],
      },
    },
  };
  const k = clockFrom(st);
  assert.equal(k.turnStart, 400_000);
  assert.equal(k.running, "white");
  assert.equal(clockFrom({ state: { clock: { black: null } } }), null);
});

test("main time, then byo-yomi periods, then the flag", () => {
  const pc = { main_ms: 65000, overtime: { byo_yomi: { periods_left: 5, period_ms: 30000 } } };
  assert.equal(totalMs(pc), 65000 + 150000);
  assert.equal(shows(pc, 5000).text, "1:00 + 5 × 0:30");
  assert.equal(shows(pc, 65000 + 1000).text, "0:29 (5 periods)");
  assert.equal(shows(pc, 65000 + 31000).text, "0:29 (4 periods)");
  assert.equal(shows(pc, 65000 + 150000).left, 0);
  const canadian = { main_ms: 0, overtime: { canadian: { moves_left: 10, block_ms_left: 300000 } } };
  assert.equal(shows(canadian, 60000).text, "4:00 for 10 stone(s)");
});

test("a press offline: time used, Fischer's increment up to its cap, the other clock started", () => {
  const k = {
    pcs: { black: { main_ms: 600000, overtime: "none" }, white: { main_ms: 600000, overtime: "none" } },
    running: "black", turnStart: 1000, control: fischer,
  };
  const after = press(k, "black", 21000);
  assert.equal(after.pcs.black.main_ms, 590000);
  assert.equal(after.running, "white");
  assert.equal(after.turnStart, 21000);
  assert.equal(k.pcs.black.main_ms, 600000, "the model given is unchanged");
  const quick = press(after, "white", 22000);
  assert.equal(quick.pcs.white.main_ms, 609000);
  const capped = press({ ...quick, pcs: { ...quick.pcs, black: { main_ms: 615000, overtime: "none" } } }, "black", 22500);
  assert.equal(capped.pcs.black.main_ms, 620000, "Fischer's cap");
  // A press the model did not expect (drawn before the move it completes):
  // it follows the record, starting the other clock, charging nothing.
  const followed = press(after, "black", 30000);
  assert.equal(followed.running, "white");
  assert.equal(followed.turnStart, 30000);
  assert.deepEqual(followed.pcs, after.pcs);
});

test("offline presses on a shared device alternate from a stale model: the other clock each time", () => {
  // The model was drawn while the clocks stood (a pause): no turn start.
  let k = {
    pcs: { black: { main_ms: 600000, overtime: "none" }, white: { main_ms: 600000, overtime: "none" } },
    running: "black", turnStart: null, paused: "to call the referee", control: fischer,
  };
  k = press(k, "black", 1000);
  assert.equal(k.running, "white");
  assert.equal(k.paused, null);
  k = press(k, "white", 5000);
  assert.equal(k.running, "black");
  assert.equal(k.pcs.white.main_ms, 600000 - 4000 + 10000);
});

test("why the clocks stand is said in words, not as a code", () => {
  const st = {
    text: { paused: "to call the referee" },
    state: {
      genesis: { time_control: fischer },
      clock: {
        black: { main_ms: 590000, overtime: "none", used_ms: 0 },
        white: { main_ms: 600000, overtime: "none", used_ms: 0 },
        running: null, flag_at_ms: null, paused: "CALL_REFEREE", remaining_ms: [590000, 599000],
      },
    },
  };
  const k = clockFrom(st);
  assert.equal(k.paused, "to call the referee");
  assert.ok(standing(k));
});

test("a press offline in overtime: byo-yomi periods used up, a Canadian block renewed", () => {
  const byo = { byoyomi: { main_ms: 0, periods: 5, period_ms: 30000 } };
  const k = {
    pcs: { black: { main_ms: 1000, overtime: { byo_yomi: { periods_left: 5, period_ms: 30000 } } }, white: { main_ms: 0, overtime: "none" } },
    running: "black", turnStart: 0, control: byo,
  };
  const after = press(k, "black", 61000);
  assert.equal(after.pcs.black.main_ms, 0);
  assert.equal(after.pcs.black.overtime.byo_yomi.periods_left, 3);
  const can = { canadian: { main_ms: 0, stones: 10, block_ms: 300000 } };
  const c = {
    pcs: { black: { main_ms: 0, overtime: { canadian: { moves_left: 1, block_ms_left: 5000 } } }, white: { main_ms: 0, overtime: "none" } },
    running: "black", turnStart: 0, control: can,
  };
  const renewed = press(c, "black", 2000);
  assert.deepEqual(renewed.pcs.black.overtime, { canadian: { moves_left: 10, block_ms_left: 300000 } });
});
