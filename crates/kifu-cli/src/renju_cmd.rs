//! `kifu renju check`.

use kifu_renju::{check as renju_check, parse_moves, parse_points, stones_from_moves, Rule, Stone};

use crate::cli::RenjuCheckArgs;
use crate::{CmdResult, Failure};

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure::new(e.to_string())
}

/// `kifu renju check`.
pub fn check(a: RenjuCheckArgs) -> CmdResult {
    let rule: Rule = a.rule.parse().map_err(fail)?;
    let (black, white, to_move) = match &a.moves {
        Some(m) => stones_from_moves(&parse_moves(m).map_err(fail)?).map_err(fail)?,
        None => (
            parse_points(&a.black).map_err(fail)?,
            parse_points(&a.white).map_err(fail)?,
            Stone::Black,
        ),
    };
    let color: Stone = match &a.color {
        Some(c) => c.parse().map_err(fail)?,
        None => to_move,
    };
    let query = a.query.parse().map_err(fail)?;
    let out = renju_check(&black, &white, query, color, rule).map_err(fail)?;
    if a.json {
        say!("{}", serde_json::to_string(&out)?);
    } else {
        let v = serde_json::to_value(out)?;
        say!(
            "{} at {}: {}{}",
            a.color.as_deref().unwrap_or(if color == Stone::Black {
                "black"
            } else {
                "white"
            }),
            a.query,
            v["verdict"].as_str().unwrap_or("?"),
            if out.forbidden { " (forbidden)" } else { "" }
        );
    }
    Ok(())
}
