//! The list of games a store holds, as `kifu games` prints it (and
//! `docs/schema/games.schema.json` describes it): one row a game, found by
//! tournament, round, player and phase.

use kifu_ledger::{Body, Color, Event, GameKind, Genesis, Hash, Record};
use serde::Serialize;

use crate::record::Phase;
use crate::GameState;

/// One game of the list (`kifu games --json` prints a list of them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameRow {
    /// The game id, in hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// The tournament, if any.
    pub tournament: Option<String>,
    /// The round, if in a tournament.
    pub round: Option<u32>,
    /// The board, if in a tournament.
    pub board: Option<u32>,
    /// Who plays Black (after an exchange, the other seat); `?` for nobody.
    pub black: String,
    /// Who plays White.
    pub white: String,
    /// The game kind's name ([`GameKind::name`]).
    #[schemars(with = "GameKindKey")]
    pub game_kind: &'static str,
    /// Lines of the board.
    pub board_size: u8,
    /// The ruleset profile.
    pub ruleset: String,
    /// The phase as a key ([`PHASE_KEYS`]).
    #[schemars(with = "PhaseKey")]
    pub phase: &'static str,
    /// The phase in words.
    pub phase_text: String,
    /// The result: the one the projection computes, else the last declared.
    pub result: Option<String>,
    /// Events in the chain.
    pub events: usize,
    /// When the genesis was signed (ISO 8601, UTC).
    pub started: Option<String>,
}

/// The schema of [`GameRow::game_kind`]: the kinds' names, read from
/// `kifu_ledger::GameKind` itself.
struct GameKindKey;

impl schemars::JsonSchema for GameKindKey {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "GameKindKey".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": kifu_ledger::kinds::variant_names::<kifu_ledger::GameKind>(),
        })
    }
}

/// The schema of [`GameRow::phase`]: one of [`PHASE_KEYS`].
struct PhaseKey;

impl schemars::JsonSchema for PhaseKey {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PhaseKey".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": PHASE_KEYS,
        })
    }
}

/// Every phase key, in the order a game passes through them.
pub const PHASE_KEYS: [&str; 8] = [
    "not_started",
    "playing",
    "paused",
    "status_assessment",
    "resumption",
    "adjourned",
    "awaiting_referee",
    "finished",
];

/// A phase as a snake_case key (for filters and JSON).
pub fn phase_key(p: &Phase) -> &'static str {
    match p {
        Phase::NotStarted => PHASE_KEYS[0],
        Phase::Playing => PHASE_KEYS[1],
        Phase::Paused { .. } => PHASE_KEYS[2],
        Phase::StatusAssessment => PHASE_KEYS[3],
        Phase::Resumption => PHASE_KEYS[4],
        Phase::Adjourned => PHASE_KEYS[5],
        Phase::AwaitingReferee => PHASE_KEYS[6],
        Phase::Finished { .. } => PHASE_KEYS[7],
    }
}

/// A game kind as a list's heading names it.
pub fn game_kind_title(k: GameKind) -> &'static str {
    match k {
        GameKind::Go => "Go",
        GameKind::Renju => "Renju",
        GameKind::GomokuFreestyle => "Gomoku (freestyle)",
        GameKind::GomokuStandard => "Gomoku (standard)",
    }
}

/// The lines that head a game for a person: the players, the event and
/// round, the game and its ruleset, and an imported record's information.
pub fn game_heading(g: &kifu_ledger::Genesis) -> Vec<String> {
    use kifu_ledger::Role;
    let name = |role: Role| {
        g.holder(role)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "?".to_string())
    };
    let mut lines = vec![format!(
        "{} (Black) vs {} (White)",
        name(Role::Black),
        name(Role::White)
    )];
    if let Some(t) = &g.tournament {
        lines.push(format!(
            "{}, round {}, board {}",
            t.tournament, t.round, t.board
        ));
    }
    lines.push(format!(
        "{} {}x{} under {}",
        game_kind_title(g.game),
        g.board_size,
        g.board_size,
        g.ruleset
    ));
    match kifu_go::sgf::GameInfo::from_sgf_text(&g.title) {
        Some(info) => lines.push(format!("record: {}", info.describe())),
        None if !g.title.is_empty() => lines.push(g.title.clone()),
        None => {}
    }
    lines
}

/// The row of the game `game` whose events are `events`; `None` for a
/// chain that is not a game (no genesis, or the log operator's chain of
/// key rotations, `docs/TRANSPARENCY.md` section 8).
pub fn game_row(game: &Hash, events: &[Event]) -> Option<GameRow> {
    let Some(Body::GameCreated(g)) = events.first().map(|e| &e.body) else {
        return None;
    };
    if g.title.starts_with(kifu_ledger::body::LOG_OPERATOR_TITLE) {
        return None;
    }
    let state = GameState::replay(events);
    let result = state
        .result
        .computed()
        .map(|d| crate::result_text(&d.result))
        .or_else(|| {
            state
                .result
                .declared
                .last()
                .map(|s| crate::result_text(&s.result))
        });
    let played = |colour: Color| {
        state
            .playing(colour)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "?".to_string())
    };
    Some(GameRow {
        game: hex::encode(game),
        tournament: g.tournament.as_ref().map(|t| t.tournament.clone()),
        round: g.tournament.as_ref().map(|t| t.round),
        board: g.tournament.as_ref().map(|t| t.board),
        black: played(Color::Black),
        white: played(Color::White),
        game_kind: g.game.name(),
        board_size: g.board_size,
        ruleset: g.ruleset.clone(),
        phase: phase_key(&state.phase),
        phase_text: crate::state_text::phase(&state.phase),
        result,
        events: events.len(),
        started: events
            .first()
            .map(|e| kifu_clock::notation::iso8601_utc(e.at_ms)),
    })
}

impl GameRow {
    /// The row as one line for a person.
    pub fn line(&self) -> String {
        let place = match (&self.tournament, self.round, self.board) {
            (Some(t), Some(ro), Some(b)) => format!("{t}, round {ro}, board {b}"),
            _ => "no tournament".to_string(),
        };
        let kind = self
            .game_kind
            .parse::<GameKind>()
            .map(game_kind_title)
            .unwrap_or("?");
        format!(
            "{}  {place}: {} (Black) vs {} (White); {kind} {}x{} under {}; {}; result {}; {}",
            &self.game[..self.game.len().min(12)],
            self.black,
            self.white,
            self.board_size,
            self.board_size,
            self.ruleset,
            self.phase_text,
            self.result.as_deref().unwrap_or("none yet"),
            if self.events == 1 {
                "1 event".to_string()
            } else {
                format!("{} events", self.events)
            },
        )
    }
}

/// A phase key that is none of [`PHASE_KEYS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown phase '{0}' (one of: {keys})", keys = PHASE_KEYS.join(", "))]
pub struct UnknownPhase(pub String);

/// Which games to list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games of a tournament whose name holds this (any case).
    pub tournament: Option<String>,
    /// Only games of this round.
    pub round: Option<u32>,
    /// Only games a player whose name holds this plays (any case).
    pub player: Option<String>,
    /// Only games in this phase (a key of [`PHASE_KEYS`]).
    pub phase: Option<&'static str>,
}

impl GameFilter {
    /// Reads a phase as a person may write it (`status-assessment`,
    /// `Status assessment`, `status_assessment`).
    ///
    /// # Errors
    ///
    /// [`UnknownPhase`] for a phase that is none of [`PHASE_KEYS`].
    pub fn phase(p: &str) -> Result<&'static str, UnknownPhase> {
        let wanted = p.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        PHASE_KEYS
            .into_iter()
            .find(|k| *k == wanted)
            .ok_or_else(|| UnknownPhase(p.to_string()))
    }

    /// The rows this filter keeps, by tournament, round, board and start.
    pub fn apply(&self, mut rows: Vec<GameRow>) -> Vec<GameRow> {
        if let Some(p) = self.phase {
            rows.retain(|r| r.phase == p);
        }
        if let Some(t) = &self.tournament {
            let t = t.to_lowercase();
            rows.retain(|r| {
                r.tournament
                    .as_ref()
                    .is_some_and(|x| x.to_lowercase().contains(&t))
            });
        }
        if let Some(n) = self.round {
            rows.retain(|r| r.round == Some(n));
        }
        if let Some(p) = &self.player {
            let p = p.to_lowercase();
            rows.retain(|r| {
                r.black.to_lowercase().contains(&p) || r.white.to_lowercase().contains(&p)
            });
        }
        rows.sort_by(|x, y| {
            (&x.tournament, x.round, x.board, &x.started).cmp(&(
                &y.tournament,
                y.round,
                y.board,
                &y.started,
            ))
        });
        rows
    }
}

/// A role as `kifu log`'s signer column shows it: the two roles of two
/// words in one ("director", "committee"), so that the name beside them
/// keeps its room; the log's heading names the roles in full.
fn column_role(role: kifu_ledger::Role) -> &'static str {
    match role {
        kifu_ledger::Role::Director => "director",
        kifu_ledger::Role::Committee => "committee",
        other => other.word(),
    }
}

/// Width of `kifu log`'s signer column, in terminal cells.
const SIGNER_COLUMN: usize = 28;

/// The signer as `kifu log` shows it, exactly [`SIGNER_COLUMN`] cells wide
/// so that the columns after it stay aligned: `name` then `suffix` (the
/// role), padded; a name too long for the column is cut, with an ellipsis,
/// and the role kept. Widths are terminal cells (a CJK character takes
/// two), and control characters in a name are shown as spaces.
fn signer_cell(name: &str, suffix: &str) -> String {
    use unicode_width::UnicodeWidthChar;
    let cell = |c: char| {
        if c.is_control() {
            0
        } else {
            c.width().unwrap_or(0)
        }
    };
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    };
    let (name, suffix) = (clean(name), clean(suffix));
    let suffix_width: usize = suffix.chars().map(cell).sum();
    let name_width: usize = name.chars().map(cell).sum();
    let mut out = String::new();
    let mut used = 0;
    if name_width + suffix_width <= SIGNER_COLUMN {
        out.push_str(&name);
        out.push_str(&suffix);
        used = name_width + suffix_width;
    } else {
        // Room for the name's start and the ellipsis; when the role alone
        // fills the column, the whole text is cut instead.
        let (head, tail) = if suffix_width + 2 <= SIGNER_COLUMN {
            (name, suffix)
        } else {
            (format!("{name}{suffix}"), String::new())
        };
        let room = SIGNER_COLUMN - tail.chars().map(cell).sum::<usize>() - 1;
        for c in head.chars() {
            if used + cell(c) > room {
                break;
            }
            out.push(c);
            used += cell(c);
        }
        out.push('…');
        used += 1;
        out.push_str(&tail);
        used += tail.chars().map(cell).sum::<usize>();
    }
    out.push_str(&" ".repeat(SIGNER_COLUMN.saturating_sub(used)));
    out
}

/// A game's records as `kifu log` prints them, a line each: the seq, the
/// time, who signed it (named as the roster names the key, a replaced key
/// as the participant it speaks for) and what it states.
pub fn log_lines(records: &[Record], g: Option<&Genesis>) -> Vec<String> {
    let mut out = Vec::with_capacity(records.len());
    // The roster as the chain has changed it so far (key_replaced), so that
    // a new key is named as the participant it speaks for.
    let mut roster: Vec<kifu_ledger::Participant> = g.map(|g| g.roster.clone()).unwrap_or_default();
    let notation = g.map(crate::Notation::of).unwrap_or_default();
    for r in records {
        match r.decode() {
            Ok(e) => {
                let who = roster
                    .iter()
                    .find(|p| p.key == e.signer)
                    .map(|p| signer_cell(&p.name, &format!(" ({})", column_role(p.role))))
                    .unwrap_or_else(|| {
                        signer_cell(&format!("key {}", &e.signer.to_hex()[..12]), "")
                    });
                if let Body::KeyReplaced {
                    participant,
                    new_key,
                    ..
                } = &e.body
                {
                    for p in roster.iter_mut().filter(|p| &p.key == participant) {
                        p.key = *new_key;
                    }
                }
                out.push(format!(
                    "{:>4}  {}  {who} {}",
                    e.seq,
                    kifu_clock::notation::iso8601_utc(e.at_ms),
                    crate::story::describe(&e.body, &notation)
                ));
            }
            Err(err) => out.push(format!("   ?  {err}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};

    fn events(records: &[kifu_ledger::Record]) -> Vec<Event> {
        records.iter().map(|r| r.decode().unwrap()).collect()
    }

    #[test]
    fn a_game_is_one_row_and_the_filter_finds_it_by_what_a_person_types() {
        let cast = Cast::new();
        let chain = sample_game(&cast, "listed");
        let row = game_row(&chain.game, &events(&chain.records)).unwrap();
        assert_eq!(row.game, hex::encode(chain.game));
        assert_eq!(row.events, chain.records.len());
        assert_eq!(row.game_kind, "go");
        assert!(PHASE_KEYS.contains(&row.phase));
        assert!(row.line().starts_with(&hex::encode(&chain.game[..6])));
        assert!(row.line().contains("; Go 9x9 under "));
        assert_eq!(
            GameFilter::phase("Status-Assessment"),
            Ok("status_assessment")
        );
        let unknown = GameFilter::phase("lunch").unwrap_err();
        assert!(unknown
            .to_string()
            .starts_with("unknown phase 'lunch' (one of: not_started, playing"));
        let keep = |f: GameFilter| f.apply(vec![row.clone()]).len();
        assert_eq!(keep(GameFilter::default()), 1);
        assert_eq!(
            keep(GameFilter {
                phase: Some(row.phase),
                player: Some(row.black[..2].to_uppercase()),
                ..GameFilter::default()
            }),
            1
        );
        assert_eq!(
            keep(GameFilter {
                round: Some(99),
                ..GameFilter::default()
            }),
            0
        );
    }

    #[test]
    fn the_log_operators_chain_is_not_a_game() {
        let cast = Cast::new();
        let mut chain = sample_game(&cast, "x");
        let mut evs = events(&chain.records);
        if let Body::GameCreated(g) = &mut evs[0].body {
            g.title = format!("{}kifu.example/log", kifu_ledger::body::LOG_OPERATOR_TITLE);
        }
        chain.records.clear();
        assert_eq!(game_row(&chain.game, &evs), None);
        assert_eq!(game_row(&chain.game, &[]), None);
    }

    mod signer_column {
        use super::super::*;
        use unicode_width::UnicodeWidthStr;

        #[test]
        fn a_short_signer_is_padded_to_the_column() {
            let c = signer_cell("Ann", " (black)");
            assert_eq!(c.trim_end(), "Ann (black)");
            assert_eq!(c.width(), SIGNER_COLUMN);
        }

        #[test]
        fn a_long_name_is_cut_and_its_role_kept() {
            let name = "N".repeat(60);
            let c = signer_cell(&name, " (referee)");
            assert_eq!(c.width(), SIGNER_COLUMN);
            assert!(c.ends_with("N… (referee)"), "{c:?}");
        }

        #[test]
        fn wide_characters_count_two_cells() {
            let c = signer_cell(&"本因坊".repeat(10), " (white)");
            assert_eq!(c.width(), SIGNER_COLUMN);
            // A double-width character does not fit the one cell left: a space
            // pads the column instead.
            assert!(c.trim_end().ends_with("坊… (white)"), "{c:?}");
            let c = signer_cell("本因坊秀策", " (black)");
            assert_eq!(c.trim_end(), "本因坊秀策 (black)");
            assert_eq!(c.width(), SIGNER_COLUMN);
        }

        #[test]
        fn control_characters_cannot_break_the_line() {
            let c = signer_cell("Ann\nseq 99", " (black)");
            assert!(!c.contains('\n'));
            assert_eq!(c.width(), SIGNER_COLUMN);
        }

        #[test]
        fn a_director_keeps_room_for_the_name() {
            let role = format!(" ({})", column_role(kifu_ledger::Role::Director));
            let c = signer_cell("Chief Arbiter", &role);
            assert_eq!(c.trim_end(), "Chief Arbiter (director)");
            assert_eq!(c.width(), SIGNER_COLUMN);
            let role = format!(" ({})", column_role(kifu_ledger::Role::Committee));
            assert_eq!(
                signer_cell("Appeals Chair", &role).trim_end(),
                "Appeals Chair (committee)"
            );
            assert_eq!(column_role(kifu_ledger::Role::Referee), "referee");
        }

        #[test]
        fn a_role_longer_than_the_column_is_cut_too() {
            let c = signer_cell("Ann", &" (x)".repeat(10));
            assert_eq!(c.width(), SIGNER_COLUMN);
            assert!(c.ends_with('…'));
        }
    }
}
