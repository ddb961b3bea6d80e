//! An SGF (`FF[4]`) Go record read into a signed chain: what `kifu sgf
//! import` stores. The game information becomes the genesis (`PB`/`PW` by
//! name, `HA` and `AB` as the handicap, `KM` as komi or the ruleset's own,
//! `TM`/`OT` as the time control, `EV`/`RO` as the tournament), the moves
//! become stones and passes, `BL`/`WL`/`OB`/`OW` clock readings, and `RE`
//! the declared result. The recorder signs everything, for the players too
//! when their keys are not given, as the scorer does at a real board.
//!
//! Pure: the bytes and the time come in, the records and the warnings go
//! out; reading files and storing are the caller's.

use kifu_clock::TimeControl;
use kifu_go::sgf::{self, SgfGame};
use kifu_go::Ruleset;
use kifu_ledger::{
    Body, Color, Event, GameKind, GameResult, Genesis, Hash, Head, Keypair, Outcome, Participant,
    PublicKey, Record, ResultBy, Role, TournamentRef,
};

use crate::convert::{ledger_color, ledger_point};

/// Why an SGF record is not imported (nothing is written for it).
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file is not SGF a Go game can be read from.
    #[error("{0}")]
    Sgf(#[from] kifu_go::Error),
    /// `AW` stones: a position, not a game.
    #[error("white setup stones (AW) describe a position, not a game; nothing imported")]
    WhiteSetup,
    /// More handicap stones than a genesis holds.
    #[error("handicap too large")]
    HandicapTooLarge,
    /// The game information gives a genesis kifu refuses.
    #[error("{0}")]
    Genesis(#[from] crate::GenesisError),
    /// A record could not be signed.
    #[error("{0}")]
    Sign(#[from] kifu_ledger::LedgerError),
}

/// What every record of an import shares.
#[derive(Clone)]
pub struct ImportOptions<'a> {
    /// The recorder, who signs every event.
    pub key: &'a Keypair,
    /// The ruleset the games were played under (its komi when `KM` is absent).
    pub ruleset: Ruleset,
    /// Black's key, when known (else the recorder signs for Black).
    pub black_key: Option<PublicKey>,
    /// White's key, likewise.
    pub white_key: Option<PublicKey>,
    /// The time every event is stamped with (ms since the Unix epoch).
    pub at_ms: u64,
}

/// One record read into a chain, not yet stored.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The game id (the genesis hash).
    pub game: Hash,
    /// The signed records, genesis first.
    pub records: Vec<Record>,
    /// What was read with a default or left out, one line each.
    pub warnings: Vec<String>,
}

/// The time control an SGF's `TM` and `OT` describe, as far as they say
/// (`OT` is read by kifu-clock, next to its writer).
pub fn time_control(rec: &SgfGame) -> TimeControl {
    let main_ms = rec.time_limit_ms.unwrap_or(0).max(0) as u64;
    if let Some(tc) = rec
        .overtime
        .as_deref()
        .and_then(|ot| kifu_clock::notation::parse_sgf_overtime(main_ms, ot))
    {
        return tc;
    }
    if rec.time_limit_ms.is_some_and(|t| t > 0) {
        TimeControl::SuddenDeath { main_ms }
    } else {
        TimeControl::Untimed
    }
}

/// Reads the bytes of one SGF file (`file_name` names the recorder and,
/// without game information, the title) into a signed chain.
///
/// # Errors
///
/// The reason the record is not imported.
pub fn import(bytes: &[u8], file_name: &str, cx: &ImportOptions) -> Result<Imported, ImportError> {
    let (rec, warnings) = sgf::read_bytes(bytes)?;
    let mut warnings: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    let rs = &cx.ruleset;
    if !rec.setup_white.is_empty() {
        return Err(ImportError::WhiteSetup);
    }
    let handicap = rec.handicap.max(rec.setup_black.len() as u32);
    let komi = match rec.komi {
        Some(k) => k,
        None => {
            let k = rs.komi(handicap);
            warnings.push(format!("KM: none given; komi {k} from {}", rs.name()));
            k
        }
    };
    let info = sgf::GameInfo::from_game(&rec);
    let recorder = cx.key.public();
    let mut roster = vec![Participant {
        role: Role::Recorder,
        name: format!("recorder ({file_name})"),
        key: recorder,
    }];
    // A player whose key is not given is recorded by name; the recorder signs
    // for them, as the scorer does at a real board.
    for (role, name, key, default) in [
        (Role::Black, &rec.black_player, cx.black_key, "Black"),
        (Role::White, &rec.white_player, cx.white_key, "White"),
    ] {
        roster.push(Participant {
            role,
            name: name.clone().unwrap_or_else(|| default.to_string()),
            key: key.unwrap_or(recorder),
        });
    }
    let tournament = info.get("EV").map(|ev| TournamentRef {
        tournament: ev.to_string(),
        round: info
            .get("RO")
            .and_then(|r| {
                let digits: String = r.trim().chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            })
            .unwrap_or(1),
        board: 1,
    });
    // Handicap stones on the standard points are implied by the genesis; any
    // other placement is free: Black's stones before White's first move.
    let fixed = kifu_go::fixed_handicap_points(rec.size, handicap).ok();
    let on_standard_points = rec.setup_black.is_empty()
        || fixed.as_ref().is_some_and(|f| {
            f.len() == rec.setup_black.len() && f.iter().all(|p| rec.setup_black.contains(p))
        });
    let overrides = vec![(
        "handicap_placement".to_string(),
        if on_standard_points { "fixed" } else { "free" }.to_string(),
    )];
    let mut title = info.to_sgf_text();
    if title.is_empty() {
        title = format!("GN[{}]", file_name.replace(['\\', ']'], "_"));
    }
    let time_control = time_control(&rec);
    let genesis = Genesis {
        game: GameKind::Go,
        ruleset: rs.name().to_string(),
        overrides: if handicap >= 2 { overrides } else { vec![] },
        board_size: rec.size,
        handicap: u8::try_from(handicap).map_err(|_| ImportError::HandicapTooLarge)?,
        komi_half_points: komi.half_points(),
        time_control: crate::convert::ledger_time_control(&time_control),
        roster,
        tournament,
        title,
        auto_declare: false,
    };
    crate::check_genesis_values(&genesis)?;
    let key = cx.key;
    let at = cx.at_ms;
    let first = Event::genesis(at, key.public(), genesis).sign(key)?;
    let game = first.hash();
    let mut records = vec![first];
    let mut head = Head { seq: 0, hash: game };
    let mut push = |body: Body, records: &mut Vec<Record>| -> Result<(), ImportError> {
        let r = Event::next(game, head, at, key.public(), body).sign(key)?;
        head = Head {
            seq: head.seq + 1,
            hash: r.hash(),
        };
        records.push(r);
        Ok(())
    };
    // Freely placed handicap stones are placed by Black before White's first move.
    for p in rec.setup_black.iter().filter(|_| !on_standard_points) {
        push(
            Body::StonePlaced {
                player: Color::Black,
                stone: Color::Black,
                point: ledger_point(*p),
            },
            &mut records,
        )?;
    }
    // What each clock last showed: the main time at the start (when the file
    // gives one), then each BL/WL. A reading is recorded only on a move
    // where the file has one, and only when both clocks are known (the clock
    // not running keeps what it showed). BL/WL and OB/OW are read as SGF
    // FF[4] defines them and kifu's export writes them (`kifu_clock::sgf`):
    // the time left in the phase under way (main time, or the byo-yomi
    // period or Canadian block) and, in overtime only, the periods or stones
    // left; a BL without OB is a main-time reading, so a count is never
    // carried over to a time it was not given with.
    let start = rec.time_limit_ms.filter(|t| *t > 0).map(|t| t as u64);
    let (mut bl, mut wl) = (start, start);
    let (mut ob, mut ow) = (None::<u32>, None::<u32>);
    let mut unread = 0usize;
    for m in &rec.moves {
        let c = ledger_color(m.color);
        let body = match m.point {
            Some(p) => Body::StonePlaced {
                player: c,
                stone: c,
                point: ledger_point(p),
            },
            None => Body::Pass {
                player: c,
                pass_stone: rs.pass_stones,
            },
        };
        push(body, &mut records)?;
        if m.black_time_left_ms.is_none() && m.white_time_left_ms.is_none() {
            continue;
        }
        if let Some(v) = m.black_time_left_ms {
            (bl, ob) = (
                Some(v.max(0).unsigned_abs()),
                m.black_overtime_left.map(u32::from),
            );
        }
        if let Some(v) = m.white_time_left_ms {
            (wl, ow) = (
                Some(v.max(0).unsigned_abs()),
                m.white_overtime_left.map(u32::from),
            );
        }
        match (bl, wl) {
            (Some(black_ms), Some(white_ms)) => push(
                Body::ClockReading {
                    black_ms,
                    white_ms,
                    black_overtime: ob,
                    white_overtime: ow,
                    read_by: "SGF record".into(),
                },
                &mut records,
            )?,
            _ => unread += 1,
        }
    }
    if unread > 0 {
        warnings.push(format!(
            "BL/WL: {unread} move(s) give one clock only and the other is not known yet: no reading recorded there"
        ));
    }
    if let Some(re) = rec.result.as_deref() {
        match GameResult::from_sgf(re) {
            Some(r) => {
                if matches!(r.by, ResultBy::Other(ref s) if s == "unspecified") {
                    warnings.push(format!(
                        "RE: {re:?} read as a win for {} without the manner",
                        if r.outcome == Outcome::Win(Color::Black) { "Black" } else { "White" }
                    ));
                }
                push(Body::ResultDeclared(r), &mut records)?;
            }
            None => warnings.push(format!(
                "RE: {re:?} is not a result kifu can read: kept in the game information, no result declared"
            )),
        }
    }
    Ok(Imported {
        game,
        records,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::Point;

    fn options(key: &Keypair, ruleset: Ruleset) -> ImportOptions<'_> {
        ImportOptions {
            key,
            ruleset,
            black_key: None,
            white_key: None,
            at_ms: 1_700_000_000_000,
        }
    }

    fn events(i: &Imported) -> Vec<Event> {
        i.records.iter().map(|r| r.decode().unwrap()).collect()
    }

    fn genesis(i: &Imported) -> Genesis {
        match &events(i)[0].body {
            Body::GameCreated(g) => g.clone(),
            b => panic!("not a genesis: {b:?}"),
        }
    }

    #[test]
    fn game_information_becomes_the_genesis_and_re_the_declared_result() {
        let key = Keypair::from_seed([1; 32]);
        let sgf = b"(;FF[4]GM[1]SZ[9]PB[Honinbo]PW[Gennan]KM[6.5]EV[Club cup]RO[3 (final)]TM[600]RE[W+2.5];B[ee];W[cc];B[];W[])";
        let i = import(sgf, "cup.sgf", &options(&key, Ruleset::japanese())).unwrap();
        let g = genesis(&i);
        assert_eq!(g.board_size, 9);
        assert_eq!(g.komi_half_points, 13);
        assert_eq!(g.roster[1].name, "Honinbo");
        assert_eq!(g.roster[2].name, "Gennan");
        assert_eq!(g.roster[0].name, "recorder (cup.sgf)");
        let t = g.tournament.unwrap();
        assert_eq!((t.tournament.as_str(), t.round), ("Club cup", 3));
        assert!(matches!(
            g.time_control,
            kifu_ledger::TimeControl::SuddenDeath { main_ms: 600_000 }
        ));
        let ev = events(&i);
        assert_eq!(ev.len(), 6);
        assert!(matches!(
            ev[3].body,
            Body::Pass {
                player: Color::Black,
                ..
            }
        ));
        match &ev[5].body {
            Body::ResultDeclared(r) => assert_eq!(r.outcome, Outcome::Win(Color::White)),
            b => panic!("not a result: {b:?}"),
        }
        assert!(i.warnings.is_empty(), "{:?}", i.warnings);
        // Every record is signed by the recorder and chained.
        assert!(kifu_ledger::verify_records(&i.records).ok());
    }

    #[test]
    fn without_km_the_rulesets_komi_is_taken_with_a_warning() {
        let key = Keypair::from_seed([2; 32]);
        let i = import(
            b"(;FF[4]SZ[19];B[pd])",
            "x.sgf",
            &options(&key, Ruleset::japanese()),
        )
        .unwrap();
        assert_eq!(genesis(&i).komi_half_points, 13);
        assert!(i.warnings.iter().any(|w| w.starts_with("KM: none given")));
        // A handicap game takes the ruleset's handicap komi.
        let h = import(
            b"(;FF[4]SZ[19]HA[2]AB[pd][dp];W[qp])",
            "h.sgf",
            &options(&key, Ruleset::japanese()),
        )
        .unwrap();
        let g = genesis(&h);
        assert_eq!(g.handicap, 2);
        assert_eq!(
            g.komi_half_points,
            Ruleset::japanese().komi(2).half_points()
        );
        assert_eq!(g.overrides[0].1, "fixed");
    }

    #[test]
    fn white_setup_stones_are_refused() {
        let key = Keypair::from_seed([3; 32]);
        let e = import(
            b"(;FF[4]SZ[9]AW[cc];B[ee])",
            "p.sgf",
            &options(&key, Ruleset::japanese()),
        )
        .unwrap_err();
        assert!(matches!(e, ImportError::WhiteSetup));
    }

    #[test]
    fn freely_placed_handicap_stones_are_blacks_first_stones() {
        let key = Keypair::from_seed([4; 32]);
        let i = import(
            b"(;FF[4]SZ[9]HA[2]AB[aa][bb];W[ee])",
            "free.sgf",
            &options(&key, Ruleset::chinese()),
        )
        .unwrap();
        assert_eq!(genesis(&i).overrides[0].1, "free");
        let ev = events(&i);
        assert!(matches!(
            ev[1].body,
            Body::StonePlaced {
                player: Color::Black,
                point: Point { x: 0, y: 0 },
                ..
            }
        ));
        assert!(matches!(
            ev[3].body,
            Body::StonePlaced {
                player: Color::White,
                ..
            }
        ));
    }

    #[test]
    fn bl_wl_become_clock_readings_once_both_clocks_are_known() {
        let key = Keypair::from_seed([5; 32]);
        let i = import(
            b"(;FF[4]SZ[9]TM[300]OT[5x30 byo-yomi];B[ee]BL[290];W[cc]WL[280];B[dd]BL[25]OB[4])",
            "clock.sgf",
            &options(&key, Ruleset::japanese()),
        )
        .unwrap();
        let readings: Vec<_> = events(&i)
            .into_iter()
            .filter_map(|e| match e.body {
                Body::ClockReading {
                    black_ms,
                    white_ms,
                    black_overtime,
                    ..
                } => Some((black_ms, white_ms, black_overtime)),
                _ => None,
            })
            .collect();
        assert_eq!(
            readings,
            vec![
                (290_000, 300_000, None),
                (290_000, 280_000, None),
                (25_000, 280_000, Some(4)),
            ]
        );
        assert!(matches!(
            genesis(&i).time_control,
            kifu_ledger::TimeControl::Byoyomi { .. }
        ));
    }

    #[test]
    fn an_unreadable_result_is_kept_as_a_warning_and_not_declared() {
        let key = Keypair::from_seed([6; 32]);
        let i = import(
            b"(;FF[4]SZ[9]RE[Black won];B[ee])",
            "r.sgf",
            &options(&key, Ruleset::japanese()),
        )
        .unwrap();
        assert!(!events(&i)
            .iter()
            .any(|e| matches!(e.body, Body::ResultDeclared(_))));
        assert!(i.warnings.iter().any(|w| w.starts_with("RE:")));
    }

    #[test]
    fn an_imported_record_exports_its_game_information_back() {
        let key = Keypair::from_seed([7; 32]);
        let i = import(
            b"(;FF[4]GM[1]SZ[9]PB[Honinbo]PW[Gennan]KM[6.5]EV[Club cup]RE[B+R];B[ee];W[cc])",
            "cup.sgf",
            &options(&key, Ruleset::japanese()),
        )
        .unwrap();
        let text = crate::sgf_export::records_to_sgf(&i.records).unwrap();
        for p in [
            "PB[Honinbo]",
            "PW[Gennan]",
            "KM[6.5]",
            "EV[Club cup]",
            ";B[ee]",
            ";W[cc]",
        ] {
            assert!(text.contains(p), "{p} missing from {text}");
        }
        // The game information is written as properties, not as a comment.
        assert!(!text.contains("C[PB[Honinbo]"), "{text}");
        let again = kifu_go::sgf::read_bytes(text.as_bytes()).unwrap().0;
        assert_eq!(again.moves.len(), 2);
    }
}
