//! A recorded Go game as SGF (`FF[4]`): the moves that stand after every
//! unwinding, the handicap stones, both clocks after each move as the
//! projection has them (`BL`/`WL`/`OB`/`OW` are what the replay's clock
//! faces show at the press completing the move: the main time left, or in
//! overtime the time left in the byo-yomi period or Canadian block with the
//! periods or stones left; see `kifu_clock::sgf`), and rulings, sanctions,
//! protests and moves taken back as comments.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use kifu_go::sgf::{SgfGame, SgfMove};
use kifu_ledger::{Body, Color, Event, GameKind, GameResult};

use crate::convert::{go_color, go_point};
use crate::state::{BoardState, GameState};
use crate::text::sgf_point;
use crate::words;

/// Why a game cannot be written as SGF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The first event is not a genesis.
    NoGenesis,
    /// SGF export is for Go games.
    NotGo,
    /// The board cannot be projected.
    NoBoard,
    /// A stored record cannot be decoded (what the ledger said).
    Record(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ExportError::NoGenesis => "the game has no genesis",
            ExportError::NotGo => "SGF export is for Go games",
            ExportError::NoBoard => "the game's board cannot be projected",
            ExportError::Record(e) => e,
        })
    }
}

impl std::error::Error for ExportError {}

/// A result as SGF's `RE` writes it: `B+R`, `W+7.5`, `0` (draw), `Void`
/// (`GameResult::to_sgf`, next to the reading of `RE`).
pub fn sgf_result(r: &GameResult) -> String {
    r.to_sgf()
}

/// Milliseconds as the SGF model's signed count (a clock never holds more
/// than `i64::MAX` ms; larger values are held at that bound).
fn ms_i64(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// Builds the SGF of a recorded game from its events (genesis first).
///
/// # Errors
///
/// [`ExportError`] when the events do not start with a Go genesis or the
/// board cannot be projected.
pub fn game_to_sgf(events: &[Event]) -> Result<SgfGame, ExportError> {
    let Some(Body::GameCreated(g)) = events.first().map(|e| &e.body) else {
        return Err(ExportError::NoGenesis);
    };
    if g.game != GameKind::Go {
        return Err(ExportError::NotGo);
    }
    // Replayed event by event to know, at each fact, whether the seats play
    // each other's colours (a modified pairing: LGC 2023, "Colour or
    // handicap error").
    let mut state = GameState::new();
    let mut swapped_at: BTreeSet<u64> = BTreeSet::new();
    for e in events {
        state.apply(e);
        if state.colours_swapped {
            swapped_at.insert(e.seq);
        }
    }
    let BoardState::Go(board) = &state.board else {
        return Err(ExportError::NoBoard);
    };
    // The colour a seat played when it signed the fact at `seq`.
    let played = |seat: Color, seq: u64| {
        if swapped_at.contains(&seq) {
            seat.opponent()
        } else {
            seat
        }
    };
    let mut out = SgfGame::new(g.board_size);
    // The terms actually used: a modified pairing replaces the genesis's.
    out.komi = Some(board.game().komi());
    out.handicap = board.game().handicap();
    out.rules = Some(g.ruleset.clone());
    // PB and PW name who played the black and the white stones.
    out.black_player = state.playing(Color::Black).map(|p| p.name.clone());
    out.white_player = state.playing(Color::White).map(|p| p.name.clone());
    out.comment = (!g.title.is_empty()).then(|| g.title.clone());
    out.setup_black = board.handicap_stones().into_iter().map(go_point).collect();
    for (k, v) in
        kifu_clock::sgf_root_properties(&crate::convert::clock_time_control(&g.time_control))
    {
        out.other.push((k.to_string(), vec![v]));
    }

    // Comments, attached to the move they follow.
    let mut comments: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut last_move = 0u64;
    for e in &events[1..] {
        if matches!(e.body, Body::StonePlaced { .. } | Body::Pass { .. }) {
            last_move = e.seq;
        }
        let comment = match &e.body {
            Body::RefereeRuling(r) => Some(format!(
                "Referee ({}): {} Reasons: {} Rules: {}",
                match r.kind {
                    kifu_ledger::RulingKind::Clarification => "clarification",
                    kifu_ledger::RulingKind::Judgement => "judgement",
                },
                r.decision,
                r.reasons,
                r.rules_cited.join("; ")
            )),
            Body::SanctionImposed(s) => Some(format!(
                "Sanction on {}: {} ({})",
                words::sanction_target(&s.target),
                words::sanction(&s.kind),
                s.reason
            )),
            Body::ProtestDeclared { player, statement } => Some(format!(
                "{} plays under protest: {statement}",
                words::colour(played(*player, e.seq))
            )),
            Body::Resigned { player, .. } => {
                Some(format!("{} resigns", words::colour(played(*player, e.seq))))
            }
            Body::ResultDeclared(r) => {
                out.result = Some(sgf_result(r));
                None
            }
            _ => None,
        };
        if let Some(c) = comment {
            comments.entry(last_move).or_default().push(c);
        }
    }

    // The moves that stand, in order; a move taken back is told in a comment.
    let standing: Vec<(u64, Color, Option<kifu_ledger::Point>)> = board
        .ops
        .iter()
        .filter_map(|op| match op {
            crate::go::Op::Move {
                seq, stone, point, ..
            } => Some((*seq, *stone, *point)),
            _ => None,
        })
        .collect();
    // Handicap stones placed freely stand in the setup (`AB`).
    let standing_seqs: BTreeSet<u64> = board
        .ops
        .iter()
        .filter(|op| {
            matches!(
                op,
                crate::go::Op::Move { .. } | crate::go::Op::Handicap { .. }
            )
        })
        .map(|op| op.seq())
        .collect();
    for e in &events[1..] {
        if let Body::StonePlaced { stone, point, .. } = &e.body {
            if !standing_seqs.contains(&e.seq) {
                comments.entry(e.seq).or_default().push(format!(
                    "{} {} (event {}) was taken back",
                    words::colour(*stone),
                    sgf_point(*point),
                    e.seq
                ));
            }
        }
    }
    let mut root_comments: Vec<String> = out.comment.take().into_iter().collect();
    let mut pending: Vec<String> = Vec::new();
    let mut iter = comments.into_iter().peekable();
    for (seq, stone, point) in &standing {
        while let Some((cseq, _)) = iter.peek() {
            if cseq >= seq {
                break;
            }
            if let Some((_, c)) = iter.next() {
                pending.extend(c);
            }
        }
        let mut m = SgfMove::new(go_color(*stone), point.map(go_point));
        // The one clock projection: both clocks as the press completing the
        // move left them, each as its face shows the phase under way (SGF
        // FF[4], BL/WL "time left ... after the move was made", OB/OW
        // "number of moves left ... within the current byo-yomi period /
        // overtime"): the main time left while there is some; in Japanese
        // byo-yomi the time left in the period and the periods left; in
        // Canadian overtime the time left in the block and the stones left.
        if let Some(t) = state.clocks_after(*seq) {
            let black = t.black.shown().shown();
            let white = t.white.shown().shown();
            m.black_time_left_ms = Some(ms_i64(black.time_ms));
            m.white_time_left_ms = Some(ms_i64(white.time_ms));
            m.black_overtime_left = black.count.and_then(|c| u16::try_from(c).ok());
            m.white_overtime_left = white.count.and_then(|c| u16::try_from(c).ok());
        }
        if !pending.is_empty() {
            match out.moves.last_mut() {
                Some(prev) => prev.comment = Some(pending.join("\n").into()),
                None => root_comments.append(&mut pending),
            }
            pending.clear();
        }
        out.moves.push(m);
    }
    pending.extend(iter.flat_map(|(_, c)| c));
    if !pending.is_empty() {
        match out.moves.last_mut() {
            Some(prev) => {
                let mut all: Vec<String> =
                    prev.comment.take().into_iter().map(String::from).collect();
                all.extend(pending);
                prev.comment = Some(all.join("\n").into());
            }
            None => root_comments.extend(pending),
        }
    }
    if !root_comments.is_empty() {
        out.comment = Some(root_comments.join("\n"));
    }
    Ok(out)
}

/// The SGF of a stored game as `kifu sgf export` writes it and the server
/// answers at `GET /games/{id}/sgf`: [`game_to_sgf`], with the game
/// information of an imported record (kept in the genesis title) written
/// back as properties rather than as a comment, and the ruleset, event,
/// round, date and timing as `kifu_go::sgf::write_game_info` writes them.
///
/// # Errors
///
/// As [`game_to_sgf`].
pub fn record_to_sgf(events: &[Event]) -> Result<SgfGame, ExportError> {
    record_to_sgf_on(events, None)
}

/// [`record_to_sgf`] with the game's date (`DT`) as given: the day of its
/// first event in its tournament's time zone (`kifu_tournament::local_date`,
/// docs/FORMAT.md section 10, `time_zone_stated`); `None`, the UTC day.
///
/// # Errors
///
/// As [`game_to_sgf`].
pub fn record_to_sgf_on(events: &[Event], date: Option<String>) -> Result<SgfGame, ExportError> {
    let mut out = game_to_sgf(events)?;
    let Some(Body::GameCreated(g)) = events.first().map(|e| &e.body) else {
        return Err(ExportError::NoGenesis);
    };
    // A title that holds an imported record's game information is written
    // back as properties, not as a comment.
    let info = kifu_go::sgf::GameInfo::from_sgf_text(&g.title);
    if info.is_some() {
        if let Some(c) = out.comment.take() {
            let rest: Vec<&str> = c.lines().filter(|l| *l != g.title).collect();
            if !rest.is_empty() {
                out.comment = Some(rest.join("\n"));
            }
        }
    }
    kifu_go::sgf::write_game_info(
        &mut out,
        &kifu_go::sgf::ExportFacts {
            ruleset: g.ruleset.clone(),
            event: g.tournament.as_ref().map(|t| t.tournament.clone()),
            round: g.tournament.as_ref().map(|t| t.round),
            date: date.or_else(|| {
                events
                    .first()
                    .map(|e| kifu_clock::notation::iso_date_utc(e.at_ms))
            }),
            timed: !matches!(g.time_control, kifu_ledger::TimeControl::Untimed),
            info,
        },
    );
    Ok(out)
}

/// [`record_to_sgf`] of stored records, written as SGF text.
///
/// # Errors
///
/// A record that cannot be decoded, or as [`game_to_sgf`].
pub fn records_to_sgf(records: &[kifu_ledger::Record]) -> Result<String, ExportError> {
    records_to_sgf_on(records, None)
}

/// [`records_to_sgf`] with the game's date as given ([`record_to_sgf_on`]).
///
/// # Errors
///
/// As [`records_to_sgf`].
pub fn records_to_sgf_on(
    records: &[kifu_ledger::Record],
    date: Option<String>,
) -> Result<String, ExportError> {
    let events: Vec<Event> = records
        .iter()
        .map(|r| r.decode())
        .collect::<Result<_, _>>()
        .map_err(|e| ExportError::Record(e.to_string()))?;
    Ok(kifu_go::sgf::write(&record_to_sgf_on(&events, date)?))
}
