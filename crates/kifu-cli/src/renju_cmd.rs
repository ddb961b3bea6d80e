//! `kifu renju check`.

use clap::{Args, Subcommand};
use kifu_renju::{check as renju_check, parse_moves, parse_points, stones_from_moves, Rule, Stone};

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

/// `kifu renju ...`.
#[derive(Debug, Subcommand)]
pub enum RenjuCommand {
    /// Is a move five, forbidden (overline, double-four, double-three) or legal?
    ///
    /// Coordinates as RenjuNet writes them: a-o left to right, 1-15 bottom to
    /// top, h8 the centre. Give the position as two stone lists, or as a move
    /// list in order (with `pass`).
    Check(RenjuCheckArgs),
}

/// `kifu renju check`.
#[derive(Debug, Args)]
pub struct RenjuCheckArgs {
    /// Black stones, comma separated (e.g. h8,i9).
    #[arg(long, default_value = "", conflicts_with = "moves")]
    pub black: String,
    /// White stones, comma separated.
    #[arg(long, default_value = "", conflicts_with = "moves")]
    pub white: String,
    /// The moves in order, Black first (e.g. h8,i9,pass,h9).
    #[arg(long)]
    pub moves: Option<String>,
    /// The point to check.
    #[arg(long)]
    pub query: String,
    /// The colour that would play it: black or white (default: black, or the
    /// side to move after --moves).
    #[arg(long)]
    pub color: Option<String>,
    /// The Renju or Gomoku rule.
    #[arg(long, default_value = kifu_game::default_ruleset(kifu_ledger::GameKind::Renju),
          ignore_case = true,
          value_parser = clap::builder::PossibleValuesParser::new(kifu_renju::Rule::ALL.map(kifu_renju::Rule::name)))]
    pub rule: String,
    /// Print `{"verdict": ..., "forbidden": ...}`.
    #[arg(long)]
    pub json: bool,
}
