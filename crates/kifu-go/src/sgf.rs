//! Reading and writing SGF (`FF[4]`) game records.
//!
//! [`read`] takes the main line of the first game in a collection (the first
//! variation at every branch) and returns an [`SgfGame`]; [`write()`] turns an
//! [`SgfGame`] back into SGF text. Reading what [`write()`] produced gives an
//! equal value.
//!
//! Real-world tolerance: unknown properties are kept (root) or skipped (move
//! nodes); lower-case letters in property names (`FF[3]` style `AddBlack`) are
//! dropped, and a name in lower case only is kept as written; `B[]` and, on
//! boards up to 19x19, `B[tt]` are passes; a komi, handicap or time that does
//! not parse is left out with an [`SgfWarning`] rather than failing the whole
//! record; setup stones in nodes before the first move are part of the
//! starting position. A record whose `GM` is not 1 is refused.
//!
//! Hostile input: reading is linear in time and memory in the size of the
//! text. The main line is read in one pass that hands each node to the
//! record as it is read (nodes are not kept), after a first pass that only
//! counts them, so the moves are one allocation of the size they need;
//! variations off the main line are scanned, not kept, without recursion;
//! properties are found by an index, and past the root only those a move is
//! read for are kept; a node of more than [`MAX_PROPERTIES`] properties or a
//! property of more than [`MAX_VALUES`] values is refused; setup rectangles
//! (`AB[aa:ss]`) may cover at most twice the board in all; at most
//! [`MAX_WARNINGS`] warnings are kept. Files are bounded by their reader
//! (`kifu sgf` reads at most [`DEFAULT_MAX_BYTES`] unless told more).
//!
//! Encodings: [`read_bytes`] decodes a file by its `CA` property (`GB2312`,
//! `Shift_JIS`, `ISO-8859-1`, ...; [`decode`]) before reading it.
//!
//! ```
//! use kifu_go::sgf;
//! let game = sgf::read("(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[];B[cc])").unwrap();
//! assert_eq!(game.size, 9);
//! assert_eq!(game.moves.len(), 3);
//! assert_eq!(game.moves[1].point, None);
//! assert_eq!(sgf::read(&sgf::write(&game)).unwrap(), game);
//! ```

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::point::check_size;
use crate::{Color, Error, Komi, Point};

mod info;
pub use info::{
    closest_standard_rules, write_game_info, ExportFacts, GameInfo, INFO_PROPERTIES,
    PROFILE_PROPERTY,
};

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
    pub black_overtime_left: Option<u16>,
    /// `OW`: White's overtime moves (or periods) left.
    pub white_overtime_left: Option<u16>,
    /// `C`: comment.
    pub comment: Option<Box<str>>,
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

    /// The first value of a root property kept in [`SgfGame::other`].
    pub fn root(&self, id: &str) -> Option<&str> {
        self.other
            .iter()
            .find(|(k, _)| k == id)
            .and_then(|(_, v)| v.first())
            .map(String::as_str)
    }

    /// Sets a root property kept in [`SgfGame::other`] to one value.
    pub fn set_root(&mut self, id: &str, value: &str) {
        match self.other.iter_mut().find(|(k, _)| k == id) {
            Some((_, v)) => *v = vec![value.to_string()],
            None => self.other.push((id.to_string(), vec![value.to_string()])),
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

/// One node's properties in the order first seen, with an index by
/// identifier so that a node with many distinct properties is read in linear
/// time (a repeated identifier adds its values to the first).
#[derive(Default)]
struct Node {
    props: Vec<(String, Vec<String>)>,
    index: HashMap<String, usize>,
}

impl Node {
    fn add(&mut self, ident: String, values: Vec<String>) {
        match self.index.get(&ident) {
            Some(&i) => self.props[i].1.extend(values),
            None => {
                self.index.insert(ident.clone(), self.props.len());
                self.props.push((ident, values));
            }
        }
    }

    fn get(&self, ident: &str) -> Option<&[String]> {
        self.index.get(ident).map(|&i| self.props[i].1.as_slice())
    }

    /// Where `ident` stands among the node's properties.
    fn position(&self, ident: &str) -> Option<usize> {
        self.index.get(ident).copied()
    }
}

/// The properties of a node past the root that the reader uses; the others
/// are scanned and not kept.
const MOVE_PROPERTIES: &[&str] = &[
    "B", "W", "C", "BL", "WL", "OB", "OW", "AB", "AW", "AE", "PL",
];

/// Most distinct properties kept in one node.
pub const MAX_PROPERTIES: usize = 1000;

/// Most values of one property in one node: twice the points of the
/// largest board (52x52), enough for every setup and markup list.
pub const MAX_VALUES: usize = 2 * 52 * 52;

/// Most warnings kept for one record; past that one more says how many were
/// left out.
pub const MAX_WARNINGS: usize = 100;

/// The size of an SGF file read by default, in bytes (`kifu sgf import
/// --max-sgf-mib` raises it). A long professional game with comments is a
/// few tens of kilobytes; a large commented collection a few megabytes.
pub const DEFAULT_MAX_BYTES: usize = 4 << 20;

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Whether the main line's first node (the root) has been read.
    seen_root: bool,
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

    /// GameTree = "(" Sequence GameTree* ")". Hands each node of the main
    /// line (the first variation at every branch) to `main` as soon as it is
    /// read, so that no node is kept longer than it takes to read it (with
    /// its values only when `keep_values`: a counting pass keeps none).
    /// Iterative, so deeply nested variations cannot exhaust the stack;
    /// nodes off the main line are scanned but not kept, and the nesting
    /// itself costs two counters, whatever its depth.
    fn game_tree(
        &mut self,
        main: &mut dyn FnMut(Node) -> Result<(), Error>,
        keep_values: bool,
    ) -> Result<(), Error> {
        self.skip_ws();
        if self.peek() != Some(b'(') {
            return Err(self.err("expected '('"));
        }
        // Open trees: how many are on the main line (always a prefix of the
        // stack), how deep the stack is, and whether the innermost main-line
        // tree has already had its first child.
        let mut main_depth = 0usize;
        let mut depth = 0usize;
        let mut main_child_taken = false;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'(') => {
                    self.pos += 1;
                    if depth == main_depth && (depth == 0 || !main_child_taken) {
                        main_depth += 1;
                        main_child_taken = false;
                    } else if depth == main_depth {
                        // A second child of a main-line tree: a variation.
                        main_child_taken = true;
                    }
                    depth += 1;
                }
                Some(b';') => {
                    self.pos += 1;
                    let on_main = depth == main_depth && depth > 0 && !main_child_taken;
                    let all = !self.seen_root;
                    let node = self.node(on_main && keep_values, all)?;
                    if depth == 0 {
                        return Err(self.err("node outside a game tree"));
                    }
                    if on_main {
                        self.seen_root = true;
                        main(node)?;
                    }
                }
                Some(b')') => {
                    self.pos += 1;
                    if depth == main_depth {
                        main_depth -= 1;
                        // The parent's first child is now done.
                        main_child_taken = true;
                    }
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(_) => return Err(self.err("unexpected character in game tree")),
                None => return Err(self.err("unexpected end of text: missing ')'")),
            }
        }
    }

    /// A node's properties (kept only when `keep`). Identifiers follow FF[4]
    /// (upper-case letters); FF[3] long names (`AddBlack`) keep their
    /// upper-case letters, and an identifier written in lower case only is
    /// kept as written, so that writing it back reads the same.
    ///
    /// Past the root (`all` false), only the properties a move node is read
    /// for are kept ([`MOVE_PROPERTIES`]); the others are scanned. A node
    /// with more than [`MAX_PROPERTIES`] properties, or a property with more
    /// than [`MAX_VALUES`] values, is refused: no record needs that many, and
    /// keeping them would cost memory out of proportion to the text.
    fn node(&mut self, keep: bool, all: bool) -> Result<Node, Error> {
        let mut node = Node::default();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    let start = self.pos;
                    while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                        self.pos += 1;
                    }
                    let written = &self.text[start..self.pos];
                    let upper: String =
                        written.chars().filter(|c| c.is_ascii_uppercase()).collect();
                    let ident = if upper.is_empty() {
                        written.to_string()
                    } else {
                        upper
                    };
                    let keep_this = keep && (all || MOVE_PROPERTIES.contains(&ident.as_str()));
                    let mut values = Vec::new();
                    let mut count = 0usize;
                    loop {
                        self.skip_ws();
                        if self.peek() != Some(b'[') {
                            break;
                        }
                        let v = self.value(keep_this)?;
                        count += 1;
                        if keep_this {
                            if values.len() >= MAX_VALUES {
                                return Err(
                                    self.err("a property with more values than any record needs")
                                );
                            }
                            values.push(v);
                        }
                    }
                    if count == 0 {
                        return Err(self.err("property without a value"));
                    }
                    if keep_this {
                        if node.props.len() >= MAX_PROPERTIES && node.position(&ident).is_none() {
                            return Err(
                                self.err("a node with more properties than any record needs")
                            );
                        }
                        let had = node.get(&ident).map_or(0, <[String]>::len);
                        if had + values.len() > MAX_VALUES {
                            return Err(
                                self.err("a property with more values than any record needs")
                            );
                        }
                        node.add(ident, values);
                    }
                }
                _ => return Ok(node),
            }
        }
    }

    /// A bracketed value with escapes resolved: `\x` is `x`, and a backslash
    /// before a line break (soft line break) removes both.
    /// Off the main line (`keep` false) the value is only scanned.
    fn value(&mut self, keep: bool) -> Result<String, Error> {
        self.pos += 1; // '['
        let mut out = String::new();
        let mut run_start = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.err("unexpected end of text inside a value")),
                Some(b']') if !keep => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') if !keep => {
                    self.pos += 1;
                    if self.peek().is_none() {
                        return Err(self.err("unexpected end of text after '\\'"));
                    }
                    // Skip one byte: continuation bytes of a multi-byte
                    // character are never ']' or '\\'.
                    self.pos += 1;
                }
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

/// Points of an `AB`/`AW` value; `aa:cc` rectangles are expanded. `budget`
/// is how many points rectangles may still expand to (twice the board's
/// points in all): a position cannot hold more stones than the board has
/// points, so a record whose rectangles add up to more (a hostile file
/// repeating `AB[aa:ss]`) is refused instead of being expanded point by point
/// without end. Single points cost nothing: they are linear in the text.
fn setup_points(values: &[String], size: u8, budget: &mut usize) -> Result<Vec<Point>, Error> {
    let mut out = Vec::new();
    let too_many = Error::Sgf {
        offset: 0,
        what: "setup stones (AB/AW) add up to more points than the board has",
    };
    for v in values {
        let v = v.trim();
        if let Some((a, b)) = v.split_once(':') {
            let a = Point::from_sgf(a, size)?;
            let b = Point::from_sgf(b, size)?;
            let w = usize::from(a.x.abs_diff(b.x)) + 1;
            let h = usize::from(a.y.abs_diff(b.y)) + 1;
            *budget = budget.checked_sub(w * h).ok_or_else(|| too_many.clone())?;
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

/// Adds `text` to a move's comment (on a line of its own).
fn append_move_comment(slot: &mut Option<Box<str>>, text: String) {
    *slot = Some(match slot.take() {
        Some(s) => format!("{s}\n{text}").into(),
        None => text.into(),
    });
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

/// Something in a record that was read other than as written, or left
/// out: the reader never changes a value silently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SgfWarning {
    /// The property concerned (`KM`, `CA`, ...).
    pub property: String,
    /// What was done with it, in words.
    pub message: String,
}

impl SgfWarning {
    fn new(property: &str, message: impl Into<String>) -> SgfWarning {
        SgfWarning {
            property: property.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SgfWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.property, self.message)
    }
}

/// The `CA[...]` value of the first game's root, read from the raw bytes
/// (property names and brackets are ASCII in every encoding SGF allows).
fn charset_label(bytes: &[u8]) -> Option<&[u8]> {
    let start = bytes.iter().position(|&b| b == b'(')?;
    let mut i = start;
    // The root node ends at the second ';' or at a '(' / ')' outside values.
    let mut semis = 0;
    let mut in_value = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_value {
            if c == b'\\' {
                i += 1;
            } else if c == b']' {
                in_value = false;
            }
        } else if c == b'[' {
            in_value = true;
            let before = &bytes[start..i];
            let ident_end = before.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
            let ident_start = before[..ident_end]
                .iter()
                .rposition(|b| !b.is_ascii_alphabetic())
                .map_or(0, |p| p + 1);
            if before[ident_start..ident_end].eq_ignore_ascii_case(b"CA") {
                let rest = &bytes[i + 1..];
                let end = rest.iter().position(|&b| b == b']')?;
                return Some(&rest[..end]);
            }
        } else if c == b';' {
            semis += 1;
            if semis > 1 {
                return None;
            }
        } else if (c == b'(' && i != start) || c == b')' {
            return None;
        }
        i += 1;
    }
    None
}

/// Decodes the bytes of an SGF file to text, by its `CA` property
/// (`UTF-8`, `GB2312`, `Shift_JIS`, `ISO-8859-1`, ... as the WHATWG
/// Encoding Standard names them). Without `CA`, UTF-8 is used when the bytes
/// are valid UTF-8, else Latin-1 (the FF\[4\] default); a label that is not
/// known, or bytes that are not valid in the encoding named, give a warning.
pub fn decode(bytes: &[u8]) -> (String, Vec<SgfWarning>) {
    let mut warnings = Vec::new();
    let label = charset_label(bytes);
    let named = label.and_then(|l| encoding_rs::Encoding::for_label(l.trim_ascii()));
    let encoding = match (label, named) {
        (_, Some(e)) => e,
        (Some(l), None) => {
            warnings.push(SgfWarning::new(
                "CA",
                format!(
                    "unknown character set {:?}; read as UTF-8 where valid, else Latin-1",
                    String::from_utf8_lossy(l)
                ),
            ));
            if std::str::from_utf8(bytes).is_ok() {
                encoding_rs::UTF_8
            } else {
                encoding_rs::WINDOWS_1252
            }
        }
        (None, None) => {
            if std::str::from_utf8(bytes).is_ok() {
                encoding_rs::UTF_8
            } else {
                warnings.push(SgfWarning::new(
                    "CA",
                    "no character set given and the text is not UTF-8: read as Latin-1",
                ));
                encoding_rs::WINDOWS_1252
            }
        }
    };
    let (text, used, had_errors) = encoding.decode(bytes);
    if had_errors {
        warnings.push(SgfWarning::new(
            "CA",
            format!(
                "bytes that are not valid {} were replaced by U+FFFD",
                used.name()
            ),
        ));
    }
    (text.into_owned(), warnings)
}

/// Reads a record from the bytes of a file: [`decode`], then
/// [`read_with_warnings`].
pub fn read_bytes(bytes: &[u8]) -> Result<(SgfGame, Vec<SgfWarning>), Error> {
    let (text, mut warnings) = decode(bytes);
    let (game, more) = read_with_warnings(&text)?;
    warnings.extend(more);
    Ok((game, warnings))
}

/// Reads the main line of the first game in `text`.
pub fn read(text: &str) -> Result<SgfGame, Error> {
    read_with_warnings(text).map(|(game, _)| game)
}

/// Reads the main line of the first game in `text`, with what could not be
/// read as written. Time and memory are linear in the size of `text`: nodes
/// off the main line are not kept, properties are found by an index, and
/// setup rectangles are bounded by the board. A record whose `GM` is not 1
/// (not Go) is refused.
pub fn read_with_warnings(text: &str) -> Result<(SgfGame, Vec<SgfWarning>), Error> {
    // Skip anything before the first '(' (some files start with a BOM or junk).
    let Some(start) = text.find('(') else {
        return Err(Error::Sgf {
            offset: 0,
            what: "no game tree found",
        });
    };
    let parser = |seen_root| Parser {
        text,
        bytes: text.as_bytes(),
        pos: start,
        seen_root,
    };
    // A first pass counts the main line's nodes and keeps nothing, so that
    // the moves are held in one allocation of the size they need (growing
    // a vector by doubling would hold up to twice that, and more while it
    // moves).
    let mut count = 0usize;
    parser(false).game_tree(
        &mut |_| {
            count += 1;
            Ok(())
        },
        false,
    )?;
    let mut build = Build {
        game: None,
        warnings: Warnings::default(),
        size: 19,
        in_setup: true,
        setup_budget: 0,
        index: 0,
        nodes: count,
    };
    parser(false).game_tree(&mut |node| build.take(node), true)?;
    if build.game.is_none() {
        build.take(Node::default())?;
    }
    let game = build.game.unwrap_or_else(|| SgfGame::new(19));
    Ok((game, build.warnings.into_vec()))
}

/// Warnings, at most [`MAX_WARNINGS`] of them, and how many more there were.
#[derive(Default)]
struct Warnings {
    kept: Vec<SgfWarning>,
    more: usize,
}

impl Warnings {
    fn push(&mut self, w: SgfWarning) {
        if self.kept.len() < MAX_WARNINGS {
            self.kept.push(w);
        } else {
            self.more += 1;
        }
    }

    fn into_vec(mut self) -> Vec<SgfWarning> {
        if self.more > 0 {
            self.kept.push(SgfWarning::new(
                "*",
                format!("{} more warnings like these left out", self.more),
            ));
        }
        self.kept
    }
}

/// The record being built, one main-line node at a time.
struct Build {
    game: Option<SgfGame>,
    warnings: Warnings,
    size: u8,
    in_setup: bool,
    setup_budget: usize,
    index: usize,
    /// Nodes on the main line (from the counting pass).
    nodes: usize,
}

impl Build {
    /// The root: the game (`GM`) and the board's size (`SZ`).
    fn root(&mut self, root: &Node) -> Result<(), Error> {
        if let Some(v) = root.get("GM") {
            let gm = v.first().map(|s| s.trim()).unwrap_or("");
            if gm != "1" {
                return Err(Error::Sgf {
                    offset: 0,
                    what: "GM is not 1: the record is not a game of Go",
                });
            }
        }
        let mut size = 19u8;
        if let Some(v) = root.get("SZ") {
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
        game.moves.reserve_exact(self.nodes);
        self.size = size;
        self.setup_budget = 2 * usize::from(size) * usize::from(size);
        self.game = Some(game);
        Ok(())
    }

    /// One node of the main line, in order.
    fn take(&mut self, node: Node) -> Result<(), Error> {
        if self.game.is_none() {
            self.root(&node)?;
        }
        let index = self.index;
        self.index += 1;
        let size = self.size;
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        let warnings = &mut self.warnings;
        let in_setup = &mut self.in_setup;
        let setup_budget = &mut self.setup_budget;
        // The move: B or W, whichever comes first in the node.
        let mv_id = match (node.position("B"), node.position("W")) {
            (Some(b), Some(w)) => Some(if b < w { "B" } else { "W" }),
            (Some(_), None) => Some("B"),
            (None, Some(_)) => Some("W"),
            (None, None) => None,
        };
        let mut mv = match mv_id {
            Some(id) => {
                let color = if id == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let first = node
                    .get(id)
                    .and_then(|v| v.first())
                    .map(String::as_str)
                    .unwrap_or("");
                Some(SgfMove::new(color, move_point(first, size)?))
            }
            None => None,
        };
        // Setup in the node of the first move still belongs to the start.
        let node_in_setup = *in_setup;
        if mv.is_some() {
            *in_setup = false;
        }
        for (id, values) in node.props {
            let first = values.first().cloned().unwrap_or_default();
            match (id.as_str(), mv.as_mut()) {
                ("B" | "W", _) => {}
                ("SZ" | "GM" | "FF" | "CA", _) if index == 0 => {}
                ("C", Some(m)) => append_move_comment(&mut m.comment, text_value(&first)),
                ("C", None) => append_comment(&mut game.comment, text_value(&first)),
                ("BL", Some(m)) => {
                    m.black_time_left_ms = parse_ms(&first);
                    if m.black_time_left_ms.is_none() {
                        warnings.push(SgfWarning::new(
                            "BL",
                            format!("{first:?} is not a time: left out"),
                        ));
                    }
                }
                ("WL", Some(m)) => {
                    m.white_time_left_ms = parse_ms(&first);
                    if m.white_time_left_ms.is_none() {
                        warnings.push(SgfWarning::new(
                            "WL",
                            format!("{first:?} is not a time: left out"),
                        ));
                    }
                }
                ("OB", Some(m)) => m.black_overtime_left = first.trim().parse().ok(),
                ("OW", Some(m)) => m.white_overtime_left = first.trim().parse().ok(),
                ("AB", _) if node_in_setup => {
                    game.setup_black
                        .extend(setup_points(&values, size, setup_budget)?)
                }
                ("AW", _) if node_in_setup => {
                    game.setup_white
                        .extend(setup_points(&values, size, setup_budget)?)
                }
                ("PL", _) if node_in_setup => {
                    game.first_player = match first.trim() {
                        "B" | "b" => Some(Color::Black),
                        "W" | "w" => Some(Color::White),
                        _ => None,
                    }
                }
                ("KM", _) if index == 0 => {
                    game.komi = first.trim().parse::<f64>().ok().and_then(Komi::from_points);
                    if game.komi.is_none() {
                        warnings.push(SgfWarning::new(
                            "KM",
                            format!(
                                "{first:?} is not a komi in half points: kept as written, not used"
                            ),
                        ));
                        game.other.push((id, values));
                    }
                }
                ("HA", _) if index == 0 => {
                    game.handicap = match first.trim().parse() {
                        Ok(h) => h,
                        Err(_) => {
                            warnings.push(SgfWarning::new(
                            "HA",
                            format!("{first:?} is not a number of stones: kept as written, read as 0"),
                        ));
                            game.other.push((id, values));
                            0
                        }
                    }
                }
                ("RU", _) if index == 0 => game.rules = Some(simple_text(&first)),
                ("PB", _) if index == 0 => game.black_player = Some(simple_text(&first)),
                ("PW", _) if index == 0 => game.white_player = Some(simple_text(&first)),
                ("RE", _) if index == 0 => game.result = Some(simple_text(&first)),
                ("DT", _) if index == 0 => game.date = Some(simple_text(&first)),
                ("TM", _) if index == 0 => {
                    game.time_limit_ms = parse_ms(&first);
                    if game.time_limit_ms.is_none() {
                        if !first.trim().is_empty() && first.trim() != "-" {
                            warnings.push(SgfWarning::new(
                            "TM",
                            format!("{first:?} is not a number of seconds: kept as written, not used"),
                        ));
                        }
                        game.other.push((id, values));
                    }
                }
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
        Ok(())
    }
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
