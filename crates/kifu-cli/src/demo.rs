//! `kifu demo`: a short, complete game recorded and verified.

use clap::Args;
use std::path::Path;

use kifu_game::demo::Signer;
use kifu_ledger::{verify_records, Body, Event, Keypair};

use crate::game_cmd::{append_body, create_game};
use crate::keys::{generate, read_private, write_pair};
use crate::remote::open;
use crate::render::{count, describe};
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

/// Records the demonstration into the store (or through the server), each
/// fact signed by its seat's key, and keeps a line a fact.
struct Recording<'a> {
    at: u64,
    notation: kifu_game::Notation,
    game: kifu_ledger::Hash,
    store: &'a crate::remote::Backend,
    cast: &'a Cast,
    log: Vec<String>,
}

impl kifu_game::demo::Recorder for Recording<'_> {
    type Error = Failure;

    fn record(&mut self, s: Signer, after_ms: u64, body: Body) -> Result<u64, Failure> {
        self.at += after_ms;
        let line = describe(&body, &self.notation);
        let key = match s {
            Signer::Black => &self.cast.black,
            Signer::White => &self.cast.white,
            Signer::Referee => &self.cast.referee,
            Signer::Director => &self.cast.director,
            Signer::Committee(i) => &self.cast.committee[i],
        };
        let done = append_body(self.store, &self.game, key, self.at, body)?;
        self.log.push(format!("seq {:>2}: {line}", done.seq));
        Ok(done.seq)
    }

    fn events(&mut self) -> Result<Vec<Event>, Failure> {
        let records = self.store.read(&self.game, 0, None)?;
        Ok(records
            .iter()
            .map(|r| r.decode())
            .collect::<Result<_, _>>()?)
    }
}

struct Cast {
    black: Keypair,
    white: Keypair,
    referee: Keypair,
    director: Keypair,
    /// Appeals committee: three members and a reserve.
    committee: Vec<Keypair>,
}

impl Cast {
    fn public(&self) -> kifu_game::demo::Cast {
        kifu_game::demo::Cast {
            black: self.black.public(),
            white: self.white.public(),
            referee: self.referee.public(),
            director: self.director.public(),
            committee: [
                self.committee[0].public(),
                self.committee[1].public(),
                self.committee[2].public(),
                self.committee[3].public(),
            ],
        }
    }
}

fn cast(keys: &Path) -> Result<Cast, Failure> {
    // Keys of an earlier demo in the same directory are kept and reused, so
    // that the games it recorded can still be signed for.
    let make = |name: &str| -> Result<Keypair, Failure> {
        let base = keys.join(name);
        let existing = base.with_extension("key");
        if existing.exists() {
            return read_private(&existing);
        }
        let k = generate()?;
        write_pair(&base, &k, false)?;
        Ok(k)
    };
    Ok(Cast {
        black: make("black")?,
        white: make("white")?,
        referee: make("referee")?,
        director: make("director")?,
        committee: vec![
            make("committee-1")?,
            make("committee-2")?,
            make("committee-3")?,
            make("committee-reserve")?,
        ],
    })
}

/// `kifu demo`: a game with an illegal move unwound, a dispute, a referee's
/// judgement resumed under protest, a warning, an appeal and the appeals
/// committee's decision.
///
/// The participants' keys are kept in `DATA/demo-keys`; through a server
/// with no `--data` named, in a new directory under the system's temporary
/// directory (the working directory is left alone), printed at the end.
pub fn demo(data: &Path, data_named: bool, a: DemoArgs) -> CmdResult {
    let keys = match crate::endpoint::server() {
        Some(_) if !data_named => fresh_key_dir()?,
        _ => data.join("demo-keys"),
    };
    let c = cast(&keys)?;
    let store = open(data)?;
    let genesis = kifu_game::demo::genesis(&c.public()).map_err(|e| Failure::new(e.to_string()))?;
    let mut recorder = Recording {
        at: now_ms(),
        notation: kifu_game::Notation::of(&genesis),
        game: [0; 32],
        store: &store,
        cast: &c,
        log: Vec::new(),
    };
    recorder.game = create_game(&store, &c.referee, genesis, recorder.at)?;
    let game = recorder.game;
    recorder
        .log
        .push(format!("created game {}", hex::encode(game)));
    kifu_game::demo::play(&c.public(), &mut recorder).map_err(|e| match e {
        kifu_game::demo::DemoError::Recorder(f) => f,
        e => Failure::new(e.to_string()),
    })?;
    let log = recorder.log;
    let records = store.all_records()?;
    let report = verify_records(&records);
    if !report.ok() {
        return Err(Failure::new(format!(
            "the demo store does not verify: {}",
            report.problems[0]
        )));
    }
    if a.json {
        say!(
            "{}",
            serde_json::to_string(&kifu_archive::printed::Demonstration {
                events: log.len() as u64,
                game: hex::encode(game),
                keys: keys.display().to_string(),
                store_events: records.len() as u64,
                verified: true,
            })?
        );
    } else {
        for l in &log {
            say!("{l}");
        }
        say!(
            "verified the store in {}: {}, {}, every link, signature and role checks",
            crate::endpoint::server()
                .map(str::to_string)
                .unwrap_or_else(|| data.display().to_string()),
            count(report.games.len(), "game"),
            count(records.len(), "event")
        );
        let data_arg = match crate::endpoint::server() {
            Some(url) => format!(" --server {}", shell_word(url)),
            None if data == Path::new("./kifu-data") || data == Path::new("kifu-data") => {
                String::new()
            }
            None => format!(" --data {}", shell_word(&data.display().to_string())),
        };
        say!(
            "keys are in {}; try: kifu{data_arg} log {}",
            keys.display(),
            &hex::encode(game)[..12]
        );
    }
    // Tournament chains are files of the data directory: through a server
    // the demo records the game only.
    if let crate::remote::Backend::Local(store) = &store {
        crate::tournament_cmd::demo_tournament(data, store, game, &c.director, &c.referee, a.json)?;
    }
    Ok(())
}

/// A new directory for the demo's keys under the system's temporary
/// directory, kept after the command.
fn fresh_key_dir() -> Result<std::path::PathBuf, Failure> {
    let base = std::env::temp_dir();
    for attempt in 0..100u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = base.join(format!(
            "kifu-demo-keys-{}-{nanos:08x}{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Failure::new(format!("{}: {e}", dir.display()))),
        }
    }
    Err(Failure::new(format!(
        "cannot make a directory for the demo's keys in {}",
        base.display()
    )))
}

/// A word as a POSIX shell reads it: quoted when it holds anything but
/// letters, digits and `/._-+:,=`.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `kifu demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Print what was done as JSON.
    #[arg(long)]
    pub json: bool,
}
