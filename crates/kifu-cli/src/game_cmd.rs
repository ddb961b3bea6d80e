//! `kifu new-game`, `kifu append`, `kifu log`.

use clap::Args;
use std::io::Read;
use std::path::Path;
use std::path::PathBuf;

use kifu_archive::printed::{Appended, DeviceEnrolled, GameCreated};
use kifu_ledger::{
    Body, Event, GameKind, Genesis, Hash, Participant, Role, TimeControl, TournamentRef,
};

use crate::keys::{read_private, read_public};
use crate::remote::{open, open_existing, Backend};
use crate::render::{record_json, short};
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
    kifu_game::NewGame {
        game: parse_game_kind(&a.game)?,
        ruleset: a.ruleset.clone(),
        opening: a.opening.clone(),
        board_size: a.size,
        handicap: a.handicap,
        komi_half_points: a.komi.as_deref().map(parse_komi).transpose()?,
        time_control: parse_time(&a.time)?,
        roster,
        tournament: a.tournament.as_ref().map(|t| TournamentRef {
            tournament: t.clone(),
            round: a.round,
            board: a.board,
        }),
        title: a.title.clone(),
        auto_declare: a.auto_declare,
    }
    .settle()
    .map_err(|e| Failure::new(e.to_string()))
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
    Ok(store.append(rec)?)
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
        let devices = a
            .device_request
            .iter()
            .zip(&devices)
            .map(|(id, d)| DeviceEnrolled {
                fingerprint: d.fingerprint(),
                key: d.key,
                name: d.name.clone(),
                request: id.clone(),
                role: d.role,
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string(&GameCreated {
                devices,
                game: hex::encode(game),
            })?
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
            serde_json::to_string(&Appended {
                cursor: done.cursor,
                game: hex::encode(done.game),
                hash: hex::encode(done.hash),
                new: done.new,
                seq: done.seq,
            })?
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
            for line in kifu_game::listing::game_heading(&g) {
                say!("  {line}");
            }
        }
        if a.json {
            for r in &records {
                say!("{}", record_json(&game, r));
            }
        } else {
            for line in kifu_game::listing::log_lines(&records, Some(&g)) {
                say!("{line}");
            }
        }
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

/// `kifu new-game`.
#[derive(Debug, Args)]
pub struct NewGameArgs {
    /// Private key (PKCS#8 PEM) that signs the genesis; its public key must be
    /// in the roster as director, referee or recorder.
    #[arg(long)]
    pub key: PathBuf,
    /// Read the whole genesis from a TOML or JSON file (by extension) instead
    /// of the flags below.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// go, renju, gomoku-freestyle or gomoku-standard.
    #[arg(long, default_value = "go")]
    pub game: String,
    /// Ruleset profile (default: the LGC 2023 rules for Go, the RIF rules
    /// for Renju, the Gomoku rule of the same name for Gomoku).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    pub size: u8,
    /// Handicap stones.
    #[arg(long, default_value_t = 0)]
    pub handicap: u8,
    /// Komi, e.g. 7.5 or -0.5 (a multiple of 0.5). Default: the profile's
    /// komi for an even or a handicap game (each profile's in
    /// docs/RULESETS.md); none in Renju.
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<String>,
    /// Time control: none, sudden:30m, fischer:90m+30s (cap: fischer:90m+30s/120m),
    /// byoyomi:60m+5x30s, canadian:60m+25/10m, simple:30s; units h, m, s, ms.
    #[arg(long, default_value = "none")]
    pub time: String,
    /// Black player as NAME=PUBKEY_FILE.
    #[arg(long)]
    pub black: Option<String>,
    /// White player as NAME=PUBKEY_FILE.
    #[arg(long)]
    pub white: Option<String>,
    /// Referee as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub referee: Vec<String>,
    /// Recording device or server as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub recorder: Vec<String>,
    /// Tournament director as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub director: Vec<String>,
    /// Appeals committee member as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub committee: Vec<String>,
    /// Tournament id or name.
    #[arg(long)]
    pub tournament: Option<String>,
    /// Round number.
    #[arg(long, default_value_t = 1)]
    pub round: u32,
    /// Board number.
    #[arg(long, default_value_t = 1)]
    pub board: u32,
    /// Free text naming the game.
    #[arg(long, default_value = "")]
    pub title: String,
    /// Renju online play: fives are declared automatically.
    #[arg(long)]
    pub auto_declare: bool,
    /// Renju opening rule: free (the default), rif (the RIF rule: three
    /// stones, a swap, the fourth, two fifth-move offers), yamaguchi,
    /// soosorv-N (soosorv-8: the World Championship's), taraguchi-N.
    #[arg(long)]
    pub opening: Option<String>,
    /// A board device's request for a seat, by its number (`GET /devices`
    /// lists them with their fingerprints): its key joins the roster at the
    /// seat it asked for (repeatable).
    #[arg(long = "device-request")]
    pub device_request: Vec<String>,
    /// Timestamp in ms since the Unix epoch (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu append`.
#[derive(Debug, Args)]
pub struct AppendArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// Private key (PKCS#8 PEM) of the signer.
    #[arg(long)]
    pub key: PathBuf,
    /// Timestamp in ms since the Unix epoch (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Retry-safe: the event must take this seq. A retry whose event is
    /// already there is recognised; another event there is a conflict.
    #[arg(long, conflicts_with = "after")]
    pub expect_seq: Option<u64>,
    /// Retry-safe: the event must follow the record with this hash (hex).
    #[arg(long)]
    pub after: Option<String>,
}

/// `kifu log`.
#[derive(Debug, Args)]
pub struct LogArgs {
    /// Game id or unique prefix; all games when omitted.
    pub game: Option<String>,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// `kifu soak` (hidden).
#[derive(Debug, Args)]
pub struct SoakArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// A recorder's private key.
    #[arg(long)]
    pub key: PathBuf,
    /// How many events.
    #[arg(long, default_value_t = 1000)]
    pub count: u64,
}
