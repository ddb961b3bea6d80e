//! The Go Text Protocol, version 2, as a referee speaks it: commands out,
//! answers in. Pure: text in, values out.
//!
//! An answer is `=` (success) or `?` (failure), an optional id, the text, and
//! an empty line. Anything else where an answer should start is broken GTP,
//! which the UEC Cup treats as an abnormal termination of the program
//! (`uec-cup-computer-go-rules.txt`, "h) Abnormal termination of programs").

use kifu_go::Point;
use kifu_ledger::Color;

/// A complete GTP answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `= text`: the command succeeded.
    Success(String),
    /// `? text`: the program refused the command.
    Failure(String),
}

/// What is wrong with the text a program sent where an answer was due.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GtpError {
    /// The first line of an answer is neither `=` nor `?`.
    #[error("an answer must start with '=' or '?', the program sent {0:?}")]
    NoStatus(String),
    /// `genmove` answered something that is not a vertex, `pass` or `resign`.
    #[error("{text:?} is not a move on a {size}x{size} board")]
    NotAMove {
        /// The text.
        text: String,
        /// The board size.
        size: u8,
    },
}

/// What `genmove` answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenMove {
    /// A stone on this point.
    Play(Point),
    /// A pass.
    Pass,
    /// The program resigns.
    Resign,
}

/// Collects the lines of one answer; `push` returns the answer once the
/// empty line that ends it has come.
#[derive(Debug, Default)]
pub struct AnswerReader {
    lines: Vec<String>,
}

impl AnswerReader {
    /// Takes one line (without its newline). Empty lines before an answer
    /// starts are skipped (GTP 2, 2.1: a controller ignores them).
    pub fn push(&mut self, line: &str) -> Result<Option<Reply>, GtpError> {
        let line = line.trim_end_matches('\r');
        if self.lines.is_empty() {
            if line.trim().is_empty() {
                return Ok(None);
            }
            if !(line.starts_with('=') || line.starts_with('?')) {
                return Err(GtpError::NoStatus(line.chars().take(80).collect()));
            }
            self.lines.push(line.to_string());
            return Ok(None);
        }
        if !line.trim().is_empty() {
            self.lines.push(line.to_string());
            return Ok(None);
        }
        let lines = std::mem::take(&mut self.lines);
        Ok(Some(parse_lines(&lines)))
    }
}

fn parse_lines(lines: &[String]) -> Reply {
    let first = lines.first().map(String::as_str).unwrap_or("=");
    let success = first.starts_with('=');
    // Skip the status mark and an optional numeric id.
    let rest = first
        .get(1..)
        .unwrap_or("")
        .trim_start_matches(|c: char| c.is_ascii_digit());
    let mut text = rest.trim().to_string();
    for l in &lines[1..] {
        text.push('\n');
        text.push_str(l.trim_end());
    }
    let text = text.trim().to_string();
    if success {
        Reply::Success(text)
    } else {
        Reply::Failure(text)
    }
}

/// The GTP name of a colour (`b`, `w`).
pub fn color_arg(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// A ledger point as a GTP vertex.
pub fn vertex(p: kifu_ledger::Point, size: u8) -> String {
    Point::new(p.x, p.y).to_gtp(size)
}

/// Reads the answer to `genmove`.
pub fn parse_genmove(text: &str, size: u8) -> Result<GenMove, GtpError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(GenMove::Pass);
    }
    if t.eq_ignore_ascii_case("resign") {
        return Ok(GenMove::Resign);
    }
    Point::from_gtp(t, size)
        .map(GenMove::Play)
        .map_err(|_| GtpError::NotAMove {
            text: t.chars().take(40).collect(),
            size,
        })
}

/// Reads a list of vertices (`final_status_list dead`): separated by spaces
/// or lines. Returns `None` when a word is not a vertex on the board.
pub fn parse_vertices(text: &str, size: u8) -> Option<Vec<kifu_ledger::Point>> {
    let mut out = Vec::new();
    for w in text.split_whitespace() {
        let p = Point::from_gtp(w, size).ok()?;
        out.push(kifu_game::convert::ledger_point(p));
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// A program's count as `final_score` gives it (`B+3.5`, `W+12`, `0`):
/// the winner and the margin in half points, `None` for a draw.
pub fn parse_score(text: &str) -> Option<Option<(Color, i32)>> {
    let t = text.trim();
    if t == "0" || t.eq_ignore_ascii_case("jigo") {
        return Some(None);
    }
    let (who, margin) = t.split_once('+')?;
    let color = match who.trim().to_ascii_uppercase().as_str() {
        "B" => Color::Black,
        "W" => Color::White,
        _ => return None,
    };
    let v: f64 = margin.trim().parse().ok()?;
    let halves = v * 2.0;
    if !halves.is_finite() || halves.fract() != 0.0 || !(0.0..=10_000.0).contains(&halves) {
        return None;
    }
    Some(Some((color, halves as i32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<Reply>, GtpError> {
        let mut r = AnswerReader::default();
        let mut out = Vec::new();
        for l in text.split('\n') {
            if let Some(a) = r.push(l)? {
                out.push(a);
            }
        }
        Ok(out)
    }

    #[test]
    fn answers_are_read_to_the_empty_line_with_ids_and_failures() {
        let got = read("= C3\n\n?12 unknown command\n\n=3\n\n= A1 B2\nC3\n\n").unwrap();
        assert_eq!(
            got,
            vec![
                Reply::Success("C3".into()),
                Reply::Failure("unknown command".into()),
                Reply::Success(String::new()),
                Reply::Success("A1 B2\nC3".into()),
            ]
        );
    }

    #[test]
    fn text_that_is_not_an_answer_is_broken_gtp() {
        assert!(matches!(read("hello\n\n"), Err(GtpError::NoStatus(_))));
    }

    #[test]
    fn genmove_answers_and_scores_are_read() {
        assert_eq!(parse_genmove("PASS", 9), Ok(GenMove::Pass));
        assert_eq!(parse_genmove("resign", 9), Ok(GenMove::Resign));
        assert_eq!(parse_genmove("J9", 9), Ok(GenMove::Play(Point::new(8, 0))));
        assert!(parse_genmove("Z99", 9).is_err());
        assert_eq!(parse_score("B+3.5"), Some(Some((Color::Black, 7))));
        assert_eq!(parse_score("W+12"), Some(Some((Color::White, 24))));
        assert_eq!(parse_score("0"), Some(None));
        assert_eq!(parse_score("B+3.25"), None);
        assert_eq!(
            parse_vertices("C3 A1\nA1", 9),
            Some(vec![
                kifu_ledger::Point { x: 0, y: 8 },
                kifu_ledger::Point { x: 2, y: 6 }
            ])
        );
        assert_eq!(parse_vertices("C3 Q99", 9), None);
    }
}
