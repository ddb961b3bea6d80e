// What a board tablet draws of its own Go stones while the server cannot be
// reached: the stone, and the opponent's stones it takes (Japanese Rules
// 1989, Art. 6: a stone or group with no liberty is removed when the
// opponent's play leaves it so). For display only: the server's projection
// (kifu-go) stays the judge, and replaces this drawing as soon as it
// answers; an illegal or suicidal play is drawn as placed, and the server
// says what the rules make of it. Pure functions, tested by
// web/test/board-go.test.mjs and, on real games against kifu-go, by
// tests/board_cli.rs.

/** The rows (`"X"` Black, `"O"` White, anything else empty) after `stone`
 * ("black" or "white") is placed at `{x, y}`, with the opponent's stones
 * left without liberty removed. Gives `{rows, taken}`. */
export function place(rows, point, stone) {
  const n = rows.length;
  const grid = rows.map((r) => [...r]);
  const me = stone === "black" ? "X" : "O";
  const them = me === "X" ? "O" : "X";
  const { x, y } = point;
  if (y < 0 || y >= n || x < 0 || x >= grid[y].length) return { rows: rows.slice(), taken: 0 };
  grid[y][x] = me;
  let taken = 0;
  for (const [nx, ny] of neighbours(grid, x, y)) {
    if (grid[ny][nx] !== them) continue;
    const group = groupAt(grid, nx, ny);
    if (!group.liberties) {
      for (const [gx, gy] of group.stones) grid[gy][gx] = ".";
      taken += group.stones.length;
    }
  }
  return { rows: grid.map((r) => r.join("")), taken };
}

function neighbours(grid, x, y) {
  const out = [];
  if (x > 0) out.push([x - 1, y]);
  if (x + 1 < grid[y].length) out.push([x + 1, y]);
  if (y > 0) out.push([x, y - 1]);
  if (y + 1 < grid.length) out.push([x, y + 1]);
  return out;
}

// The stones of the group at (x, y) and how many liberties it has.
function groupAt(grid, x, y) {
  const colour = grid[y][x];
  const seen = new Set([`${x},${y}`]);
  const stones = [[x, y]];
  const free = new Set();
  for (let i = 0; i < stones.length; i++) {
    const [sx, sy] = stones[i];
    for (const [nx, ny] of neighbours(grid, sx, sy)) {
      const k = `${nx},${ny}`;
      const c = grid[ny][nx];
      if (c === colour) {
        if (!seen.has(k)) { seen.add(k); stones.push([nx, ny]); }
      } else if (c !== "X" && c !== "O") free.add(k);
    }
  }
  return { stones, liberties: free.size };
}
