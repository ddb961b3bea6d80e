//! The board: stones, captures, suicide and the incremental Zobrist hash.
//!
//! The board knows nothing of rulesets or turns. [`Board::place`] puts a stone
//! on an empty point and resolves the consequences the way every ruleset the
//! project models agrees on: opponent strings left without liberties are removed
//! first, then, if the new stone's own string has no liberty, that string is
//! removed too (self-capture). Whether self-capture was *allowed* is a question
//! for [`crate::Game`] and the [`crate::Ruleset`].

use crate::point::check_size;
use crate::zobrist::stone_key;
use crate::{Color, Error, Point};

/// What placing one stone did to the board.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placement {
    /// Opponent stones removed because their string lost its last liberty.
    pub captured: Vec<Point>,
    /// Own stones removed because the placed stone's string had no liberty
    /// after captures (self-capture, "suicide"). Includes the placed stone.
    pub suicided: Vec<Point>,
}

/// A Go board of `size` x `size` lines with its Zobrist hash kept up to date.
///
/// Two boards are equal when they have the same size and the same stones.
#[derive(Debug, Clone)]
pub struct Board {
    size: u8,
    cells: Vec<Option<Color>>,
    hash: u64,
    // Scratch space for flood fills; `mark[i] == stamp` means visited.
    mark: Vec<u32>,
    stamp: u32,
    // Reused buffer for the string being flood-filled.
    scratch: Vec<usize>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        // The flood-fill scratch space is not part of the position.
        self.size == other.size && self.cells == other.cells
    }
}

impl Eq for Board {}

impl Board {
    /// An empty board. Sizes 2 to 25 are accepted.
    pub fn new(size: u32) -> Result<Board, Error> {
        let size = check_size(size)?;
        let n = size as usize * size as usize;
        Ok(Board {
            size,
            cells: vec![None; n],
            hash: 0,
            mark: vec![0; n],
            stamp: 0,
            scratch: Vec::with_capacity(n),
        })
    }

    /// Number of lines.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The stone on `p`, if any (`None` also for points off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.on_board(self.size) {
            self.cells[p.index(self.size)]
        } else {
            None
        }
    }

    /// The incremental Zobrist hash of the stones on the board.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash recomputed from scratch (equals [`Board::hash`]).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (i, c) in self.cells.iter().enumerate() {
            if let Some(c) = c {
                let p = Point::from_index(i, self.size);
                h ^= stone_key(*c, p.x, p.y);
            }
        }
        h
    }

    /// All points of the board, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.cells.len()).map(move |i| Point::from_index(i, self.size))
    }

    /// The stones of `color`, sorted by SGF coordinate (column, then row).
    pub fn stones(&self, color: Color) -> Vec<Point> {
        let mut v: Vec<Point> = self
            .points()
            .filter(|&p| self.get(p) == Some(color))
            .collect();
        v.sort();
        v
    }

    /// Number of stones of `color` on the board.
    pub fn count(&self, color: Color) -> usize {
        self.cells.iter().filter(|c| **c == Some(color)).count()
    }

    /// Puts or removes a stone without any rule (setup stones, dead-stone removal).
    /// Points off the board are an error.
    pub fn set(&mut self, p: Point, stone: Option<Color>) -> Result<(), Error> {
        if !p.on_board(self.size) {
            return Err(Error::OffBoard {
                point: p,
                size: self.size,
            });
        }
        let i = p.index(self.size);
        if let Some(old) = self.cells[i] {
            self.hash ^= stone_key(old, p.x, p.y);
        }
        if let Some(new) = stone {
            self.hash ^= stone_key(new, p.x, p.y);
        }
        self.cells[i] = stone;
        Ok(())
    }

    /// The on-board neighbours of `i` (a row-major index).
    #[inline]
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let s = self.size as usize;
        let (x, y) = (i % s, i / s);
        let mut out = [usize::MAX; 4];
        if x > 0 {
            out[0] = i - 1;
        }
        if x + 1 < s {
            out[1] = i + 1;
        }
        if y > 0 {
            out[2] = i - s;
        }
        if y + 1 < s {
            out[3] = i + s;
        }
        out.into_iter().filter(|&j| j != usize::MAX)
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Collects the string containing index `start` into `string`; returns
    /// whether it has at least one liberty.
    fn string_at(&mut self, start: usize, string: &mut Vec<usize>) -> bool {
        string.clear();
        let Some(color) = self.cells[start] else {
            return false;
        };
        let stamp = self.next_stamp();
        let mut has_liberty = false;
        self.mark[start] = stamp;
        string.push(start);
        let mut k = 0;
        while k < string.len() {
            let i = string[k];
            k += 1;
            for j in self.neighbours(i) {
                match self.cells[j] {
                    None => has_liberty = true,
                    Some(c) if c == color && self.mark[j] != stamp => {
                        self.mark[j] = stamp;
                        string.push(j);
                    }
                    _ => {}
                }
            }
        }
        has_liberty
    }

    fn remove_all(&mut self, indices: &[usize], out: &mut Vec<Point>) {
        for &i in indices {
            let p = Point::from_index(i, self.size);
            if let Some(c) = self.cells[i].take() {
                self.hash ^= stone_key(c, p.x, p.y);
            }
            out.push(p);
        }
    }

    /// Places a stone of `color` on the empty point `p` and resolves captures
    /// and self-capture. An occupied or off-board point is an error and leaves
    /// the board unchanged.
    pub fn place(&mut self, color: Color, p: Point) -> Result<Placement, Error> {
        if !p.on_board(self.size) {
            return Err(Error::OffBoard {
                point: p,
                size: self.size,
            });
        }
        let i = p.index(self.size);
        if self.cells[i].is_some() {
            return Err(Error::Occupied(p));
        }
        self.cells[i] = Some(color);
        self.hash ^= stone_key(color, p.x, p.y);
        let mut placement = Placement::default();
        let mut string = std::mem::take(&mut self.scratch);
        for j in self.neighbours(i) {
            if self.cells[j] == Some(color.opponent()) && !self.string_at(j, &mut string) {
                let s = std::mem::take(&mut string);
                self.remove_all(&s, &mut placement.captured);
                string = s;
            }
        }
        if !self.string_at(i, &mut string) {
            let s = std::mem::take(&mut string);
            self.remove_all(&s, &mut placement.suicided);
            string = s;
        }
        self.scratch = string;
        Ok(placement)
    }

    /// Whether the stone on `p` stands alone (no neighbour of its colour) with
    /// exactly one liberty: the shape of a stone that may be taken back in a ko.
    pub fn is_lone_stone_in_atari(&self, p: Point) -> bool {
        let Some(color) = self.get(p) else {
            return false;
        };
        let mut liberties = 0;
        for j in self.neighbours(p.index(self.size)) {
            match self.cells[j] {
                None => liberties += 1,
                Some(c) if c == color => return false,
                Some(_) => {}
            }
        }
        liberties == 1
    }

    /// The points of the string (connected stones of one colour) through `p`,
    /// sorted; empty if `p` is empty.
    pub fn string(&self, p: Point) -> Vec<Point> {
        let mut scratch = self.clone();
        let mut s = Vec::new();
        if p.on_board(self.size) {
            scratch.string_at(p.index(self.size), &mut s);
        }
        let mut v: Vec<Point> = s
            .into_iter()
            .map(|i| Point::from_index(i, self.size))
            .collect();
        v.sort();
        v
    }

    /// Number of distinct liberties of the string through `p` (0 if `p` is empty).
    pub fn liberties(&self, p: Point) -> usize {
        let string = self.string(p);
        let mut libs: Vec<usize> = Vec::new();
        for q in string {
            for j in self.neighbours(q.index(self.size)) {
                if self.cells[j].is_none() && !libs.contains(&j) {
                    libs.push(j);
                }
            }
        }
        libs.len()
    }

    /// The on-board neighbours of `p`.
    pub fn adjacent(&self, p: Point) -> Vec<Point> {
        if !p.on_board(self.size) {
            return Vec::new();
        }
        self.neighbours(p.index(self.size))
            .map(|j| Point::from_index(j, self.size))
            .collect()
    }

    /// The board as text, top row first: `X` black, `O` white, `.` empty
    /// (the layout of the fixtures' `final_board`).
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.size)
            .map(|y| {
                (0..self.size)
                    .map(|x| match self.get(Point::new(x, y)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }
}
