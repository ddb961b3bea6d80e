//! Text for values shared by every output: SGF point letters, results, how
//! a result was reached, and half points.
//!
//! A half point is written two ways: in a result code, SGF style
//! (`B+3.5`, [`result_text`], [`half_points`]), and in words as a referee
//! writes a score (`komi 7½`, `Black 2, White 9½`, [`points_text`]). Every
//! sentence uses [`points_text`]; [`half_points`] is for codes and SGF.

use kifu_ledger::{Color, GameResult, Outcome, Point, ResultBy};

/// A point in SGF letters (`aa` is the top-left corner). Safe on any point:
/// coordinates past `z` are written `?`.
pub fn sgf_point(p: Point) -> String {
    let c = |n: u8| -> char {
        if n < 26 {
            (b'a' + n) as char
        } else {
            '?'
        }
    };
    format!("{}{}", c(p.x), c(p.y))
}

/// Half-points as points in a code or an SGF value: `7.5`, `-3`, `0`.
/// Sentences use [`points_text`].
pub fn half_points(h: i64) -> String {
    kifu_ledger::text::half_points_text(h)
}

/// Half-points as a referee writes a score: `7½`, `½`, `-3½`, `4`.
pub fn points_text(h: i64) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    match (a / 2, a % 2) {
        (0, 1) => format!("{sign}½"),
        (w, 1) => format!("{sign}{w}½"),
        (w, _) => format!("{sign}{w}"),
    }
}

/// A result as its short code, SGF style: `W+7.5`, `B+R`, and in words
/// where SGF has no code: `draw (score)`, `no result (forfeit)`.
pub fn result_text(r: &GameResult) -> String {
    let who = match &r.outcome {
        Outcome::Win(Color::Black) => "B+",
        Outcome::Win(Color::White) => "W+",
        Outcome::Draw => return format!("draw ({})", by_text(&r.by)),
        Outcome::BothLose => return format!("both lose ({})", by_text(&r.by)),
        Outcome::NoResult => return format!("no result ({})", by_text(&r.by)),
    };
    match &r.by {
        ResultBy::Score { margin_half_points } => {
            format!("{who}{}", half_points(i64::from(*margin_half_points).abs()))
        }
        ResultBy::Resignation => format!("{who}R"),
        ResultBy::Time => format!("{who}T"),
        ResultBy::Forfeit => format!("{who}F"),
        other => format!("{who} ({})", by_text(other)),
    }
}

/// How a result came about, in words.
pub fn by_text(by: &ResultBy) -> String {
    match by {
        ResultBy::Resignation => "resignation".into(),
        ResultBy::Time => "time".into(),
        ResultBy::Forfeit => "forfeit".into(),
        ResultBy::Score { .. } => "score".into(),
        ResultBy::Five => "five".into(),
        ResultBy::ForbiddenMove => "forbidden move".into(),
        ResultBy::IllegalMove => "illegal move".into(),
        ResultBy::Agreement => "agreement".into(),
        ResultBy::Repetition => "repetition".into(),
        ResultBy::AbnormalTermination => "abnormal termination".into(),
        ResultBy::Other(s) => s.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::points_text;

    #[test]
    fn points_are_written_with_a_half_sign() {
        assert_eq!(points_text(15), "7½");
        assert_eq!(points_text(1), "½");
        assert_eq!(points_text(-1), "-½");
        assert_eq!(points_text(-7), "-3½");
        assert_eq!(points_text(8), "4");
        assert_eq!(points_text(0), "0");
    }
}
