//! The byte-level test vectors in `fixtures/format/vectors.json` match the code.
//!
//! Everything in the file is generated here from one table of examples
//! (`testkit::every_kind`) and the sub-enum examples below; a test checks
//! that every kind and every variant of every sub-enum is covered.
//!
//! Regenerate (only when the format changes on purpose) with
//! `KIFU_WRITE_VECTORS=1 cargo test -p kifu-ledger --test format_vectors`.

use std::path::PathBuf;

use curve25519_dalek::constants::ED25519_BASEPOINT_TABLE;
use curve25519_dalek::scalar::Scalar;
use ed25519_dalek::hazmat::ExpandedSecretKey;
use ed25519_dalek::{Digest, Sha512};
use kifu_ledger::kinds::{kind_count, variant_names};
use kifu_ledger::testkit::{committee_keys, every_kind, Cast, ChainBuilder};
use kifu_ledger::TimeControl;
use kifu_ledger::*;
use serde::Serialize;
use serde_json::{json, Value};

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/format/vectors.json")
}

const T0: u64 = 1_767_225_600_000;

/// The full chain: a genesis, then one event of every kind.
fn chain(cast: &Cast, committee: &[Keypair]) -> ChainBuilder {
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("format vectors"), T0);
    for (k, body) in every_kind(cast, committee) {
        c.push(k, body);
    }
    c
}

fn value<T: Serialize>(ty: &str, v: &T) -> Value {
    json!({
        "type": ty,
        "json": serde_json::to_value(v).unwrap(),
        "bytes": hex::encode(postcard::to_allocvec(v).unwrap()),
    })
}

/// One value of every variant of every sub-enum, and signed numbers.
fn values() -> Vec<Value> {
    let mut out = Vec::new();
    let tcs = [
        TimeControl::Untimed,
        TimeControl::SuddenDeath { main_ms: 3_600_000 },
        TimeControl::Fischer {
            main_ms: 600_000,
            increment_ms: 10_000,
            max_ms: Some(900_000),
        },
        TimeControl::Simple {
            per_move_ms: 30_000,
        },
        TimeControl::Byoyomi {
            main_ms: 3_600_000,
            periods: 5,
            period_ms: 30_000,
        },
        TimeControl::Canadian {
            main_ms: 3_600_000,
            stones: 25,
            block_ms: 600_000,
        },
    ];
    out.extend(tcs.iter().map(|v| value("TimeControl", v)));
    let pauses = [
        PauseReason::StatusAssessment,
        PauseReason::Counting,
        PauseReason::ResetClock,
        PauseReason::Toilet,
        PauseReason::RemoveStones,
        PauseReason::ClockMalfunction,
        PauseReason::Adjournment,
        PauseReason::Sealing,
        PauseReason::CallReferee,
        PauseReason::Arbitration,
        PauseReason::Announcement,
        PauseReason::Other("fire alarm".into()),
    ];
    out.extend(pauses.iter().map(|v| value("PauseReason", v)));
    let sanctions = [
        SanctionKind::Advice,
        SanctionKind::Warning,
        SanctionKind::GameForfeit,
        SanctionKind::TimeModified { delta_ms: -300_000 },
        SanctionKind::RemovedFromRounds { rounds: vec![3, 4] },
        SanctionKind::RemovedFromTournament,
        SanctionKind::Debarment,
        SanctionKind::Disqualification,
    ];
    out.extend(sanctions.iter().map(|v| value("SanctionKind", v)));
    for v in [SanctionTarget::Player(Color::White), SanctionTarget::Both] {
        out.push(value("SanctionTarget", &v));
    }
    let verdicts = [
        CommitteeVerdict::Rejected,
        CommitteeVerdict::Upheld,
        CommitteeVerdict::Replaced(vec![RulingEffect::Resume]),
    ];
    out.extend(verdicts.iter().map(|v| value("CommitteeVerdict", v)));
    for v in [
        Resignation::Spoken,
        Resignation::TwoStones,
        Resignation::Program,
    ] {
        out.push(value("Resignation", &v));
    }
    for v in [
        Outcome::Win(Color::Black),
        Outcome::Draw,
        Outcome::BothLose,
        Outcome::NoResult,
    ] {
        out.push(value("Outcome", &v));
    }
    let bys = [
        ResultBy::Resignation,
        ResultBy::Time,
        ResultBy::Forfeit,
        ResultBy::Score {
            margin_half_points: -13,
        },
        ResultBy::Five,
        ResultBy::ForbiddenMove,
        ResultBy::IllegalMove,
        ResultBy::Agreement,
        ResultBy::Repetition,
        ResultBy::AbnormalTermination,
        ResultBy::Other("adjudicated".into()),
    ];
    out.extend(bys.iter().map(|v| value("ResultBy", v)));
    let effects = [
        RulingEffect::UnwindTo { seq: 300 },
        RulingEffect::AdjustClock {
            player: Color::White,
            delta_ms: -1,
        },
        RulingEffect::Resume,
        RulingEffect::Sanction(Sanction {
            target: SanctionTarget::Both,
            kind: SanctionKind::Advice,
            reason: "".into(),
        }),
        RulingEffect::SetResult(GameResult {
            outcome: Outcome::Draw,
            by: ResultBy::Agreement,
        }),
    ];
    out.extend(effects.iter().map(|v| value("RulingEffect", v)));
    let irr = [
        IrregularityKind::CapturedStonesNotRemoved,
        IrregularityKind::LiveStonesRemoved,
        IrregularityKind::HandicapStonesMisplaced,
        IrregularityKind::StoneOnOccupiedPoint,
        IrregularityKind::AmbiguousPlacement,
        IrregularityKind::WrongColour,
        IrregularityKind::ColourOrHandicapError,
        IrregularityKind::PositionDisturbed,
    ];
    out.extend(irr.iter().map(|v| value("IrregularityKind", v)));
    for v in [RulingKind::Clarification, RulingKind::Judgement] {
        out.push(value("RulingKind", &v));
    }
    for v in [
        GameKind::Go,
        GameKind::Renju,
        GameKind::GomokuFreestyle,
        GameKind::GomokuStandard,
    ] {
        out.push(value("GameKind", &v));
    }
    for v in [
        Role::Black,
        Role::White,
        Role::Referee,
        Role::Recorder,
        Role::Director,
        Role::Committee,
    ] {
        out.push(value("Role", &v));
    }
    for v in [Color::Black, Color::White] {
        out.push(value("Color", &v));
    }
    // The tournament chain's own enums (FORMAT.md section 10).
    use kifu_ledger::tournament::{AbsenceReason, BoardResult, DrawRules, PairingSystem};
    let rules = DrawRules {
        engine: "kifu-pairing/1 (OpenGotha 3.51.02)".into(),
        overrides: vec![("handicap.ceiling".into(), "5".into())],
    };
    for v in [
        PairingSystem::McMahon,
        PairingSystem::Swiss,
        PairingSystem::RoundRobin,
        PairingSystem::Knockout,
        PairingSystem::McMahonDrawn(rules.clone()),
        PairingSystem::SwissDrawn(rules),
    ] {
        out.push(value("PairingSystem", &v));
    }
    for v in [
        AbsenceReason::LateArrival,
        AbsenceReason::RoundSkipped,
        AbsenceReason::Withdrawal,
        AbsenceReason::Sanction,
    ] {
        out.push(value("AbsenceReason", &v));
    }
    for v in [
        BoardResult::Unknown,
        BoardResult::WhiteWins,
        BoardResult::BlackWins,
        BoardResult::Jigo,
        BoardResult::BothLose,
        BoardResult::BothWin,
    ] {
        out.push(value("BoardResult", &v));
    }
    // Zigzag: 0, -1, 1, -2, 63, -64, 64, i32 and i64 extremes.
    for v in [0i32, -1, 1, -2, 63, -64, 64, i32::MIN, i32::MAX] {
        out.push(value("i32", &v));
    }
    for v in [-1000i64, 1000, i64::MIN, i64::MAX] {
        out.push(value("i64", &v));
    }
    for v in [127u64, 128, 300, u64::MAX] {
        out.push(value("u64", &v));
    }
    out
}

/// The variant list of each sub-enum, from its own declaration.
fn sub_enums() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("TimeControl", variant_names::<TimeControl>()),
        ("PauseReason", variant_names::<PauseReason>()),
        ("SanctionKind", variant_names::<SanctionKind>()),
        ("SanctionTarget", variant_names::<SanctionTarget>()),
        ("CommitteeVerdict", variant_names::<CommitteeVerdict>()),
        ("Resignation", variant_names::<Resignation>()),
        ("Outcome", variant_names::<Outcome>()),
        ("ResultBy", variant_names::<ResultBy>()),
        ("RulingEffect", variant_names::<RulingEffect>()),
        ("IrregularityKind", variant_names::<IrregularityKind>()),
        ("RulingKind", variant_names::<RulingKind>()),
        ("GameKind", variant_names::<GameKind>()),
        ("Role", variant_names::<Role>()),
        ("Color", variant_names::<Color>()),
        (
            "PairingSystem",
            variant_names::<kifu_ledger::tournament::PairingSystem>(),
        ),
        (
            "AbsenceReason",
            variant_names::<kifu_ledger::tournament::AbsenceReason>(),
        ),
        (
            "BoardResult",
            variant_names::<kifu_ledger::tournament::BoardResult>(),
        ),
    ]
}

fn event_json(r: &Record) -> Value {
    let h = r.header().unwrap();
    let (kind_name, body_json) = match r.decode() {
        Ok(e) => (
            Value::from(kinds::kind_name(h.kind).unwrap_or("unknown")),
            serde_json::to_value(&e.body).unwrap(),
        ),
        Err(_) => (Value::Null, Value::Null),
    };
    json!({
        "seq": h.seq,
        "at_ms": h.at_ms,
        "signer": h.signer.to_hex(),
        "kind_index": h.kind,
        "kind": kind_name,
        "body_json": body_json,
        "event_bytes": hex::encode(&r.event_bytes),
        "body_bytes": hex::encode(&h.body_bytes),
        "signed_message": hex::encode(event::signed_message(&r.event_bytes)),
        "signature": hex::encode(r.signature),
        "hash": hex::encode(r.hash()),
    })
}

/// `R` = identity, `S = H(R||A||M)·a`: passes a bare batch, fails the rule.
fn small_order_signature(seed: [u8; 32], msg: &[u8]) -> [u8; 64] {
    let a = ExpandedSecretKey::from(&seed).scalar;
    let pk = Keypair::from_seed(seed).public().0;
    let r = (&Scalar::ZERO * ED25519_BASEPOINT_TABLE)
        .compress()
        .to_bytes();
    let k = Scalar::from_hash(
        Sha512::new()
            .chain_update(r)
            .chain_update(pk)
            .chain_update(msg),
    );
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&r);
    sig[32..].copy_from_slice((k * a).as_bytes());
    sig
}

fn expect(report: &VerifyReport, contains: Option<&str>) -> Value {
    json!({
        "ok": report.ok(),
        "games": report.games.iter().map(|g| json!({"game": hex::encode(g.game), "head_seq": g.head.seq, "head": hex::encode(g.head.hash), "finished": g.finished()})).collect::<Vec<_>>(),
        "problems": report.problems.len(),
        "forks": report.forks.len(),
        "duplicates": report.duplicates.len(),
        "uninterpreted": report.uninterpreted.len(),
        "warnings": report.warnings.len(),
        "problem_contains": contains,
    })
}

/// The key the vectors' trusting reader trusts (`trusted_key`): the
/// director's, which signs the signed manifests.
fn trusted() -> PublicKey {
    Cast::new().director.public()
}

fn case(name: &str, why: &str, bytes: Vec<u8>, contains: Option<&str>) -> Value {
    let v = archive::verify_archive(&bytes).unwrap();
    if let Some(c) = contains {
        assert!(
            v.report().problems.iter().any(|p| p.what.contains(c)),
            "{name}: {:?}",
            v.report().problems
        );
    }
    // The same archive for a reader who trusts `trusted_key`: it is complete
    // only when that key signs its manifest (FORMAT.md section 7).
    let mut t = v.clone();
    t.require_trusted(&[trusted()]);
    let trusted_contains = if t.report().ok() || contains.is_some() {
        contains
    } else {
        Some("untrusted")
    };
    json!({
        "name": name,
        "why": why,
        "archive": hex::encode(&bytes),
        "expect": expect(v.report(), contains),
        "expect_trusted": expect(t.report(), trusted_contains),
    })
}

/// The cases of `docs/FORMAT.md` sections 5, 5.1, 7 and 9 added in 0.3.0:
/// whom a manifest's signature speaks for, one vote per seat, every key
/// retired by its holder, co-option, the log operator's statement.
fn trust_and_seat_cases(cast: &Cast, c: &ChainBuilder) -> Vec<Value> {
    let mut out = Vec::new();
    // Two games: the every-kind chain and a short one.
    let mut short = ChainBuilder::start(&cast.referee, cast.genesis("format vectors: trust"), T0);
    short.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    let mut both = c.records.clone();
    both.extend(short.records.iter().cloned());
    let heads = [(c.game, c.head), (short.game, short.head)];
    out.push(case(
        "two_games_unsigned_manifest",
        "two games and a manifest that names no signer: complete against nobody",
        archive::write_with_manifest(&both, &heads, T0, None).unwrap(),
        None,
    ));
    out.push(case(
        "truncated_by_a_game_resigned_by_another_key",
        "the second game dropped and the manifest rewritten and signed by a key nobody trusts: consistent, so it verifies; a reader trusting the director's key refuses it",
        archive::write_with_manifest(&c.records, &heads[..1], T0, Some(&cast.stranger)).unwrap(),
        None,
    ));
    out.push(case(
        "downgraded_to_v1",
        "the two games as a KIFUARC1 archive: no manifest, so completeness cannot be shown",
        archive::write(&both),
        None,
    ));
    let twice = [(c.game, c.head), (c.game, c.head), (short.game, short.head)];
    out.push(case(
        "manifest_lists_a_game_twice",
        "a signed manifest naming the first game twice, with the same head",
        archive::write_with_manifest(&both, &twice, T0, Some(&cast.director)).unwrap(),
        Some("lists this game 2 times"),
    ));
    // The committee (FORMAT.md sections 5.1 and 5.2).
    let m = committee_keys();
    let member = |i: usize| Participant {
        role: Role::Committee,
        name: format!("Committee {}", i + 1),
        key: m[i].public(),
    };
    let mut seat = ChainBuilder::start(&cast.referee, cast.genesis("format vectors: seats"), T0);
    seat.push(
        &cast.director,
        Body::CommitteeFormed {
            members: vec![member(0), member(1), member(2)],
            reserves: vec![member(3)],
            formed_before_round: 1,
        },
    );
    seat.push(
        &cast.black,
        Body::AppealLodged {
            player: Color::Black,
            ruling_seq: 1,
            grounds: "the ruling at seq 1".into(),
        },
    );
    let upheld = Body::CommitteeDecision {
        appeal_seq: 2,
        verdict: CommitteeVerdict::Upheld,
        reasons: "r".into(),
    };
    let new = Keypair::from_seed([25; 32]);
    let mut votes = seat.clone();
    votes.push(&m[0], upheld.clone());
    votes.push(
        &m[0],
        Body::KeyReplaced {
            participant: m[0].public(),
            new_key: new.public(),
            reason: "new tablet".into(),
        },
    );
    votes.push(&new, upheld.clone());
    out.push(case(
        "two_votes_from_one_seat",
        "committee member 1 votes, replaces their own key, and votes again with the new key: one seat, one vote; the second is refused and the appeal stays pending",
        archive::write(&votes.records),
        Some("already signed a decision"),
    ));
    let mut retire = seat.clone();
    retire.push(
        &m[3],
        Body::KeyRevoked {
            key: m[3].public(),
            reason: "tablet stolen".into(),
        },
    );
    retire.push(
        &cast.director,
        Body::MemberRecused {
            member: m[2].public(),
            reason: "same club".into(),
        },
    );
    retire.push(
        &m[2],
        Body::KeyReplaced {
            participant: m[2].public(),
            new_key: new.public(),
            reason: "new tablet".into(),
        },
    );
    out.push(case(
        "reserve_and_recused_member_retire_their_keys",
        "the reserve (not sitting) revokes its own key at seq 3; member 3, recused at seq 4, replaces its own key at seq 5: valid",
        archive::write(&retire.records),
        None,
    ));
    let mut reserve_recuses = seat.clone();
    reserve_recuses.push(
        &m[3],
        Body::MemberRecused {
            member: m[0].public(),
            reason: "x".into(),
        },
    );
    out.push(case(
        "reserve_signs_a_recusal",
        "the reserve, not sitting, holds no role: it may sign only the change of its own key",
        archive::write(&reserve_recuses.records),
        Some("holds no role"),
    ));
    let mut coopt = seat.clone();
    coopt.push(&cast.director, Body::MemberCoopted { member: member(1) });
    out.push(case(
        "coopting_a_sitting_member",
        "the director co-opts member 2, who sits already",
        archive::write(&coopt.records),
        Some("already sits"),
    ));
    // The committee's decision is final (section 5): a referee's ruling
    // after it is refused until a new matter opens.
    let ruling = |decision: &str| {
        Body::RefereeRuling(Ruling {
            kind: RulingKind::Judgement,
            decision: decision.into(),
            reasons: String::new(),
            rules_cited: vec![],
            effects: vec![RulingEffect::SetResult(GameResult {
                outcome: Outcome::Win(Color::White),
                by: ResultBy::Forfeit,
            })],
        })
    };
    let mut decided = seat.clone();
    decided.push(&m[0], upheld.clone());
    decided.push(&m[1], upheld.clone());
    let mut overruled = decided.clone();
    overruled.push(
        &cast.referee,
        ruling("W+F after the committee upheld the appeal"),
    );
    out.push(case(
        "ruling_after_the_committee_s_final_decision",
        "two members uphold Black's appeal (seq 4); the referee then rules W+F (seq 5): the decision is final, the ruling refused",
        archive::write(&overruled.records),
        Some("its decision is final"),
    ));
    let mut reopened = decided.clone();
    reopened.push(
        &cast.white,
        Body::RefereeCalled {
            player: Color::White,
        },
    );
    reopened.push(&cast.referee, ruling("a new matter"));
    out.push(case(
        "ruling_on_a_new_matter_after_the_decision",
        "after the decision White calls the referee (seq 5): a new matter, on which the referee rules (seq 6): valid",
        archive::write(&reopened.records),
        None,
    ));
    // Every key a genesis names passes rule 1 (section 5).
    let mut nobody = cast.genesis("format vectors: a seat held by nobody");
    let mut identity = [0u8; 32];
    identity[0] = 1;
    nobody.roster.push(Participant {
        role: Role::Recorder,
        name: "a small-order key".into(),
        key: PublicKey(identity),
    });
    let nobody = ChainBuilder::start(&cast.referee, nobody, T0);
    out.push(case(
        "genesis_names_a_small_order_key",
        "a recorder named with the identity point's encoding (small order): no acceptable key, so the genesis is refused",
        archive::write(&nobody.records),
        Some("not an acceptable Ed25519 public key"),
    ));
    let mut rotation = short.clone();
    rotation.push(
        &cast.recorder,
        Body::LogKeyRotated {
            origin: "log.example".into(),
            new_key: cast.stranger.public(),
        },
    );
    out.push(case(
        "log_key_rotated_in_a_game",
        "kind 54 signed by the recorder of an ordinary game: only the log operator states it, in its own chain",
        archive::write(&rotation.records),
        Some("log operator's own chain"),
    ));
    out
}

fn cases(cast: &Cast, c: &ChainBuilder) -> Vec<Value> {
    let mut out = Vec::new();
    let heads = [(c.game, c.head)];
    let signed =
        archive::write_with_manifest(&c.records, &heads, T0, Some(&cast.director)).unwrap();
    out.push(case(
        "complete_signed_manifest",
        "every event, and a manifest signed by the director's key",
        signed.clone(),
        None,
    ));
    let last = c.records.last().unwrap().to_stored().len();
    out.push(case(
        "truncated_signed_manifest",
        &format!(
            "the same archive without its last record: the manifest states seq {}",
            c.head.seq
        ),
        signed[..signed.len() - last].to_vec(),
        Some("incomplete"),
    ));
    // A short chain to extend.
    let mut short = ChainBuilder::start(&cast.referee, cast.genesis("format vectors: cases"), T0);
    short.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    short.push(
        &cast.black,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 2, y: 3 },
        },
    );
    let mut unknown = short.records.clone();
    unknown.push(short.next_raw(&cast.referee, vec![0xc8, 0x01, 0x07]));
    out.push(case(
        "unknown_kind_from_roster",
        "kind 200 signed by the referee: reported, not a failure",
        archive::write(&unknown),
        None,
    ));
    let mut stranger = short.records.clone();
    stranger.push(short.next_raw(&cast.stranger, vec![0xc8, 0x01, 0x07]));
    out.push(case(
        "unknown_kind_from_stranger",
        "kind 200 signed by a key outside the roster",
        archive::write(&stranger),
        Some("not in the game's roster"),
    ));
    let mut overlong = short.records.clone();
    overlong.push(short.next_raw(&cast.referee, vec![0xc8, 0x81, 0x00, 0x07]));
    out.push(case(
        "overlong_kind_index",
        "kind 200 written in three bytes",
        archive::write(&overlong),
        Some("canonical kind index"),
    ));
    let mut fork = short.records.clone();
    fork.push(short.next(
        &cast.white,
        Body::ClockPressed {
            player: Color::White,
        },
    ));
    fork.push(short.next(
        &cast.white,
        Body::Pass {
            player: Color::White,
            pass_stone: false,
        },
    ));
    out.push(case(
        "fork",
        "two validly signed records at seq 3",
        archive::write(&fork),
        Some("fork"),
    ));
    let mut dup = short.records.clone();
    dup.insert(1, short.records[2].clone());
    out.push(case(
        "duplicate",
        "the record at seq 2 twice: counted once, reported",
        archive::write(&dup),
        None,
    ));
    let honest = short.next(
        &cast.black,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    let forged = Record {
        signature: small_order_signature([1; 32], &event::signed_message(&honest.event_bytes)),
        event_bytes: honest.event_bytes,
    };
    let mut small = short.records.clone();
    small.push(forged);
    out.push(case("small_order_signature", "R is the identity and S = H(R||A||M)·a: the cofactorless equation holds, the rule refuses R", archive::write(&small), Some("bad signature")));
    let mut facts = short.clone();
    facts.push(
        &cast.white,
        Body::StonePlaced {
            player: Color::White,
            stone: Color::White,
            point: Point { x: 200, y: 3 },
        },
    );
    let back = Event::next(
        facts.game,
        facts.head,
        T0 - 86_400_000,
        cast.black.public(),
        Body::ClockPressed {
            player: Color::Black,
        },
    )
    .sign(&cast.black)
    .unwrap();
    facts.push_record(back);
    out.push(case(
        "facts_reported",
        "a point off the 9x9 board and a timestamp a day earlier: two warnings, not failures",
        archive::write(&facts.records),
        None,
    ));
    // Keys along the chain (FORMAT.md section 5.2).
    let mut keys = ChainBuilder::start(&cast.referee, cast.genesis("format vectors: keys"), T0);
    keys.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    keys.push(
        &cast.black,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 2, y: 2 },
        },
    );
    keys.push(
        &cast.referee,
        Body::KeyReplaced {
            participant: cast.black.public(),
            new_key: cast.black_new.public(),
            reason: "tablet lost".into(),
        },
    );
    keys.push(
        &cast.white,
        Body::KeyRevoked {
            key: cast.white.public(),
            reason: "compromised".into(),
        },
    );
    let mut rotated = keys.clone();
    rotated.push(
        &cast.black_new,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 6, y: 6 },
        },
    );
    out.push(case(
        "key_replaced_and_revoked",
        "Black's key replaced by the referee at seq 3, White's key revoked by itself at seq 4, Black plays on with the new key: valid (Black's move at seq 2 stays valid)",
        archive::write(&rotated.records),
        None,
    ));
    let mut old = keys.clone();
    old.push(
        &cast.black,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 6, y: 6 },
        },
    );
    out.push(case(
        "replaced_key_signs_after",
        "the old Black key signs a move after its replacement at seq 3: refused",
        archive::write(&old.records),
        Some("replaced at seq 3"),
    ));
    let mut revoked = keys;
    revoked.push(
        &cast.white,
        Body::StonePlaced {
            player: Color::White,
            stone: Color::White,
            point: Point { x: 6, y: 6 },
        },
    );
    out.push(case(
        "revoked_key_signs_after",
        "White's key signs a move after its revocation at seq 4: refused",
        archive::write(&revoked.records),
        Some("revoked at seq 4"),
    ));
    out.extend(signed_result_cases(cast, &short));
    out
}

/// Section 6, a signed result the players signed: a resignation signed by
/// the resigning seat's key, both seats' sheets stating the same result.
/// `finished` in each case's verdict says whether the game reached it.
fn signed_result_cases(cast: &Cast, short: &ChainBuilder) -> Vec<Value> {
    let resigned = Body::Resigned {
        player: Color::White,
        manner: Resignation::Spoken,
    };
    let sheet = |outcome: Outcome| Body::ResultSheetSigned {
        result: GameResult {
            outcome,
            by: ResultBy::Resignation,
        },
        under_protest: false,
    };
    let black_wins = || Outcome::Win(Color::Black);
    let with = |steps: Vec<(&Keypair, Body)>| {
        let mut c = short.clone();
        for (k, b) in steps {
            c.push(k, b);
        }
        archive::write(&c.records)
    };
    vec![
        case(
            "resignation_signed_by_the_player",
            "White resigns, signed with White's key: a signed result (finished)",
            with(vec![(&cast.white, resigned.clone())]),
            None,
        ),
        case(
            "resignation_signed_by_the_recorder",
            "White's resignation signed by the recorder's key: valid, but no signed result (not finished)",
            with(vec![(&cast.recorder, resigned)]),
            None,
        ),
        case(
            "result_sheets_agree",
            "Black's and White's sheets, each signed with the seat's key, both state B+R: a signed result at the second (finished)",
            with(vec![
                (&cast.black, sheet(black_wins())),
                (&cast.white, sheet(black_wins())),
            ]),
            None,
        ),
        case(
            "result_sheets_differ",
            "Black's sheet states B+R, White's W+R: no signed result (not finished)",
            with(vec![
                (&cast.black, sheet(black_wins())),
                (&cast.white, sheet(Outcome::Win(Color::White))),
            ]),
            None,
        ),
        case(
            "result_sheet_signed_by_the_recorder",
            "Black's sheet, and one signed by the recorder's key, both B+R: the recorder holds no seat, no signed result (not finished)",
            with(vec![
                (&cast.black, sheet(black_wins())),
                (&cast.recorder, sheet(black_wins())),
            ]),
            None,
        ),
    ]
}

/// Every kind's example, signed by each of the cast at its place in the chain.
fn role_cases(cast: &Cast, committee: &[Keypair], c: &ChainBuilder) -> Vec<Value> {
    let signers: Vec<(&str, &Keypair)> = vec![
        ("black", &cast.black),
        ("white", &cast.white),
        ("referee", &cast.referee),
        ("recorder", &cast.recorder),
        ("director", &cast.director),
        ("committee-2", &committee[1]),
        ("committee-4 (reserve)", &committee[3]),
        ("stranger", &cast.stranger),
    ];
    let mut out = Vec::new();
    for (i, (_, body)) in every_kind(cast, committee).into_iter().enumerate() {
        let seq = i as u64 + 1;
        let before = ChainBuilder {
            game: c.game,
            head: Head {
                seq: seq - 1,
                hash: c.records[i].hash(),
            },
            records: c.records[..=i].to_vec(),
            at_ms: T0 + 1000 * (seq - 1),
        };
        let standing = before.standing();
        for (name, k) in &signers {
            let rec = before.next(k, body.clone());
            let verdict = check_append(&c.game, &standing, before.head, &rec);
            out.push(json!({
                "after_seq": seq - 1,
                "kind_index": body.kind_index(),
                "signer": name,
                "accepted": verdict.is_ok(),
                "refusal": verdict.err().map(|e| e.to_string()),
                "event_bytes": hex::encode(&rec.event_bytes),
                "signature": hex::encode(rec.signature),
            }));
        }
    }
    out
}

/// The tournament chain of the vectors (FORMAT.md section 10): a genesis
/// (kind 44, the director), then every other tournament kind in kind order,
/// three registrations first so that every fact can be. The referee signs
/// what a referee may (an absence as a sanction, a result by default, a
/// sanction); the checkpoint names the game chain of `events`.
fn tournament_facts(cast: &Cast, game: &ChainBuilder) -> Vec<(&'static str, Body)> {
    use kifu_ledger::tournament::{AbsenceReason, BoardResult, Checkpoint, Pairing, Registration};
    let reg = |id: &str, surname: &str, rank: &str, key: Option<PublicKey>| Registration {
        id: id.into(),
        surname: surname.into(),
        given: "Given".into(),
        rank: rank.into(),
        rating: 2100,
        country: "JP".into(),
        club: "Tokyo".into(),
        egd_pin: "12345678".into(),
        aga_id: String::new(),
        smms_correction: -1,
        key,
    };
    vec![
        (
            "director",
            Body::PlayerRegistered(reg("P1", "Black", "2d", Some(cast.black.public()))),
        ),
        (
            "director",
            Body::PlayerRegistered(reg("P2", "White", "1d", Some(cast.white.public()))),
        ),
        (
            "director",
            Body::PlayerRegistered(reg("P3", "Third", "3k", None)),
        ),
        (
            "director",
            Body::RegistrationCorrected(reg("P3", "Third", "2k", None)),
        ),
        (
            "director",
            Body::Paired(Pairing {
                round: 1,
                board: 1,
                white: "P2".into(),
                black: "P1".into(),
                handicap: 0,
                game: Some(game.game),
            }),
        ),
        (
            "director",
            Body::ByeGiven {
                round: 1,
                player: "P3".into(),
            },
        ),
        (
            "referee",
            Body::PlayerAbsent {
                round: 2,
                player: "P3".into(),
                reason: AbsenceReason::Sanction,
            },
        ),
        (
            "referee",
            Body::BoardResultEntered {
                round: 1,
                board: 1,
                result: BoardResult::WhiteWins,
                by_default: true,
                reason: "Black absent after an hour".into(),
            },
        ),
        (
            "director",
            Body::GameCheckpointed(Checkpoint {
                round: 1,
                board: 1,
                game: game.game,
                head_seq: game.head.seq,
                head_hash: game.head.hash,
                result: Some(GameResult {
                    outcome: Outcome::Win(Color::White),
                    by: ResultBy::Resignation,
                }),
            }),
        ),
        (
            "referee",
            Body::TournamentSanction {
                player: "P3".into(),
                kind: SanctionKind::RemovedFromRounds { rounds: vec![3] },
                from_round: 3,
                reason: "hindrance".into(),
            },
        ),
        (
            "director",
            Body::PairedColoursUnknown(Pairing {
                round: 3,
                board: 1,
                white: "P1".into(),
                black: "P2".into(),
                handicap: 0,
                game: None,
            }),
        ),
        (
            "director",
            Body::RoundDrawn(kifu_ledger::tournament::RoundDrawn {
                round: 3,
                engine: "kifu-pairing/1 (OpenGotha 3.51.02)".into(),
                swaps: vec![kifu_ledger::tournament::DrawSwap {
                    first: "P1".into(),
                    second: "P2".into(),
                    reason: "P2 asked to play Black after three games as White".into(),
                }],
            }),
        ),
        (
            "director",
            Body::TimeZoneStated {
                zone: "Europe/Berlin".into(),
            },
        ),
    ]
}

fn tournament_genesis(cast: &Cast) -> kifu_ledger::tournament::TournamentGenesis {
    kifu_ledger::tournament::TournamentGenesis {
        name: "Format Vectors Open".into(),
        short_name: "fvo".into(),
        city: "Tokyo".into(),
        country: "JP".into(),
        start: "2026-01-01".into(),
        finish: "2026-01-02".into(),
        game: GameKind::Go,
        ruleset: "lgc-2023".into(),
        time_control: TimeControl::Canadian {
            main_ms: 3_600_000,
            stones: 15,
            block_ms: 300_000,
        },
        komi_half_points: 15,
        system: kifu_ledger::tournament::PairingSystem::McMahon,
        rounds: 3,
        mm_bar: "4d".into(),
        mm_floor: "20k".into(),
        nbw2_bye: 2,
        mms2_bye: 2,
        nbw2_absent: 0,
        mms2_absent: 1,
        round_down_bye_absent: true,
        unplayed_as_half: false,
        criteria: vec!["MMS".into(), "SOSM".into(), "SOSOSM".into()],
        egf_class: "A".into(),
        adjusted_time_minutes: 75,
        handicap_reduction: 0,
        officials: vec![
            Participant {
                role: Role::Director,
                name: "Director".into(),
                key: cast.director.public(),
            },
            Participant {
                role: Role::Referee,
                name: "Referee".into(),
                key: cast.referee.public(),
            },
        ],
    }
}

/// The tournament chain's records, genesis first.
fn tournament_chain(cast: &Cast, game: &ChainBuilder) -> Vec<Record> {
    let genesis = Event {
        version: FORMAT_VERSION,
        chain: ZERO_HASH,
        seq: 0,
        prev_hash: ZERO_HASH,
        at_ms: T0,
        signer: cast.director.public(),
        body: Body::TournamentCreated(tournament_genesis(cast)),
    };
    let mut records = vec![genesis.sign(&cast.director).unwrap()];
    let id = records[0].hash();
    for (signer, body) in tournament_facts(cast, game) {
        let key = if signer == "referee" {
            &cast.referee
        } else {
            &cast.director
        };
        let last = &records[records.len() - 1];
        let head = Head {
            seq: records.len() as u64 - 1,
            hash: last.hash(),
        };
        let at_ms = T0 + 1000 * (head.seq + 1);
        let rec = Event::next(id, head, at_ms, key.public(), body)
            .sign(key)
            .unwrap();
        records.push(rec);
    }
    records
}

/// Tournament chain files whose records are well formed and signed by the
/// right officials but state a fact the tournament cannot have
/// (FORMAT.md section 10, "The facts a tournament can have"): each is one
/// failure, the records after it reported as following it. The expected
/// verdicts are the document's; `tests/format_verifier_cli.rs` checks that
/// `kifu verify` and the independent verifier reach them.
/// An archive of games carrying its tournament chain (`docs/FORMAT.md`
/// section 7): the chain is verified as a chain file, listed in the
/// manifest, and names the organiser's key the archive is checked against
/// when the reader names none. The verdicts need the tournament's facts
/// checked (`kifu-tournament`), so they are stated here and checked by
/// `kifu verify` and the independent verifier (`tests/format_verifier_cli.rs`).
fn carried_cases(cast: &Cast, game: &ChainBuilder, tournament: &[Record]) -> Vec<Value> {
    let id = tournament[0].hash();
    let head = Head {
        seq: tournament.len() as u64 - 1,
        hash: tournament[tournament.len() - 1].hash(),
    };
    let mut records = game.records.clone();
    records.extend(tournament.iter().cloned());
    let both = [(game.game, game.head), (id, head)];
    let signed = |heads: &[(Hash, Head)], k: Option<&Keypair>| {
        archive::write_with_manifest(&records, heads, T0, k).unwrap()
    };
    let mut second = tournament_genesis(cast);
    second.name = "Another Open".into();
    let other = Event {
        version: FORMAT_VERSION,
        chain: ZERO_HASH,
        seq: 0,
        prev_hash: ZERO_HASH,
        at_ms: T0,
        signer: cast.director.public(),
        body: Body::TournamentCreated(second),
    }
    .sign(&cast.director)
    .unwrap();
    let mut two = records.clone();
    two.push(other.clone());
    let two_heads = [
        (game.game, game.head),
        (id, head),
        (
            other.hash(),
            Head {
                seq: 0,
                hash: other.hash(),
            },
        ),
    ];
    let case = |name: &str,
                why: &str,
                bytes: Vec<u8>,
                ok: bool,
                contains: Option<&str>,
                ok_trusted: bool,
                contains_trusted: Option<&str>| {
        json!({
            "name": name,
            "why": why,
            "archive": hex::encode(bytes),
            "expect": {"ok": ok, "problem_contains": contains},
            "expect_trusted": {"ok": ok_trusted, "problem_contains": contains_trusted},
        })
    };
    vec![
        case(
            "carried, signed by the organiser",
            "the manifest is signed by the director the carried chain names: complete against the organiser's key with no key given",
            signed(&both, Some(&cast.director)),
            true,
            None,
            true,
            None,
        ),
        case(
            "carried, signed by another key",
            "a re-signed copy: the carried chain names the director, whose key did not sign the manifest",
            signed(&both, Some(&cast.referee)),
            false,
            Some("untrusted"),
            false,
            Some("untrusted"),
        ),
        case(
            "carried, unsigned",
            "an unsigned manifest vouches for nothing against the organiser's key",
            signed(&both, None),
            false,
            Some("untrusted"),
            false,
            Some("untrusted"),
        ),
        case(
            "carried, downgraded to KIFUARC1",
            "the same records without a manifest: never complete against the organiser's key",
            archive::write(&records),
            false,
            Some("untrusted"),
            false,
            Some("untrusted"),
        ),
        case(
            "carried, the chain not listed",
            "the manifest lists every chain the archive holds, the carried tournament chain too",
            signed(&both[..1], Some(&cast.director)),
            false,
            Some("not in the manifest"),
            false,
            Some("not in the manifest"),
        ),
        case(
            "carried, two tournament chains",
            "an archive carries at most one tournament chain",
            archive::write_with_manifest(&two, &two_heads, T0, Some(&cast.director)).unwrap(),
            false,
            Some("more than one tournament chain"),
            false,
            Some("more than one tournament chain"),
        ),
    ]
}

fn tournament_fact_cases(cast: &Cast) -> Vec<Value> {
    use kifu_ledger::tournament::{AbsenceReason, Pairing, Registration};
    let registration = |id: &str| Registration {
        id: id.into(),
        surname: format!("Player {id}"),
        given: "Given".into(),
        rank: "1d".into(),
        rating: 2000,
        country: "JP".into(),
        club: "Tokyo".into(),
        egd_pin: String::new(),
        aga_id: String::new(),
        smms_correction: 0,
        key: None,
    };
    let reg = |id: &str, rank: &str| {
        Body::PlayerRegistered(Registration {
            rank: rank.into(),
            ..registration(id)
        })
    };
    let pair = |round: u32, board: u32, white: &str, black: &str| {
        Body::Paired(Pairing {
            round,
            board,
            white: white.into(),
            black: black.into(),
            handicap: 0,
            game: None,
        })
    };
    let chain_of = |g: TournamentGenesis, facts: Vec<Body>| -> Vec<Record> {
        let genesis = Event {
            version: FORMAT_VERSION,
            chain: ZERO_HASH,
            seq: 0,
            prev_hash: ZERO_HASH,
            at_ms: T0,
            signer: cast.director.public(),
            body: Body::TournamentCreated(g),
        };
        let mut records = vec![genesis.sign(&cast.director).unwrap()];
        let id = records[0].hash();
        for body in facts {
            let head = Head {
                seq: records.len() as u64 - 1,
                hash: records[records.len() - 1].hash(),
            };
            let rec = Event::next(
                id,
                head,
                T0 + 1000 * (head.seq + 1),
                cast.director.public(),
                body,
            )
            .sign(&cast.director)
            .unwrap();
            records.push(rec);
        }
        records
    };
    let chain = |facts: Vec<Body>| chain_of(tournament_genesis(cast), facts);
    let case = |name: &str, why: &str, facts: Vec<Body>, contains: Option<&str>| {
        json!({
            "name": name,
            "why": why,
            "archive": hex::encode(archive::write(&chain(facts))),
            "expect": {"ok": contains.is_none(), "problem_contains": contains},
        })
    };
    let endless = TournamentGenesis {
        rounds: u32::MAX,
        ..tournament_genesis(cast)
    };
    let endless = json!({
        "name": "rounds_past_their_bound",
        "why": "a tournament of 4,294,967,295 rounds: at most 200",
        "archive": hex::encode(archive::write(&chain_of(endless, vec![]))),
        "expect": {"ok": false, "problem_contains": "number of rounds"},
    });
    let rounds = tournament_genesis(cast).rounds;
    let drawn = |round: u32, first: &str, second: &str, reason: &str| {
        Body::RoundDrawn(kifu_ledger::tournament::RoundDrawn {
            round,
            engine: "kifu-pairing/1 (OpenGotha 3.51.02)".into(),
            swaps: vec![kifu_ledger::tournament::DrawSwap {
                first: first.into(),
                second: second.into(),
                reason: reason.into(),
            }],
        })
    };
    vec![
        case(
            "registered_and_paired",
            "two players registered, then paired in round 1: valid",
            vec![reg("A", "1d"), reg("B", "2k"), pair(1, 1, "A", "B")],
            None,
        ),
        case(
            "pairing_of_an_unregistered_player",
            "B is paired without being registered",
            vec![reg("A", "1d"), pair(1, 1, "A", "B")],
            Some("not registered"),
        ),
        case(
            "player_paired_twice_in_a_round",
            "A is on boards 1 and 2 of round 1",
            vec![
                reg("A", "1d"),
                reg("B", "2k"),
                reg("C", "3k"),
                pair(1, 1, "A", "B"),
                pair(1, 2, "C", "A"),
            ],
            Some("paired on board 1"),
        ),
        case(
            "bye_for_a_paired_player",
            "A is paired in round 1, then given the bye in it",
            vec![
                reg("A", "1d"),
                reg("B", "2k"),
                pair(1, 1, "A", "B"),
                Body::ByeGiven {
                    round: 1,
                    player: "A".into(),
                },
            ],
            Some("paired on board 1"),
        ),
        case(
            "withdrawn_then_paired",
            "A withdraws from round 1 on, then is paired in the last round",
            vec![
                reg("A", "1d"),
                reg("B", "2k"),
                Body::PlayerAbsent {
                    round: 1,
                    player: "A".into(),
                    reason: AbsenceReason::Withdrawal,
                },
                pair(rounds, 1, "B", "A"),
            ],
            Some("absent"),
        ),
        case(
            "round_outside_the_tournament",
            "a pairing in a round after the last",
            vec![
                reg("A", "1d"),
                reg("B", "2k"),
                pair(rounds + 1, 1, "A", "B"),
            ],
            Some("outside"),
        ),
        case(
            "result_for_a_board_never_paired",
            "a result entered for board 3 of round 1, never paired",
            vec![Body::BoardResultEntered {
                round: 1,
                board: 3,
                result: kifu_ledger::tournament::BoardResult::Jigo,
                by_default: false,
                reason: String::new(),
            }],
            Some("never paired"),
        ),
        case(
            "round_drawn_with_a_swap",
            "A and B paired, then the round stated drawn by the engine with A and B's colours swapped, for a reason: valid",
            vec![
                reg("A", "1d"),
                reg("B", "2k"),
                pair(1, 1, "A", "B"),
                drawn(1, "A", "B", "A asked for Black"),
            ],
            None,
        ),
        case(
            "round_drawn_swapping_a_player_not_in_the_round",
            "A and B paired in round 1; the swap names C, neither paired nor given the bye",
            vec![
                reg("A", "1d"),
                reg("B", "2k"),
                reg("C", "3k"),
                pair(1, 1, "A", "B"),
                drawn(1, "A", "C", "asked"),
            ],
            Some("no place"),
        ),
        case(
            "round_drawn_swap_without_a_reason",
            "a swap whose reason is only blanks",
            vec![
                reg("A", "1d"),
                reg("B", "2k"),
                pair(1, 1, "A", "B"),
                drawn(1, "A", "B", "  "),
            ],
            Some("reason"),
        ),
        case(
            "registered_twice",
            "the id A registered twice",
            vec![reg("A", "1d"), reg("A", "2d")],
            Some("already registered"),
        ),
        case(
            "rank_that_is_not_a_go_rank",
            "a rank of 31k",
            vec![reg("A", "31k")],
            Some("rank"),
        ),
        case(
            "rank_with_a_sign",
            "a rank of +2d: no sign is part of a rank",
            vec![reg("A", "+2d")],
            Some("rank"),
        ),
        case(
            "rank_with_a_leading_zero",
            "a rank of 02d",
            vec![reg("A", "02d")],
            Some("rank"),
        ),
        case(
            "rank_ending_in_a_multi_byte_character",
            "a rank of 2 followed by U+212A KELVIN SIGN, which is not the letter K",
            vec![reg("A", "2\u{212a}")],
            Some("rank"),
        ),
        case(
            "rank_in_upper_case_with_white_space",
            "a rank of ' 2D' with an ideographic space after it: a rank, 2d",
            vec![reg("A", " 2D\u{3000}")],
            None,
        ),
        case(
            "board_past_its_bound",
            "a pairing on board 10,001",
            vec![reg("A", "1d"), reg("B", "2k"), pair(1, 10_001, "A", "B")],
            Some("board"),
        ),
        case(
            "sanction_naming_a_round_outside_the_tournament",
            "A removed from round 4 of a 3-round tournament",
            vec![
                reg("A", "1d"),
                Body::TournamentSanction {
                    player: "A".into(),
                    kind: SanctionKind::RemovedFromRounds {
                        rounds: vec![rounds + 1],
                    },
                    from_round: 1,
                    reason: "r".into(),
                },
            ],
            Some("outside"),
        ),
        case(
            "surname_past_its_bound",
            "a surname of 201 characters (402 bytes)",
            vec![Body::PlayerRegistered(Registration {
                surname: "\u{e9}".repeat(201),
                ..registration("A")
            })],
            Some("surname"),
        ),
        case(
            "surname_with_a_right_to_left_override",
            "a surname holding U+202E, which would show the text after it reversed",
            vec![Body::PlayerRegistered(Registration {
                surname: "Ann\u{202e}nnA".into(),
                ..registration("A")
            })],
            Some("format character"),
        ),
        endless,
    ]
}

/// Every tournament event after the genesis, signed at its place by the
/// director, the referee, a player and a stranger, with the verdict of the
/// role table (FORMAT.md section 10).
fn tournament_role_cases(cast: &Cast, chain: &[Record]) -> Vec<Value> {
    use kifu_ledger::tournament::check_tournament_append;
    let signers: Vec<(&str, &Keypair)> = vec![
        ("director", &cast.director),
        ("referee", &cast.referee),
        ("black", &cast.black),
        ("stranger", &cast.stranger),
    ];
    let genesis = tournament_genesis(cast);
    let id = chain[0].hash();
    let mut out = Vec::new();
    for (i, rec) in chain.iter().enumerate().skip(1) {
        let e = rec.decode().unwrap();
        let head = Head {
            seq: i as u64 - 1,
            hash: chain[i - 1].hash(),
        };
        for (name, k) in &signers {
            let r = Event::next(id, head, e.at_ms, k.public(), e.body.clone())
                .sign(k)
                .unwrap();
            let verdict = check_tournament_append(&id, &genesis, head, &r);
            out.push(json!({
                "after_seq": head.seq,
                "kind_index": e.body.kind_index(),
                "signer": name,
                "accepted": verdict.is_ok(),
                "refusal": verdict.err().map(|e| e.to_string()),
                "event_bytes": hex::encode(&r.event_bytes),
                "signature": hex::encode(r.signature),
            }));
        }
    }
    out
}

fn build() -> Value {
    let cast = Cast::new();
    let committee = committee_keys();
    let mut named: Vec<(String, [u8; 32], &Keypair)> = vec![
        ("black".into(), [1; 32], &cast.black),
        ("white".into(), [2; 32], &cast.white),
        ("referee".into(), [3; 32], &cast.referee),
        ("recorder".into(), [4; 32], &cast.recorder),
        ("director".into(), [5; 32], &cast.director),
        ("stranger".into(), [9; 32], &cast.stranger),
        ("black-new".into(), [10; 32], &cast.black_new),
    ];
    for (i, k) in committee.iter().enumerate() {
        named.push((format!("committee-{}", i + 1), [20 + i as u8; 32], k));
    }
    let keys: Vec<Value> = named
        .iter()
        .map(|(name, seed, k)| {
            json!({
                "name": name,
                "seed": hex::encode(seed),
                "public_key": k.public().to_hex(),
                "spki_pem": k.public().to_spki_pem().unwrap(),
                "pkcs8_pem": k.to_pkcs8_pem().unwrap(),
            })
        })
        .collect();
    let c = chain(&cast, &committee);
    let events: Vec<Value> = c.records.iter().map(event_json).collect();
    let tournament = tournament_chain(&cast, &c);
    // A refused record: the version varint written overlong (0x81 0x00).
    let mut overlong = vec![0x81, 0x00];
    overlong.extend_from_slice(&c.records[1].event_bytes[1..]);
    json!({
        "sign_domain": String::from_utf8_lossy(SIGN_DOMAIN),
        "hash_domain": String::from_utf8_lossy(HASH_DOMAIN),
        "manifest_domain": String::from_utf8_lossy(archive::MANIFEST_DOMAIN),
        "keys": keys,
        "game_id": hex::encode(c.game),
        "events": events,
        "archive": hex::encode(archive::write(&c.records)),
        "values": values(),
        "role_cases": role_cases(&cast, &committee, &c),
        "cases": cases(&cast, &c).into_iter().chain(trust_and_seat_cases(&cast, &c)).collect::<Vec<_>>(),
        "trusted_key": trusted().to_hex(),
        "tournament_id": hex::encode(tournament[0].hash()),
        "tournament_events": tournament.iter().map(event_json).collect::<Vec<_>>(),
        "tournament_archive": hex::encode(archive::write(&tournament)),
        "tournament_role_cases": tournament_role_cases(&cast, &tournament),
        "tournament_cases": tournament_fact_cases(&cast),
        "carried_cases": carried_cases(&cast, &c, &tournament),
        "invalid": [{
            "why": "overlong varint for the version: not canonical",
            "event_bytes": hex::encode(overlong),
        }],
    })
}

#[test]
fn every_kind_and_every_sub_enum_variant_has_a_vector() {
    let cast = Cast::new();
    let committee = committee_keys();
    let indices: Vec<u32> = every_kind(&cast, &committee)
        .iter()
        .map(|(_, b)| b.kind_index())
        .collect();
    // Kinds `tournament_created` to `tournament_sanction`,
    // `paired_colours_unknown`, `round_drawn` and `time_zone_stated` belong to tournament chains (FORMAT.md
    // section 10) and are refused in a game chain; the other kinds after
    // them are game-chain kinds again.
    let names = kifu_ledger::kinds::kind_names();
    let at = |name: &str| names.iter().position(|n| *n == name).map(|i| i as u32);
    let first = at("tournament_created").unwrap_or(kind_count());
    let last = at("tournament_sanction").unwrap_or(kind_count());
    // `log_key_rotated` lives in a log operator's chain, whose only key is
    // the operator's (docs/TRANSPARENCY.md section 8); its vectors are in
    // fixtures/tlog/log_keys.json.
    let operator = at("log_key_rotated").unwrap_or(kind_count());
    let colours_unknown = at("paired_colours_unknown").unwrap_or(kind_count());
    let drawn = at("round_drawn").unwrap_or(kind_count());
    let zone = at("time_zone_stated").unwrap_or(kind_count());
    assert_eq!(
        indices,
        (1..kind_count())
            .filter(|i| {
                (*i < first || *i > last) && ![operator, colours_unknown, drawn, zone].contains(i)
            })
            .collect::<Vec<_>>(),
        "testkit::every_kind must list every game-chain kind but the genesis, in order"
    );
    let values = values();
    for (ty, names) in sub_enums() {
        assert!(!names.is_empty(), "{ty}");
        let mut seen: Vec<u8> = values
            .iter()
            .filter(|v| v["type"] == ty)
            .map(|v| hex::decode(v["bytes"].as_str().unwrap()).unwrap()[0])
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(
            seen,
            (0..names.len() as u8).collect::<Vec<_>>(),
            "{ty}: one value of each of {names:?}"
        );
    }
    // The whole chain verifies and every event is accepted where it stands.
    let c = chain(&cast, &committee);
    let r = verify_records(&c.records);
    assert!(r.ok(), "{:?}", r.problems);
    // One member has signed the decision: the appeal is still pending.
    assert_eq!(r.games[0].pending_appeals, vec![23]);
}

#[test]
fn format_vectors_match_the_code() {
    let v = build();
    if std::env::var("KIFU_WRITE_VECTORS").is_ok() {
        std::fs::create_dir_all(path().parent().unwrap()).unwrap();
        std::fs::write(path(), serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
    }
    let text = std::fs::read_to_string(path())
        .unwrap_or_else(|e| panic!("{}: {e} (the vectors must be present)", path().display()));
    let stored: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        stored, v,
        "the code no longer produces the documented bytes"
    );
}

#[test]
fn vectors_verify_from_their_hex_alone() {
    // What a verifier in another language does: only hex, blake3 and ed25519.
    let text = std::fs::read_to_string(path()).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let mut prev = [0u8; 32];
    for e in v["events"].as_array().unwrap() {
        let bytes = hex::decode(e["event_bytes"].as_str().unwrap()).unwrap();
        let sig: [u8; 64] = hex::decode(e["signature"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let pk: [u8; 32] = hex::decode(e["signer"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let mut msg = b"kifu/v1/event-signature\n".to_vec();
        msg.extend_from_slice(&bytes);
        let vk = ed25519_dalek::VerifyingKey::from_bytes(&pk).unwrap();
        vk.verify_strict(&msg, &ed25519_dalek::Signature::from_bytes(&sig))
            .unwrap();
        let mut h = blake3::Hasher::new();
        h.update(b"kifu/v1/event-hash\n");
        h.update(&bytes);
        h.update(&sig);
        assert_eq!(
            hex::encode(h.finalize().as_bytes()),
            e["hash"].as_str().unwrap()
        );
        // The previous hash sits after the version (1 byte), chain (32) and seq varint.
        let seq = e["seq"].as_u64().unwrap();
        assert!(seq < 128);
        assert_eq!(&bytes[34..66], &prev, "link at seq {seq}");
        prev = *h.finalize().as_bytes();
    }
    let bad = hex::decode(v["invalid"][0]["event_bytes"].as_str().unwrap()).unwrap();
    let r = Record {
        event_bytes: bad,
        signature: [0; 64],
    };
    assert!(r.header().is_err());
    // Every case gives its stated verdict.
    for c in v["cases"].as_array().unwrap() {
        let bytes = hex::decode(c["archive"].as_str().unwrap()).unwrap();
        let got = archive::verify_archive(&bytes).unwrap();
        assert_eq!(
            got.report().ok(),
            c["expect"]["ok"].as_bool().unwrap(),
            "{}",
            c["name"]
        );
        assert_eq!(
            got.report().forks.len() as u64,
            c["expect"]["forks"].as_u64().unwrap()
        );
        assert_eq!(
            got.report().duplicates.len() as u64,
            c["expect"]["duplicates"].as_u64().unwrap()
        );
        assert_eq!(
            got.report().warnings.len() as u64,
            c["expect"]["warnings"].as_u64().unwrap()
        );
    }
    // Every role case gives its stated verdict when appended to the chain.
    let events = v["events"].as_array().unwrap();
    let chain: Vec<Record> = events
        .iter()
        .map(|e| Record {
            event_bytes: hex::decode(e["event_bytes"].as_str().unwrap()).unwrap(),
            signature: hex::decode(e["signature"].as_str().unwrap())
                .unwrap()
                .try_into()
                .unwrap(),
        })
        .collect();
    for rc in v["role_cases"].as_array().unwrap() {
        let after = rc["after_seq"].as_u64().unwrap() as usize;
        let mut recs = chain[..=after].to_vec();
        recs.push(Record {
            event_bytes: hex::decode(rc["event_bytes"].as_str().unwrap()).unwrap(),
            signature: hex::decode(rc["signature"].as_str().unwrap())
                .unwrap()
                .try_into()
                .unwrap(),
        });
        assert_eq!(
            verify_records(&recs).ok(),
            rc["accepted"].as_bool().unwrap(),
            "{rc}"
        );
    }
}

#[test]
fn the_tournament_chain_has_every_tournament_kind_and_verifies_from_its_hex() {
    let text = std::fs::read_to_string(path()).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let events = v["tournament_events"].as_array().unwrap();
    let records: Vec<Record> = events
        .iter()
        .map(|e| Record {
            event_bytes: hex::decode(e["event_bytes"].as_str().unwrap()).unwrap(),
            signature: hex::decode(e["signature"].as_str().unwrap())
                .unwrap()
                .try_into()
                .unwrap(),
        })
        .collect();
    // Kinds 44 to 52 and 55 to 57, each at least once, in kind order
    // (FORMAT.md section 10).
    let kinds: Vec<u64> = events
        .iter()
        .map(|e| e["kind_index"].as_u64().unwrap())
        .collect();
    let mut distinct = kinds.clone();
    distinct.dedup();
    assert_eq!(distinct, (44..=52).chain([55, 56, 57]).collect::<Vec<_>>());
    assert_eq!(v["tournament_id"], hex::encode(records[0].hash()));
    // Links, hashes, signatures and roles: the tournament chain verifies
    // (docs/FORMAT.md section 10), its events in seq order.
    let events = kifu_tournament::Chain::open(records.clone())
        .expect("verifies")
        .events()
        .expect("decodes");
    for (e, j) in events
        .iter()
        .zip(v["tournament_events"].as_array().unwrap())
    {
        assert_eq!(serde_json::to_value(&e.body).unwrap(), j["body_json"]);
    }
    let a = hex::decode(v["tournament_archive"].as_str().unwrap()).unwrap();
    assert_eq!(archive::read(&a).unwrap(), records);
    // Every role case, appended at its place.
    let genesis = match &events[0].body {
        Body::TournamentCreated(g) => g.clone(),
        _ => panic!("a tournament genesis"),
    };
    let cases = v["tournament_role_cases"].as_array().unwrap();
    assert!(cases.iter().any(|c| c["accepted"] == true));
    assert!(cases.iter().any(|c| c["accepted"] == false));
    for rc in cases {
        let after = rc["after_seq"].as_u64().unwrap();
        let rec = Record {
            event_bytes: hex::decode(rc["event_bytes"].as_str().unwrap()).unwrap(),
            signature: hex::decode(rc["signature"].as_str().unwrap())
                .unwrap()
                .try_into()
                .unwrap(),
        };
        let head = Head {
            seq: after,
            hash: records[after as usize].hash(),
        };
        let got = kifu_ledger::tournament::check_tournament_append(
            &records[0].hash(),
            &genesis,
            head,
            &rec,
        );
        assert_eq!(got.is_ok(), rc["accepted"].as_bool().unwrap(), "{rc}");
    }
}

#[test]
fn a_result_the_players_signed_is_a_signed_result() {
    let v = build();
    let cases = v["cases"].as_array().unwrap();
    for (name, finished) in [
        ("resignation_signed_by_the_player", true),
        ("resignation_signed_by_the_recorder", false),
        ("result_sheets_agree", true),
        ("result_sheets_differ", false),
        ("result_sheet_signed_by_the_recorder", false),
    ] {
        let c = cases
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(c["expect"]["ok"], true, "{name}");
        assert_eq!(c["expect"]["games"][0]["finished"], finished, "{name}");
    }
}
