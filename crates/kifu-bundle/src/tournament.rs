//! The tournament chain's checkpoint of a game's head, in an appeal bundle
//! (`docs/TRANSPARENCY.md` section 7, "Tournament checkpoint").
//!
//! A bundle may carry a tournament chain's records up to a
//! `game_checkpointed` (kind 51) naming the game: enough for an offline
//! reader to verify the chain (genesis with the director's key, links,
//! signatures, roles, the projection) and the checkpoint's signer.
//! [`check`] then checks that the checkpointed head is one of the bundle's
//! records.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_ledger::{Body, Hash, Record};
use kifu_tournament::Chain;
use serde::{Deserialize, Serialize};

/// What a bundle carries of a tournament chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentPart {
    /// The tournament id (hash of its genesis record), hex.
    pub tournament: String,
    /// The chain's stored records, seq 0 to the checkpoint, base64 (each
    /// `u32 LE length || event bytes || signature`).
    pub records: Vec<String>,
}

/// What a verified tournament part says.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentReport {
    /// Tournament id, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub tournament: String,
    /// Its short name.
    pub short_name: String,
    /// Seq of the `game_checkpointed` event in the tournament chain.
    pub checkpoint_event: u64,
    /// Round and board.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// The checkpointed head seq of the game.
    pub head_seq: u64,
    /// The checkpointed head hash, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub head_hash: String,
    /// Who signed the checkpoint: name and role as the tournament genesis
    /// names them.
    pub signer: String,
    /// The signer's role (`director`).
    pub signer_role: String,
    /// The bundle holds events after the checkpointed head.
    pub game_went_on: bool,
}

/// Why a bundle's tournament part does not check.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum TournamentError {
    /// A record is not base64.
    #[error("tournament record {0} is not base64")]
    NotBase64(usize),
    /// A record does not decode.
    #[error("tournament record {0}: {1}")]
    Record(usize, String),
    /// The part holds no record.
    #[error("the tournament part has no records")]
    Empty,
    /// The chain does not verify.
    #[error("the tournament chain does not verify: {0}; it was altered or forged")]
    Chain(String),
    /// The chain's genesis is not the tournament the part names.
    #[error(
        "the tournament chain's genesis is {found}, not the tournament {named} the bundle names"
    )]
    OtherTournament {
        /// The chain's id, hex.
        found: String,
        /// The id the part names.
        named: String,
    },
    /// The last record is not a game checkpoint.
    #[error("the tournament part does not end with a game checkpoint")]
    NoCheckpoint,
    /// The checkpoint is of another game.
    #[error("the tournament checkpoint is of game {0}, not of the bundle's game")]
    OtherGame(String),
    /// The game names another tournament.
    #[error("the game's genesis names the tournament '{named}', but the checkpoint comes from '{from}' ({id})")]
    NotTheGamesTournament {
        /// The tournament the game's genesis names.
        named: String,
        /// The short name of the chain.
        from: String,
        /// The chain's id, hex.
        id: String,
    },
    /// The checkpoint names a seq the bundle does not hold.
    #[error("the tournament checkpoint names the game's head at seq {head_seq}, but the bundle ends at seq {last}: events the tournament saw are missing")]
    EventsMissing {
        /// The checkpointed head seq.
        head_seq: u64,
        /// The bundle's last seq.
        last: u64,
    },
    /// The checkpoint names another record at that seq.
    #[error("the tournament checkpoint names record {named} at seq {head_seq}, but the bundle's record at seq {head_seq} is {held}: the checkpoint and the logged game disagree")]
    Disagree {
        /// The checkpointed head hash, hex.
        named: String,
        /// The seq.
        head_seq: u64,
        /// The bundle's record hash there, hex.
        held: String,
    },
}

/// The latest `game_checkpointed` of `game` in `chain` whose head seq is at
/// most `max_seq`: its seq in the tournament chain and the checkpoint.
pub fn latest_checkpoint(
    chain: &Chain,
    game: &Hash,
    max_seq: u64,
) -> Option<(usize, kifu_ledger::Checkpoint)> {
    let mut found = None;
    for (i, r) in chain.records.iter().enumerate() {
        if let Ok(e) = r.decode() {
            if let Body::GameCheckpointed(c) = e.body {
                if &c.game == game && c.head_seq <= max_seq {
                    found = Some((i, c));
                }
            }
        }
    }
    found
}

/// The tournament part for a bundle of `game` ending at `last_seq`
/// (`docs/TRANSPARENCY.md` section 7, "Tournament checkpoint"): the chain,
/// up to its checkpoint, of the tournament holding the latest checkpoint of
/// the game ([`latest_checkpoint`]; the latest in time when several chains
/// name it), or `None` when no chain does.
pub fn part_for<'a>(
    chains: impl IntoIterator<Item = &'a Chain>,
    game: &Hash,
    last_seq: u64,
) -> Option<TournamentPart> {
    let mut best: Option<(u64, &Chain, usize)> = None;
    for chain in chains {
        if let Some((i, _)) = latest_checkpoint(chain, game, last_seq) {
            let at = chain.records[i].decode().map(|e| e.at_ms).unwrap_or(0);
            if best.as_ref().is_none_or(|(t, _, _)| at >= *t) {
                best = Some((at, chain, i));
            }
        }
    }
    best.map(|(_, chain, i)| TournamentPart {
        tournament: hex::encode(chain.id()),
        records: chain.records[..=i]
            .iter()
            .map(|r| B64.encode(r.to_stored()))
            .collect(),
    })
}

/// Checks a bundle's tournament part against the bundle's game records
/// (already verified, seq 0 first). The error says what is wrong.
pub fn check(
    part: &TournamentPart,
    game: &Hash,
    records: &[Record],
) -> Result<TournamentReport, TournamentError> {
    let mut chain_records = Vec::with_capacity(part.records.len());
    for (i, r) in part.records.iter().enumerate() {
        let bytes = B64.decode(r).map_err(|_| TournamentError::NotBase64(i))?;
        chain_records.push(
            Record::from_stored(&bytes).map_err(|e| TournamentError::Record(i, e.to_string()))?,
        );
    }
    let Some(last) = chain_records.last() else {
        return Err(TournamentError::Empty);
    };
    let last_event = last
        .decode()
        .map_err(|e| TournamentError::Record(chain_records.len() - 1, e.to_string()))?;
    let chain =
        Chain::open(chain_records.clone()).map_err(|e| TournamentError::Chain(e.to_string()))?;
    if hex::encode(chain.id()) != part.tournament {
        return Err(TournamentError::OtherTournament {
            found: hex::encode(chain.id()),
            named: part.tournament.clone(),
        });
    }
    let Body::GameCheckpointed(c) = &last_event.body else {
        return Err(TournamentError::NoCheckpoint);
    };
    if &c.game != game {
        return Err(TournamentError::OtherGame(hex::encode(c.game)));
    }
    let genesis = &chain.projection.genesis;
    // The game's own genesis may name its tournament (by short name or id
    // prefix): then the checkpoint must come from that tournament.
    if let Some(first) = records.first() {
        if let Ok((_, g)) = kifu_ledger::check_genesis(first) {
            if let Some(t) = &g.tournament {
                let id = hex::encode(chain.id());
                let named = t.tournament == genesis.short_name
                    || (t.tournament.len() >= 16
                        && id.starts_with(&t.tournament.to_ascii_lowercase()));
                if !named {
                    return Err(TournamentError::NotTheGamesTournament {
                        named: t.tournament.clone(),
                        from: genesis.short_name.clone(),
                        id,
                    });
                }
            }
        }
    }
    let official = genesis
        .officials
        .iter()
        .find(|p| p.key == last_event.signer);
    let (signer, role) = match official {
        Some(p) => (p.name.clone(), format!("{:?}", p.role).to_ascii_lowercase()),
        None => (last_event.signer.to_hex(), "unknown".into()),
    };
    let head_seq = c.head_seq;
    let Some(rec) = usize::try_from(head_seq).ok().and_then(|s| records.get(s)) else {
        return Err(TournamentError::EventsMissing {
            head_seq,
            last: records.len().saturating_sub(1) as u64,
        });
    };
    if rec.hash() != c.head_hash {
        return Err(TournamentError::Disagree {
            named: hex::encode(c.head_hash),
            head_seq,
            held: hex::encode(rec.hash()),
        });
    }
    Ok(TournamentReport {
        tournament: part.tournament.clone(),
        short_name: genesis.short_name.clone(),
        checkpoint_event: last_event.seq,
        round: c.round,
        board: c.board,
        head_seq,
        head_hash: hex::encode(c.head_hash),
        signer,
        signer_role: role,
        game_went_on: (head_seq as usize) + 1 < records.len(),
    })
}

/// The sentence `kifu verify` prints for a verified tournament part.
pub fn sentence(t: &TournamentReport, bundle_head: u64) -> String {
    let mut s = format!(
        "the game's head as checkpointed by the tournament {} ({}) is seq {} (record {}; tournament {}, round {} board {}, its event {})",
        t.signer_role, t.signer, t.head_seq, t.head_hash, t.short_name, t.round, t.board, t.checkpoint_event
    );
    if t.game_went_on {
        s.push_str(&format!(
            "; the bundle's game goes on past the checkpoint, to seq {bundle_head}"
        ));
    } else {
        s.push_str(", the bundle's last event");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast, ChainBuilder};
    use kifu_ledger::Checkpoint;
    use kifu_ledger::{Keypair, Pairing, Participant, Role, TournamentRef};

    fn registration(id: &str) -> Body {
        Body::PlayerRegistered(kifu_ledger::testkit::registration(id))
    }

    /// A tournament named `short` whose director checkpoints `game` at
    /// `head_seq` with `head_hash`.
    fn tournament(short: &str, director: &Keypair, game: &ChainBuilder, head_seq: u64) -> Chain {
        let officials = vec![Participant {
            role: Role::Director,
            name: "Dir".into(),
            key: director.public(),
        }];
        let g = kifu_tournament::mcmahon_genesis("Open", short, 3, officials);
        let mut t = Chain::create(director, 1, g).unwrap();
        for body in [
            registration("A"),
            registration("B"),
            Body::Paired(Pairing {
                round: 1,
                board: 1,
                white: "A".into(),
                black: "B".into(),
                handicap: 0,
                game: Some(game.game),
            }),
            Body::GameCheckpointed(Checkpoint {
                round: 1,
                board: 1,
                game: game.game,
                head_seq,
                head_hash: game.records[head_seq as usize].hash(),
                result: None,
            }),
        ] {
            t.append(director, 2, body).unwrap();
        }
        t
    }

    fn part(t: &Chain) -> TournamentPart {
        TournamentPart {
            tournament: hex::encode(t.id()),
            records: t
                .records
                .iter()
                .map(|r| B64.encode(r.to_stored()))
                .collect(),
        }
    }

    fn game_in(cast: &Cast, short: &str) -> ChainBuilder {
        let mut g = cast.genesis("bundle test");
        g.tournament = Some(TournamentRef {
            tournament: short.into(),
            round: 1,
            board: 1,
        });
        let mut c = ChainBuilder::start(&cast.referee, g, 1_000);
        let sample = sample_game(cast, "moves");
        for r in &sample.records[1..4] {
            let e = r.decode().unwrap();
            let signer = [&cast.black, &cast.white, &cast.referee, &cast.recorder]
                .into_iter()
                .find(|k| k.public() == e.signer)
                .unwrap();
            c.push(signer, e.body);
        }
        c
    }

    #[test]
    fn the_named_tournaments_checkpoint_verifies_and_another_is_refused() {
        let cast = Cast::new();
        let game = game_in(&cast, "spring");
        let t = tournament("spring", &cast.director, &game, 2);
        let report = check(&part(&t), &game.game, &game.records).unwrap();
        assert_eq!(report.head_seq, 2);
        assert_eq!(report.signer, "Dir");
        assert_eq!(report.signer_role, "director");
        assert!(report.game_went_on);
        assert!(sentence(&report, 3)
            .contains("as checkpointed by the tournament director (Dir) is seq 2"));

        // A stranger's tournament of another name, checkpointing the same
        // head faithfully: not the tournament the game names.
        let forged = tournament("autumn", &cast.stranger, &game, 2);
        let e = check(&part(&forged), &game.game, &game.records)
            .unwrap_err()
            .to_string();
        assert!(e.contains("names the tournament 'spring'"), "{e}");

        // The tournament's id given for another chain.
        let mut p = part(&t);
        p.tournament = hex::encode(forged.id());
        let e = check(&p, &game.game, &game.records)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not the tournament"), "{e}");

        // The checkpoint's head is not the bundle's record at that seq.
        let other = game_in(&cast, "spring");
        let e = check(&part(&t), &game.game, &other.records[..2])
            .unwrap_err()
            .to_string();
        assert!(e.contains("events the tournament saw are missing"), "{e}");
    }

    #[test]
    fn a_bundle_carries_the_chain_of_the_latest_checkpoint_up_to_it() {
        let cast = Cast::new();
        let game = sample_game(&cast, "g");
        let last = game.records.len() as u64 - 1;
        let early = tournament("early", &cast.director, &game, 3);
        let late = tournament("late", &cast.director, &game, last);
        // Every checkpoint of the game at or below the bundle's end counts.
        let p = part_for([&early, &late], &game.game, last).unwrap();
        assert_eq!(p, part(&late));
        // A bundle ending before a checkpoint does not carry it.
        let p = part_for([&early, &late], &game.game, 3).unwrap();
        assert_eq!(p.tournament, hex::encode(early.id()));
        assert_eq!(part_for([&early], &game.game, 2), None);
        assert_eq!(part_for(std::iter::empty(), &game.game, last), None);
    }
}
