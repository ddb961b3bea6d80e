//! `kifu new-game`, `kifu append`, `kifu log`.

use std::io::Read;
use std::path::Path;

use kifu_ledger::{
    Body, Event, GameKind, Genesis, Hash, Participant, Record, Role, TimeControl, TournamentRef,
};
use serde_json::json;

use crate::cli::{AppendArgs, LogArgs, NewGameArgs, SoakArgs};
use crate::keys::{read_private, read_public};
use crate::remote::{open, open_existing, Backend};
use crate::render::{describe, record_json, short};
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

/// Parses komi such as `7.5`, `-3`, `0.5` into half points.
pub fn parse_komi(s: &str) -> Result<i32, Failure> {
    s.parse::<kifu_go::Komi>()
        .map(kifu_go::Komi::half_points)
        .map_err(|e| Failure::new(e.to_string()))
}

/// Parses a game kind name (`go`, `renju`, `gomoku-freestyle`, ...).
pub fn parse_game_kind(s: &str) -> Result<GameKind, Failure> {
    s.parse()
        .map_err(|e: kifu_ledger::text::UnknownGameKind| Failure::new(e.to_string()))
}

/// Parses a time control: a short string (`fischer:90m+30s`, ...) or JSON.
pub fn parse_time(s: &str) -> Result<TimeControl, Failure> {
    let t = s.trim();
    if t.starts_with('{') || t.starts_with('"') {
        return serde_json::from_str(t).map_err(|e| Failure::new(format!("time control: {e}")));
    }
    kifu_clock::parse_time_control(t)
        .map(|tc| kifu_game::convert::ledger_time_control(&tc))
        .map_err(|e| Failure::new(format!("time control '{s}': {e}")))
}

fn participant(role: Role, spec: &str) -> Result<Participant, Failure> {
    let (name, key) = spec.split_once('=').ok_or_else(|| {
        Failure::new(format!(
            "'{spec}' should be NAME=PUBLIC_KEY_FILE (or NAME=HEX)"
        ))
    })?;
    Ok(Participant {
        role,
        name: name.to_string(),
        key: read_public(key)?,
    })
}

fn genesis_from_args(a: &NewGameArgs) -> Result<Genesis, Failure> {
    if let Some(file) = &a.file {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::new(format!("{}: {e}", file.display())))?;
        let is_toml = file.extension().map(|e| e == "toml").unwrap_or(false);
        let g: Genesis = if is_toml {
            toml::from_str(&text).map_err(|e| Failure::new(format!("{}: {e}", file.display())))?
        } else {
            serde_json::from_str(&text)
                .map_err(|e| Failure::new(format!("{}: {e}", file.display())))?
        };
        return Ok(g);
    }
    let mut roster = Vec::new();
    if let Some(b) = &a.black {
        roster.push(participant(Role::Black, b)?);
    }
    if let Some(w) = &a.white {
        roster.push(participant(Role::White, w)?);
    }
    for (role, list) in [
        (Role::Referee, &a.referee),
        (Role::Recorder, &a.recorder),
        (Role::Director, &a.director),
        (Role::Committee, &a.committee),
    ] {
        for spec in list {
            roster.push(participant(role, spec)?);
        }
    }
    let game = parse_game_kind(&a.game)?;
    if a.opening.is_some() && matches!(game, kifu_ledger::GameKind::Go) {
        return Err(Failure::new(
            "--opening names a Renju opening rule; a Go game has none (drop it, or add --game renju)",
        ));
    }
    let ruleset = a
        .ruleset
        .clone()
        .unwrap_or_else(|| kifu_game::default_ruleset(game).to_string());
    let komi_half_points = match &a.komi {
        Some(k) => parse_komi(k)?,
        None => kifu_game::profile_komi(game, &ruleset, a.handicap)
            .map_err(|e| Failure::new(e.to_string()))?,
    };
    Ok(Genesis {
        game,
        ruleset,
        overrides: a
            .opening
            .as_ref()
            .map(|o| vec![("opening".to_string(), o.clone())])
            .unwrap_or_default(),
        board_size: a.size,
        handicap: a.handicap,
        komi_half_points,
        time_control: parse_time(&a.time)?,
        roster,
        tournament: a.tournament.as_ref().map(|t| TournamentRef {
            tournament: t.clone(),
            round: a.round,
            board: a.board,
        }),
        title: a.title.clone(),
        auto_declare: a.auto_declare,
    })
}

/// Checks what a genesis must hold before it is signed (the rules are in
/// kifu-game).
pub fn check_genesis_values(g: &Genesis) -> Result<(), Failure> {
    kifu_game::check_genesis_values(g).map_err(|e| Failure::new(e.to_string()))?;
    kifu_game::check_overrides(g).map_err(Failure::new)?;
    Ok(())
}

/// Signs and stores a genesis; returns the game id.
pub fn create_game(
    store: &Backend,
    key: &kifu_ledger::Keypair,
    g: Genesis,
    at_ms: u64,
) -> Result<Hash, Failure> {
    check_genesis_values(&g)?;
    let rec = Event::genesis(at_ms, key.public(), g).sign(key)?;
    let a = store.append(rec)?;
    Ok(a.game)
}

/// Signs and appends one body to a game; returns the record and its place.
pub fn append_body(
    store: &Backend,
    game: &Hash,
    key: &kifu_ledger::Keypair,
    at_ms: u64,
    body: Body,
) -> Result<kifu_store::Appended, Failure> {
    let head = store
        .head(game)?
        .ok_or_else(|| Failure::new(format!("no game {}", short(game))))?;
    let rec = Event::next(*game, head, at_ms, key.public(), body).sign(key)?;
    store.append(rec)
}

/// `kifu new-game`.
pub fn new_game(data: &Path, a: NewGameArgs) -> CmdResult {
    let key = read_private(&a.key)?;
    let mut g = genesis_from_args(&a)?;
    let devices = crate::device_cmd::requests(data, &a.device_request)?;
    kifu_game::seat::enrol(&mut g, &devices).map_err(|e| Failure::new(e.to_string()))?;
    let store = open(data)?;
    let game = create_game(&store, &key, g, a.at_ms.unwrap_or_else(now_ms))?;
    for (id, d) in a.device_request.iter().zip(&devices) {
        eprintln!(
            "device request {id}: {} ({}), key fingerprint {}",
            d.seat_text(),
            d.name,
            d.fingerprint()
        );
    }
    if a.json {
        let enrolled: Vec<_> = a
            .device_request
            .iter()
            .zip(&devices)
            .map(|(id, d)| json!({"request": id, "role": d.role, "name": d.name, "key": d.key, "fingerprint": d.fingerprint()}))
            .collect();
        say!(
            "{}",
            json!({ "game": hex::encode(game), "devices": enrolled })
        );
    } else {
        say!("{}", hex::encode(game));
    }
    Ok(())
}

/// Exit code of `kifu append --expect-seq/--after` when the chain is not
/// where the client expected it.
pub const EXIT_CONFLICT: u8 = 4;

/// `kifu append`: one body as JSON on stdin.
pub fn append(data: &Path, a: AppendArgs) -> CmdResult {
    let key = read_private(&a.key)?;
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let body: Body = serde_json::from_str(&input)
        .map_err(|e| Failure::new(format!("the event on standard input is not valid: {e}")))?;
    let store = open_existing(data)?;
    let game = store.resolve(&a.game)?;
    let at_ms = a.at_ms.unwrap_or_else(now_ms);
    let expect = match (a.expect_seq, &a.after) {
        (Some(n), _) => Some(kifu_store::Expect::Seq(n)),
        (None, Some(h)) => {
            let bytes = hex::decode(h.trim())
                .ok()
                .and_then(|b| <[u8; 32]>::try_from(b).ok())
                .ok_or_else(|| Failure::new(format!("--after {h}: not a 64-digit hex hash")))?;
            Some(kifu_store::Expect::After(bytes))
        }
        (None, None) => None,
    };
    let done = match expect {
        None => append_body(&store, &game, &key, at_ms, body)?,
        Some(e) => match store.append_expecting(&game, e, &key, at_ms, body) {
            Ok(d) => d,
            Err(err @ kifu_store::StoreError::Stale { .. }) => {
                return Err(Failure {
                    message: err.to_string(),
                    code: EXIT_CONFLICT,
                })
            }
            Err(err) => return Err(err.into()),
        },
    };
    if a.json {
        say!(
            "{}",
            json!({"game": hex::encode(done.game), "seq": done.seq, "hash": hex::encode(done.hash), "cursor": done.cursor, "new": done.new})
        );
    } else {
        say!(
            "{} seq {} to game {} (hash {}, cursor {})",
            if done.new {
                "appended"
            } else {
                "already written:"
            },
            done.seq,
            short(&done.game),
            short(&done.hash),
            done.cursor
        );
    }
    Ok(())
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

fn print_records(game: &Hash, records: &[Record], g: Option<&Genesis>, as_json: bool) {
    // The roster as the chain has changed it so far (key_replaced), so that
    // a new key is named as the participant it speaks for.
    let mut roster: Vec<kifu_ledger::Participant> = g.map(|g| g.roster.clone()).unwrap_or_default();
    let notation = g.map(kifu_game::Notation::of).unwrap_or_default();
    for r in records {
        if as_json {
            say!("{}", record_json(game, r));
            continue;
        }
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
                say!(
                    "{:>4}  {}  {who} {}",
                    e.seq,
                    kifu_clock::notation::iso8601_utc(e.at_ms),
                    describe(&e.body, &notation)
                );
            }
            Err(err) => say!("   ?  {}", err),
        }
    }
}

/// `kifu log`.
pub fn log(data: &Path, a: LogArgs) -> CmdResult {
    let store = open_existing(data)?;
    let games = match &a.game {
        Some(p) => vec![store.resolve(p)?],
        None => store.games()?,
    };
    for game in games {
        let g = store.genesis(&game)?;
        let records = store.read(&game, 0, None)?;
        if !a.json {
            say!(
                "game {}  ({})",
                hex::encode(game),
                crate::render::count(records.len(), "event")
            );
            for line in crate::render::game_heading(&g) {
                say!("  {line}");
            }
        }
        print_records(&game, &records, Some(&g), a.json);
    }
    Ok(())
}

/// `kifu soak`: appends clock presses for alternating players, printing
/// `acked SEQ HASH` after each append returns (that is, once it is durable).
pub fn soak(data: &Path, a: SoakArgs) -> CmdResult {
    use std::io::Write;
    let key = read_private(&a.key)?;
    let store = open_existing(data)?;
    let game = store.resolve(&a.game)?;
    let out = std::io::stdout();
    for i in 0..a.count {
        let player = if i % 2 == 0 {
            kifu_ledger::Color::Black
        } else {
            kifu_ledger::Color::White
        };
        let done = append_body(&store, &game, &key, i, Body::ClockPressed { player })?;
        let mut o = out.lock();
        writeln!(o, "acked {} {}", done.seq, hex::encode(done.hash))?;
        o.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
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
