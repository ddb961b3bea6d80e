//! The game-information properties of a record (players, ranks, date,
//! event, round, place, time, rules, komi, handicap, result), kept as the
//! record writes them so that a game imported and exported again says the
//! same, and the metadata kifu adds on export.

use serde::{Deserialize, Serialize};

use super::{escape, SgfGame, SgfMove};
use crate::ruleset::{Ruleset, Scoring, SuicideRule};
use crate::Point;

/// The game-information properties kept on import and written back on
/// export, in this order.
pub const INFO_PROPERTIES: [&str; 15] = [
    "PB", "PW", "BR", "WR", "DT", "EV", "RO", "PC", "GN", "TM", "OT", "RU", "KM", "HA", "RE",
];

/// The private property that carries kifu's exact ruleset profile beside
/// the closest standard `RU` value.
pub const PROFILE_PROPERTY: &str = "KIFURULES";

/// A record's game information, property by property, values as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInfo {
    /// `(identifier, value)` in [`INFO_PROPERTIES`] order.
    pub properties: Vec<(String, String)>,
}

impl GameInfo {
    /// The information properties `game` has, as its reader kept them (a
    /// value that did not parse, such as `KM[abc]`, is kept as written).
    pub fn from_game(game: &SgfGame) -> GameInfo {
        let mut properties = Vec::new();
        for id in INFO_PROPERTIES {
            let typed: Option<String> = match id {
                "PB" => game.black_player.clone(),
                "PW" => game.white_player.clone(),
                "DT" => game.date.clone(),
                "RU" => game.rules.clone(),
                "RE" => game.result.clone(),
                "OT" => game.overtime.clone(),
                "KM" => game.komi.map(|k| k.to_string()),
                "HA" => (game.handicap > 0).then(|| game.handicap.to_string()),
                "TM" => game.time_limit_ms.map(super::format_ms),
                _ => None,
            };
            let value = typed.or_else(|| game.root(id).map(str::to_string));
            if let Some(v) = value {
                properties.push((id.to_string(), v));
            }
        }
        GameInfo { properties }
    }

    /// The value of `id`, if the record has it.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, v)| v.as_str())
    }

    /// True when no information property is present.
    pub fn is_empty(&self) -> bool {
        self.properties.is_empty()
    }

    /// The properties as SGF text (`PB[Lee Sedol]PW[AlphaGo]...`), the form
    /// kept in a game's title.
    pub fn to_sgf_text(&self) -> String {
        let mut out = String::new();
        for (id, v) in &self.properties {
            out.push_str(id);
            out.push('[');
            out.push_str(&escape(v));
            out.push(']');
        }
        out
    }

    /// Reads what [`GameInfo::to_sgf_text`] wrote; `None` for other text.
    pub fn from_sgf_text(text: &str) -> Option<GameInfo> {
        let t = text.trim_start();
        let first = t.chars().next()?;
        if !first.is_ascii_uppercase() || !t.contains('[') {
            return None;
        }
        let game = super::read(&format!("(;{t})")).ok()?;
        let info = GameInfo::from_game(&game);
        (!info.is_empty()).then_some(info)
    }

    /// A line a person reads: `Lee Sedol 9p (Black) vs AlphaGo (White),
    /// Google DeepMind Challenge Match, round 1, Seoul, 2016-03-09`.
    pub fn describe(&self) -> String {
        let player = |name: &str, rank: &str, colour: &str| {
            let mut s = self.get(name).unwrap_or("?").to_string();
            if let Some(r) = self.get(rank) {
                s.push(' ');
                s.push_str(r);
            }
            format!("{s} ({colour})")
        };
        let mut parts = vec![format!(
            "{} vs {}",
            player("PB", "BR", "Black"),
            player("PW", "WR", "White")
        )];
        for id in ["GN", "EV"] {
            if let Some(v) = self.get(id) {
                parts.push(v.to_string());
            }
        }
        if let Some(r) = self.get("RO") {
            parts.push(format!("round {r}"));
        }
        for id in ["PC", "DT"] {
            if let Some(v) = self.get(id) {
                parts.push(v.to_string());
            }
        }
        parts.join(", ")
    }

    /// Writes the properties into `game` (typed fields where the reader has
    /// them, the others as root properties), replacing what it held.
    pub fn apply_to(&self, game: &mut SgfGame) {
        for (id, v) in &self.properties {
            match id.as_str() {
                "PB" => game.black_player = Some(v.clone()),
                "PW" => game.white_player = Some(v.clone()),
                "DT" => game.date = Some(v.clone()),
                "RU" => game.rules = Some(v.clone()),
                "RE" => game.result = Some(v.clone()),
                "OT" => game.overtime = Some(v.clone()),
                // Komi, handicap and main time are the game's own values
                // (the export sets them from the genesis); a value the reader
                // could not parse is written back as it was.
                "KM" if game.komi.is_none() => game.set_root(id, v),
                "TM" if game.time_limit_ms.is_none() => game.set_root(id, v),
                "KM" | "TM" | "HA" => {}
                _ => game.set_root(id, v),
            }
        }
    }
}

/// What kifu knows of a stored game beyond its moves, for the SGF export.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportFacts {
    /// The exact ruleset profile name.
    pub ruleset: String,
    /// The tournament (`EV`), where the game has one.
    pub event: Option<String>,
    /// The round (`RO`).
    pub round: Option<u32>,
    /// The date the game began, `YYYY-MM-DD` (`DT`); not used for an
    /// imported game (one with `info`).
    pub date: Option<String>,
    /// False for an untimed game: no `BL`/`WL`/`OB`/`OW` are written.
    pub timed: bool,
    /// The information the game was imported with, written back first.
    pub info: Option<GameInfo>,
}

/// The standard SGF `RU` value closest to a profile, from its values:
/// area scoring with suicide allowed is `NZ`, area scoring `Chinese`,
/// territory scoring with pass stones `AGA`, territory scoring `Japanese`.
pub fn closest_standard_rules(ruleset: &Ruleset) -> &'static str {
    match (ruleset.scoring, ruleset.suicide, ruleset.pass_stones) {
        (Scoring::Area, SuicideRule::Allowed, _) => "NZ",
        (Scoring::Area, _, _) => "Chinese",
        (Scoring::Territory, _, true) => "AGA",
        (Scoring::Territory, _, false) => "Japanese",
    }
}

/// Writes the game information of an exported record: what the game was
/// imported with, then what kifu adds (`EV`/`RO`/`DT` from the tournament
/// and the genesis, the closest standard `RU` with the exact profile in
/// [`PROFILE_PROPERTY`]). Then makes the record one every reader accepts:
/// no time properties in an untimed game (never `BL[0]`), and no point off
/// the board (such a move is told in a comment on the move before it).
pub fn write_game_info(game: &mut SgfGame, facts: &ExportFacts) {
    if let Some(info) = &facts.info {
        info.apply_to(game);
    }
    if let Some(ev) = &facts.event {
        if game.root("EV").is_none() {
            game.set_root("EV", ev);
        }
    }
    if let Some(ro) = facts.round {
        if game.root("RO").is_none() {
            game.set_root("RO", &ro.to_string());
        }
    }
    // The date a game was recorded in kifu; an imported record keeps its
    // own (or none), never the date of the import.
    if game.date.is_none() && facts.info.is_none() {
        game.date = facts.date.clone();
    }
    let info_has_ru = facts.info.as_ref().is_some_and(|i| i.get("RU").is_some());
    if let Ok(rs) = Ruleset::by_name(&facts.ruleset) {
        if !info_has_ru {
            game.rules = Some(closest_standard_rules(&rs).to_string());
        }
    }
    game.set_root(PROFILE_PROPERTY, &facts.ruleset);
    if !facts.timed {
        game.time_limit_ms = None;
        game.overtime = None;
        for m in &mut game.moves {
            m.black_time_left_ms = None;
            m.white_time_left_ms = None;
            m.black_overtime_left = None;
            m.white_overtime_left = None;
        }
    }
    let size = game.size;
    let on_board = |p: &Point| p.x < size && p.y < size;
    game.setup_black.retain(on_board);
    game.setup_white.retain(on_board);
    let mut kept: Vec<SgfMove> = Vec::with_capacity(game.moves.len());
    let mut pending: Vec<String> = Vec::new();
    for m in std::mem::take(&mut game.moves) {
        match m.point {
            Some(p) if !on_board(&p) => {
                let note = format!(
                    "{} played off the board (column {}, row {} of a {size}x{size} board); the move is not written as a move",
                    m.color.name(),
                    u32::from(p.x) + 1,
                    u32::from(p.y) + 1
                );
                match kept.last_mut() {
                    Some(prev) => super::append_move_comment(&mut prev.comment, note),
                    None => pending.push(note),
                }
            }
            _ => kept.push(m),
        }
    }
    game.moves = kept;
    for note in pending {
        super::append_comment(&mut game.comment, note);
    }
}
