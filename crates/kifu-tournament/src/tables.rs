//! The standings and the results of a tournament as `kifu tournament
//! standings` and `export` write them: the standings as JSON, as a text
//! table and as CSV, and the whole tournament as JSON beside the EGD `.h9`
//! and AGA files (`entry::results_file`). The numbers are
//! `kifu_standings`'; only the layout is made here, once for every face.

use std::collections::BTreeMap;
use std::str::FromStr;

use kifu_ledger::{Event, PublicKey, Registration};
use kifu_standings::{standings, Criterion, ModelError, Standings};
use serde::Serialize;
use serde_json::{json, Value};

use crate::entry::{self, EntryError, ResultsOptions};
use crate::hall::Num;
use crate::{Chain, TournamentError};

/// Why a table or a file cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The criteria asked for, or the standings model, refused.
    #[error(transparent)]
    Standings(#[from] ModelError),
    /// The tournament does not make a standings model.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The `.h9` or AGA file refused.
    #[error(transparent)]
    Results(#[from] EntryError),
}

/// A file `kifu tournament export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The EGD results file (`.h9`).
    H9,
    /// The AGA results file.
    Aga,
    /// The standings as CSV.
    Csv,
    /// The whole tournament and its standings as JSON.
    Json,
}

impl Format {
    /// The file name's extension: `h9`, `txt` (AGA), `csv`, `json`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::H9 => "h9",
            Format::Aga => "txt",
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    /// The media type of the file.
    pub fn media_type(self) -> &'static str {
        match self {
            Format::H9 | Format::Aga => "text/plain; charset=utf-8",
            Format::Csv => "text/csv; charset=utf-8",
            Format::Json => "application/json",
        }
    }
}

/// The name a downloaded file is offered under: the short name, every
/// character but ASCII letters, digits and `-` written `_`, and the
/// format's extension (`Spring Open` → `Spring_Open.h9`).
pub fn file_name(chain: &Chain, format: Format) -> String {
    let stem: String = chain
        .projection
        .genesis
        .short_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{stem}.{}", format.extension())
}

/// A format name not in the list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format '{0}' (h9, aga, csv, json)")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Ok(match s {
            "h9" => Format::H9,
            "aga" => Format::Aga,
            "csv" => Format::Csv,
            "json" => Format::Json,
            other => return Err(UnknownFormat(other.to_string())),
        })
    }
}

/// The standings after `after_round` (default: the last round with
/// pairings, `entry::round_counted`), ordered on `criteria` (a list such
/// as `MMS,SOSM`; default: the tournament's own), with every criterion's
/// value shown when `all`.
pub fn standings_of(
    chain: &Chain,
    after_round: Option<u32>,
    criteria: Option<&str>,
    all: bool,
) -> Result<Standings, TableError> {
    let round = entry::round_counted(chain, after_round);
    let criteria = match criteria {
        Some(c) => Criterion::parse_list(c)?,
        None => Vec::new(),
    };
    let shown: &[Criterion] = if all { &Criterion::ALL } else { &[] };
    let t = chain.projection.tournament()?;
    Ok(standings(&t, round, &criteria, shown)?)
}

/// `kifu tournament standings --json`: a tournament's standings after a
/// round: the criteria in order and each player's place and values
/// (OpenGotha's criteria names).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandingsTable {
    /// The criteria in order (OpenGotha names: `MMS`, `SOSM`, `SOSOSM`,
    /// ...): the columns.
    pub criteria: Vec<String>,
    /// The round the standings are after.
    pub round: u32,
    /// Each player in order of place, with the value of each criterion.
    pub table: Vec<StandingsLine>,
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandingsLine {
    /// The place (shared by ex-aequo players), from 1.
    #[schemars(range(min = 1))]
    pub place: u32,
    /// The player's registration id.
    pub player: String,
    /// Each criterion's value, by its name: a whole number, or an exact
    /// half or quarter.
    pub values: BTreeMap<String, Num>,
}

/// The standings as [`StandingsTable`].
pub fn standings_table_of(st: &Standings) -> StandingsTable {
    let columns: Vec<String> = st
        .rows
        .first()
        .map(|r| r.values.iter().map(|(c, _)| c.name().to_string()).collect())
        .unwrap_or_else(|| st.criteria.iter().map(|c| c.name().to_string()).collect());
    StandingsTable {
        criteria: columns,
        round: st.round,
        table: st
            .rows
            .iter()
            .map(|r| StandingsLine {
                place: r.place,
                player: r.player.to_string(),
                values: r
                    .values
                    .iter()
                    .map(|(c, v)| (c.name().to_string(), Num(*v)))
                    .collect(),
            })
            .collect(),
    }
}

/// The standings as JSON ([`StandingsTable`]).
pub fn standings_json(st: &Standings) -> Value {
    // Strings and numbers: the table always serialises.
    serde_json::to_value(standings_table_of(st)).unwrap_or(Value::Null)
}

/// The standings as a readable table: a heading, then a line per player
/// (a place shared with the line above is left blank).
pub fn standings_table(chain: &Chain, st: &Standings) -> String {
    let p = &chain.projection;
    let mut out = format!("{} — standings after round {}\n", p.genesis.name, st.round);
    let columns: Vec<&str> = st
        .rows
        .first()
        .map(|r| r.values.iter().map(|(c, _)| c.name()).collect())
        .unwrap_or_default();
    out.push_str(&format!(
        "{:>3}  {:<8} {:<24} {:>3}",
        "Pl", "Id", "Name", "Rk"
    ));
    for c in &columns {
        out.push_str(&format!(" {:>7}", c));
    }
    out.push('\n');
    for (k, r) in st.rows.iter().enumerate() {
        let place = if k > 0 && st.rows[k - 1].place == r.place {
            String::new()
        } else {
            r.place.to_string()
        };
        let (name, rank) = p
            .player(&r.player)
            .map(|x| (format!("{} {}", x.surname, x.given), x.rank.clone()))
            .unwrap_or_default();
        out.push_str(&format!(
            "{:>3}  {:<8} {:<24} {:>3}",
            place, r.player, name, rank
        ));
        for (_, v) in &r.values {
            out.push_str(&format!(" {:>7}", v.to_string()));
        }
        out.push('\n');
    }
    out
}

/// A CSV field (RFC 4180): quoted, its quotes doubled, when it holds a
/// comma, a quote or a line break. A text a spreadsheet would take for a
/// formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return)
/// is written with a `'` before it, as OWASP's "CSV Injection" advises, so
/// that a player's name is shown, never run; a number (`-3`, `+2.5`) is
/// written as it is.
pub fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']) && s.parse::<f64>().is_err();
    let s = if formula {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// The standings as CSV: `place,player,surname,given,rank,country,club`,
/// then a column per criterion.
pub fn standings_csv(chain: &Chain, st: &Standings) -> String {
    let p = &chain.projection;
    let mut out = String::from("place,player,surname,given,rank,country,club");
    for c in &st.criteria {
        out.push(',');
        out.push_str(c.name());
    }
    out.push('\n');
    for r in &st.rows {
        let reg = p.player(&r.player);
        let f = |g: fn(&Registration) -> &str| reg.map(|x| csv_field(g(x))).unwrap_or_default();
        out.push_str(&format!(
            "{},{},{},{},{},{},{}",
            r.place,
            csv_field(&r.player),
            f(|x| &x.surname),
            f(|x| &x.given),
            f(|x| &x.rank),
            f(|x| &x.country),
            f(|x| &x.club)
        ));
        for (_, v) in &r.values {
            out.push_str(&format!(",{v}"));
        }
        out.push('\n');
    }
    out
}

/// The whole tournament as JSON: its id and names, the registrations, the
/// games, byes and absences of the standings model, and the standings
/// ([`standings_json`]).
pub fn tournament_json(chain: &Chain, st: &Standings) -> Result<Value, TableError> {
    let p = &chain.projection;
    let t = p.tournament()?;
    let games: Vec<Value> = t.games.iter().map(|g| json!(g)).collect();
    Ok(json!({
        "tournament": hex::encode(chain.id()),
        "name": p.genesis.name,
        "short_name": p.genesis.short_name,
        "players": p.players,
        "games": games,
        "byes": t.byes.iter().map(|(r, id)| json!({"round": r, "player": id})).collect::<Vec<_>>(),
        "absences": t.absences.iter().map(|(r, id)| json!({"round": r, "player": id})).collect::<Vec<_>>(),
        "standings": standings_json(st),
    }))
}

/// The file `format` of the tournament, counted to `o.after_round`.
pub fn export(chain: &Chain, format: Format, o: &ResultsOptions) -> Result<String, TableError> {
    // The standings model is made first: a tournament that makes none is
    // refused in its words whichever the format.
    chain.projection.tournament()?;
    Ok(match format {
        Format::H9 => entry::results_file(chain, "h9", o)?,
        Format::Aga => entry::results_file(chain, "aga", o)?,
        Format::Csv | Format::Json => {
            let round = entry::round_counted(chain, o.after_round);
            let st = standings_of(chain, Some(round), None, false)?;
            if format == Format::Json {
                let doc = tournament_json(chain, &st)?;
                // A Value always serialises.
                format!(
                    "{}\n",
                    serde_json::to_string_pretty(&doc).unwrap_or_default()
                )
            } else {
                standings_csv(chain, &st)
            }
        }
    })
}

/// Who signed, in words: the official's name and role (`Rita (referee)`),
/// else the first 16 hex digits of the key.
pub fn signer_words(chain: &Chain, key: &PublicKey) -> String {
    chain
        .projection
        .genesis
        .officials
        .iter()
        .find(|p| p.key == *key)
        .map(|p| format!("{} ({})", p.name, p.role.word()))
        .unwrap_or_else(|| key.to_hex()[..16].to_string())
}

/// An event of the chain as `kifu tournament log` writes it: its sequence
/// number, kind, what it states (`kifu_ledger::tournament::describe`) and
/// who signed it.
pub fn log_line(chain: &Chain, e: &Event) -> String {
    format!(
        "{:>4}  {:<22}  {}  — {}",
        e.seq,
        e.body.kind_name(),
        kifu_ledger::tournament::describe(&e.body),
        signer_words(chain, &e.signer)
    )
}

/// A line of `kifu tournament log --json`: one fact of a tournament chain:
/// its place, time, signer, kind and body.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogLine {
    /// When it was signed (ms since the Unix epoch, the signer's clock).
    pub at_ms: u64,
    /// The fact, in the JSON of docs/FORMAT.md section 4.
    #[schemars(with = "kifu_game::document::EventBody")]
    pub body: kifu_ledger::Body,
    /// The kind, in words (`player registered`).
    pub kind: String,
    /// Its place in the chain.
    pub seq: u64,
    /// Who signed it, as the tournament names them ([`signer_words`]).
    pub signer: String,
}

/// An event of the chain as `kifu tournament log --json` writes it
/// ([`LogLine`]).
pub fn log_json(chain: &Chain, e: &Event) -> Value {
    let line = LogLine {
        at_ms: e.at_ms,
        body: e.body.clone(),
        kind: e.body.kind_name().to_string(),
        seq: e.seq,
        signer: signer_words(chain, &e.signer),
    };
    // The body is the ledger's JSON: it always serialises.
    serde_json::to_value(line).unwrap_or(Value::Null)
}
