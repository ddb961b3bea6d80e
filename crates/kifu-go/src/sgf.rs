//! Reading and writing SGF (`FF[4]`) game records.
//!
//! [`read`] takes the main line of the first game in a collection (the first
//! variation at every branch) and returns an [`SgfGame`]; [`write()`] turns an
//! [`SgfGame`] back into SGF text. Reading what [`write()`] produced gives an
//! equal value.
//!
//! Real-world tolerance: unknown properties are kept (root) or skipped (move
//! nodes); lower-case letters in property names (`FF[3]` style `AddBlack`) are
//! dropped; `B[]` and, on boards up to 19x19, `B[tt]` are passes; a komi,
//! handicap or time that does not parse is left out rather than failing the
//! whole record; setup stones in nodes before the first move are part of the
//! starting position.
//!
//! ```
//! use kifu_go::sgf;
//! let game = sgf::read("(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[];B[cc])").unwrap();
//! assert_eq!(game.size, 9);
//! assert_eq!(game.moves.len(), 3);
//! assert_eq!(game.moves[1].point, None);
//! assert_eq!(sgf::read(&sgf::write(&game)).unwrap(), game);
//! ```

use serde::{Deserialize, Serialize};

use crate::point::check_size;
use crate::{Color, Error, Komi, Point};

/// One move of the main line with its per-move properties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SgfMove {
    /// The colour of the `B` or `W` property.
    pub color: Color,
    /// The point; `None` for a pass.
    pub point: Option<Point>,
    /// `BL`: Black's time left after the move, in milliseconds.
    pub black_time_left_ms: Option<i64>,
    /// `WL`: White's time left after the move, in milliseconds.
    pub white_time_left_ms: Option<i64>,
    /// `OB`: Black's overtime moves (or periods) left.
    pub black_overtime_left: Option<u32>,
    /// `OW`: White's overtime moves (or periods) left.
    pub white_overtime_left: Option<u32>,
    /// `C`: comment.
    pub comment: Option<String>,
}

impl SgfMove {
    /// A move with no per-move properties.
    pub fn new(color: Color, point: Option<Point>) -> SgfMove {
        SgfMove {
            color,
            point,
            black_time_left_ms: None,
            white_time_left_ms: None,
            black_overtime_left: None,
            white_overtime_left: None,
            comment: None,
        }
    }
}

/// A game record: the root properties the project uses, the starting
/// position and the main line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SgfGame {
    /// `SZ` (19 when absent).
    pub size: u8,
    /// `KM`, in half-points.
    pub komi: Option<Komi>,
    /// `HA` (0 when absent).
    pub handicap: u32,
    /// `RU`: the ruleset as written in the record.
    pub rules: Option<String>,
    /// `PB`.
    pub black_player: Option<String>,
    /// `PW`.
    pub white_player: Option<String>,
    /// `RE`.
    pub result: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// `TM`: main time per player, in milliseconds.
    pub time_limit_ms: Option<i64>,
    /// `OT`: overtime description.
    pub overtime: Option<String>,
    /// `PL`: who moves first.
    pub first_player: Option<Color>,
    /// `C` on the root (and on setup nodes before the first move).
    pub comment: Option<String>,
    /// `AB` stones before the first move.
    pub setup_black: Vec<Point>,
    /// `AW` stones before the first move.
    pub setup_white: Vec<Point>,
    /// The main line.
    pub moves: Vec<SgfMove>,
    /// Other root properties, kept in order (identifier, raw values).
    pub other: Vec<(String, Vec<String>)>,
}

impl SgfGame {
    /// An empty record for a board of `size` lines.
    pub fn new(size: u8) -> SgfGame {
        SgfGame {
            size,
            komi: None,
            handicap: 0,
            rules: None,
            black_player: None,
            white_player: None,
            result: None,
            date: None,
            time_limit_ms: None,
            overtime: None,
            first_player: None,
            comment: None,
            setup_black: Vec::new(),
            setup_white: Vec::new(),
            moves: Vec::new(),
            other: Vec::new(),
        }
    }

    /// Who is to move first: `PL`, else White when there are handicap stones
    /// (`HA` of 2 or more, or Black setup stones only and a handicap given),
    /// else Black.
    pub fn first_to_move(&self) -> Color {
        if let Some(c) = self.first_player {
            return c;
        }
        if self.handicap >= 2 && self.setup_white.is_empty() {
            return Color::White;
        }
        Color::Black
    }
}

type Node = Vec<(String, Vec<String>)>;

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, what: &'static str) -> Error {
        Error::Sgf {
            offset: self.pos,
            what,
        }
    }

    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// GameTree = "(" Sequence GameTree* ")". Appends the main line's nodes
    /// (the first variation at every branch). Iterative, so deeply nested
    /// variations cannot exhaust the stack.
    fn game_tree(&mut self, main: &mut Vec<Node>) -> Result<(), Error> {
        self.skip_ws();
        if self.peek() != Some(b'(') {
            return Err(self.err("expected '('"));
        }
        // For each open tree: (on the main line, first child already taken).
        let mut open: Vec<(bool, bool)> = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'(') => {
                    self.pos += 1;
                    let on_main = match open.last_mut() {
                        None => true,
                        Some((parent_main, child_taken)) => {
                            let first = !*child_taken;
                            *child_taken = true;
                            *parent_main && first
                        }
                    };
                    open.push((on_main, false));
                }
                Some(b';') => {
                    self.pos += 1;
                    let node = self.node()?;
                    match open.last() {
                        Some((true, false)) => main.push(node),
                        Some(_) => {}
                        None => return Err(self.err("node outside a game tree")),
                    }
                }
                Some(b')') => {
                    self.pos += 1;
                    open.pop();
                    if open.is_empty() {
                        return Ok(());
                    }
                }
                Some(_) => return Err(self.err("unexpected character in game tree")),
                None => return Err(self.err("unexpected end of text: missing ')'")),
            }
        }
    }

    fn node(&mut self) -> Result<Node, Error> {
        let mut node = Node::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    let start = self.pos;
                    while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                        self.pos += 1;
                    }
                    // FF[3] long names: only the upper-case letters count.
                    let ident: String = self.text[start..self.pos]
                        .chars()
                        .filter(|c| c.is_ascii_uppercase())
                        .collect();
                    let mut values = Vec::new();
                    loop {
                        self.skip_ws();
                        if self.peek() != Some(b'[') {
                            break;
                        }
                        values.push(self.value()?);
                    }
                    if values.is_empty() {
                        return Err(self.err("property without a value"));
                    }
                    if let Some(existing) = node.iter_mut().find(|(id, _)| *id == ident) {
                        existing.1.extend(values);
                    } else {
                        node.push((ident, values));
                    }
                }
                _ => return Ok(node),
            }
        }
    }

    /// A bracketed value with escapes resolved: `\x` is `x`, and a backslash
    /// before a line break (soft line break) removes both.
    fn value(&mut self) -> Result<String, Error> {
        self.pos += 1; // '['
        let mut out = String::new();
        let mut run_start = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.err("unexpected end of text inside a value")),
                Some(b']') => {
                    out.push_str(&self.text[run_start..self.pos]);
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(&self.text[run_start..self.pos]);
                    self.pos += 1;
                    match self.peek() {
                        None => return Err(self.err("unexpected end of text after '\\'")),
                        Some(b'\r') => {
                            self.pos += 1;
                            if self.peek() == Some(b'\n') {
                                self.pos += 1;
                            }
                        }
                        Some(b'\n') => {
                            self.pos += 1;
                            if self.peek() == Some(b'\r') {
                                self.pos += 1;
                            }
                        }
                        Some(_) => {
                            // Copy one whole character (it may be multi-byte).
                            let ch = self.text[self.pos..].chars().next().unwrap_or('\\');
                            out.push(ch);
                            self.pos += ch.len_utf8();
                        }
                    }
                    run_start = self.pos;
                }
                Some(_) => self.pos += 1,
            }
        }
    }
}

fn parse_ms(text: &str) -> Option<i64> {
    let v: f64 = text.trim().parse().ok()?;
    if !v.is_finite() || v.abs() > 1.0e12 {
        return None;
    }
    Some((v * 1000.0).round() as i64)
}

fn format_ms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let a = ms.unsigned_abs();
    let (s, frac) = (a / 1000, a % 1000);
    if frac == 0 {
        format!("{sign}{s}")
    } else {
        let f = format!("{frac:03}");
        format!("{sign}{s}.{}", f.trim_end_matches('0'))
    }
}

/// Reads a move value: a point, or a pass (`""`, or `"tt"` on boards up to 19).
fn move_point(text: &str, size: u8) -> Result<Option<Point>, Error> {
    let t = text.trim();
    if t.is_empty() || (t == "tt" && size <= 19) {
        return Ok(None);
    }
    Point::from_sgf(t, size).map(Some)
}

/// Points of an `AB`/`AW` value; `aa:cc` rectangles are expanded.
fn setup_points(values: &[String], size: u8) -> Result<Vec<Point>, Error> {
    let mut out = Vec::new();
    for v in values {
        let v = v.trim();
        if let Some((a, b)) = v.split_once(':') {
            let a = Point::from_sgf(a, size)?;
            let b = Point::from_sgf(b, size)?;
            for x in a.x.min(b.x)..=a.x.max(b.x) {
                for y in a.y.min(b.y)..=a.y.max(b.y) {
                    out.push(Point::new(x, y));
                }
            }
        } else {
            out.push(Point::from_sgf(v, size)?);
        }
    }
    Ok(out)
}

/// Text values: line breaks are kept, other whitespace becomes a space.
fn text_value(v: &str) -> String {
    v.chars()
        .map(|c| {
            if c.is_whitespace() && c != '\n' && c != '\r' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Simple text values (names, dates): every whitespace becomes a space.
fn simple_text(v: &str) -> String {
    v.chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect()
}

fn append_comment(slot: &mut Option<String>, text: String) {
    match slot {
        Some(s) => {
            s.push('\n');
            s.push_str(&text);
        }
        None => *slot = Some(text),
    }
}

/// Reads the main line of the first game in `text`.
pub fn read(text: &str) -> Result<SgfGame, Error> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
    };
    // Skip anything before the first '(' (some files start with a BOM or junk).
    match text.find('(') {
        Some(i) => parser.pos = i,
        None => {
            return Err(Error::Sgf {
                offset: 0,
                what: "no game tree found",
            })
        }
    }
    let mut nodes = Vec::new();
    parser.game_tree(&mut nodes)?;
    let mut nodes = nodes.into_iter();
    let root = nodes.next().unwrap_or_default();

    let mut size = 19u8;
    if let Some((_, v)) = root.iter().find(|(id, _)| id == "SZ") {
        let raw = v.first().map(|s| s.trim()).unwrap_or("");
        // "SZ[19:19]" (rectangular syntax) with equal sides is tolerated.
        let side = raw.split(':').next().unwrap_or(raw);
        let n: u32 = side.parse().map_err(|_| Error::Sgf {
            offset: 0,
            what: "SZ is not a number",
        })?;
        size = check_size(n)?;
    }
    let mut game = SgfGame::new(size);
    let mut pending_root = vec![root];
    let mut in_setup = true;
    let mut all_nodes: Vec<Node> = Vec::new();
    all_nodes.append(&mut pending_root);
    all_nodes.extend(nodes);
    for (index, node) in all_nodes.into_iter().enumerate() {
        let mut mv: Option<SgfMove> = None;
        for (id, values) in &node {
            let first = values.first().map(String::as_str).unwrap_or("");
            match id.as_str() {
                "B" | "W" => {
                    let color = if id == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if mv.is_none() {
                        mv = Some(SgfMove::new(color, move_point(first, size)?));
                    }
                }
                _ => {}
            }
        }
        // Setup in the node of the first move still belongs to the start.
        let node_in_setup = in_setup;
        if mv.is_some() {
            in_setup = false;
        }
        for (id, values) in node {
            let first = values.first().cloned().unwrap_or_default();
            match (id.as_str(), mv.as_mut()) {
                ("B" | "W", _) => {}
                ("SZ", _) if index == 0 => {}
                ("GM" | "FF" | "CA", _) if index == 0 => {}
                ("C", Some(m)) => append_comment(&mut m.comment, text_value(&first)),
                ("C", None) => append_comment(&mut game.comment, text_value(&first)),
                ("BL", Some(m)) => m.black_time_left_ms = parse_ms(&first),
                ("WL", Some(m)) => m.white_time_left_ms = parse_ms(&first),
                ("OB", Some(m)) => m.black_overtime_left = first.trim().parse().ok(),
                ("OW", Some(m)) => m.white_overtime_left = first.trim().parse().ok(),
                ("AB", _) if node_in_setup => game.setup_black.extend(setup_points(&values, size)?),
                ("AW", _) if node_in_setup => game.setup_white.extend(setup_points(&values, size)?),
                ("PL", _) if node_in_setup => {
                    game.first_player = match first.trim() {
                        "B" | "b" => Some(Color::Black),
                        "W" | "w" => Some(Color::White),
                        _ => None,
                    }
                }
                ("KM", _) if index == 0 => {
                    game.komi = first.trim().parse::<f64>().ok().and_then(Komi::from_points)
                }
                ("HA", _) if index == 0 => game.handicap = first.trim().parse().unwrap_or(0),
                ("RU", _) if index == 0 => game.rules = Some(simple_text(&first)),
                ("PB", _) if index == 0 => game.black_player = Some(simple_text(&first)),
                ("PW", _) if index == 0 => game.white_player = Some(simple_text(&first)),
                ("RE", _) if index == 0 => game.result = Some(simple_text(&first)),
                ("DT", _) if index == 0 => game.date = Some(simple_text(&first)),
                ("TM", _) if index == 0 => game.time_limit_ms = parse_ms(&first),
                ("OT", _) if index == 0 => game.overtime = Some(simple_text(&first)),
                ("AB" | "AW" | "AE" | "PL", _) => {}
                (_, _) if index == 0 => game.other.push((id, values)),
                // Unknown or unsupported properties elsewhere (including setup
                // after the first move) are ignored.
                _ => {}
            }
        }
        if let Some(m) = mv {
            game.moves.push(m);
        }
    }
    Ok(game)
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn prop(out: &mut String, id: &str, value: &str) {
    out.push_str(id);
    out.push('[');
    out.push_str(&escape(value));
    out.push(']');
}

/// Writes `game` as an SGF `FF[4]` record (passes as `[]`).
pub fn write(game: &SgfGame) -> String {
    let mut out = String::from("(;GM[1]FF[4]CA[UTF-8]");
    prop(&mut out, "SZ", &game.size.to_string());
    if let Some(k) = game.komi {
        prop(&mut out, "KM", &k.to_string());
    }
    if game.handicap > 0 {
        prop(&mut out, "HA", &game.handicap.to_string());
    }
    let texts = [
        ("RU", &game.rules),
        ("PB", &game.black_player),
        ("PW", &game.white_player),
        ("RE", &game.result),
        ("DT", &game.date),
    ];
    for (id, v) in texts {
        if let Some(v) = v {
            prop(&mut out, id, v);
        }
    }
    if let Some(tm) = game.time_limit_ms {
        prop(&mut out, "TM", &format_ms(tm));
    }
    if let Some(ot) = &game.overtime {
        prop(&mut out, "OT", ot);
    }
    for (id, values) in &game.other {
        out.push_str(id);
        for v in values {
            out.push('[');
            out.push_str(&escape(v));
            out.push(']');
        }
    }
    if let Some(c) = game.first_player {
        prop(&mut out, "PL", &c.sgf_letter().to_string());
    }
    for (id, stones) in [("AB", &game.setup_black), ("AW", &game.setup_white)] {
        if !stones.is_empty() {
            out.push_str(id);
            for p in stones {
                out.push('[');
                out.push_str(&p.to_sgf());
                out.push(']');
            }
        }
    }
    if let Some(c) = &game.comment {
        prop(&mut out, "C", c);
    }
    for (i, m) in game.moves.iter().enumerate() {
        out.push(if i % 10 == 0 { '\n' } else { ' ' });
        out.push(';');
        let point = m.point.map(Point::to_sgf).unwrap_or_default();
        prop(&mut out, &m.color.sgf_letter().to_string(), &point);
        if let Some(t) = m.black_time_left_ms {
            prop(&mut out, "BL", &format_ms(t));
        }
        if let Some(t) = m.white_time_left_ms {
            prop(&mut out, "WL", &format_ms(t));
        }
        if let Some(n) = m.black_overtime_left {
            prop(&mut out, "OB", &n.to_string());
        }
        if let Some(n) = m.white_overtime_left {
            prop(&mut out, "OW", &n.to_string());
        }
        if let Some(c) = &m.comment {
            prop(&mut out, "C", c);
        }
    }
    out.push_str(")\n");
    out
}
