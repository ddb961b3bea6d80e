//! An OpenGotha tournament file (the worked example, written in the layout
//! of OpenGotha's `tournament.dtd`) imported as signed director events gives
//! the worked example's standings.

use kifu_ledger::{Keypair, Participant, Role};
use kifu_standings::{standings, Criterion, Value};
use kifu_tournament::opengotha::{import, key_string};
use kifu_tournament::Chain;

const WORKED_EXAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<Tournament dataVersion="201" gothaVersion="351">
<Players>
<Player agaId="99991" club="Berl" country="DE" egfPin="" firstName="Ana" name="Alpha" participating="11111111111111111111" rank="2D" rating="2100" registeringStatus="FIN" smmsCorrection="0"/>
<Player agaId="99992" club="Pari" country="FR" egfPin="" firstName="Ben" name="Beta" participating="11111111111111111111" rank="2D" rating="2100" registeringStatus="FIN" smmsCorrection="0"/>
<Player agaId="99993" club="Prah" country="CZ" egfPin="" firstName="Cho" name="Gamma" participating="11111111111111111111" rank="1D" rating="2000" registeringStatus="FIN" smmsCorrection="0"/>
<Player agaId="99994" club="Amst" country="NL" egfPin="" firstName="Dan" name="Delta" participating="11111111111111111111" rank="1D" rating="2000" registeringStatus="FIN" smmsCorrection="0"/>
<Player agaId="99995" club="Wars" country="PL" egfPin="" firstName="Eve" name="Eps" participating="11111111111111111111" rank="1K" rating="1900" registeringStatus="FIN" smmsCorrection="0"/>
<Player agaId="99996" club="Stoc" country="SE" egfPin="" firstName="Fay" name="Zeta" participating="11011111111111111111" rank="1K" rating="1900" registeringStatus="FIN" smmsCorrection="0"/>
</Players>
<Games>
<Game blackPlayer="BETABEN" handicap="0" knownColor="true" result="RESULT_WHITEWINS" roundNumber="1" tableNumber="1" whitePlayer="ALPHAANA"/>
<Game blackPlayer="DELTADAN" handicap="0" knownColor="true" result="RESULT_BLACKWINS" roundNumber="1" tableNumber="2" whitePlayer="GAMMACHO"/>
<Game blackPlayer="ZETAFAY" handicap="0" knownColor="true" result="RESULT_WHITEWINS" roundNumber="1" tableNumber="3" whitePlayer="EPSEVE"/>
<Game blackPlayer="ALPHAANA" handicap="0" knownColor="true" result="RESULT_BLACKWINS" roundNumber="2" tableNumber="1" whitePlayer="GAMMACHO"/>
<Game blackPlayer="EPSEVE" handicap="0" knownColor="true" result="RESULT_WHITEWINS_BYDEF" roundNumber="2" tableNumber="2" whitePlayer="BETABEN"/>
<Game blackPlayer="ZETAFAY" handicap="0" knownColor="true" result="RESULT_EQUAL" roundNumber="2" tableNumber="3" whitePlayer="DELTADAN"/>
<Game blackPlayer="DELTADAN" handicap="0" knownColor="true" result="RESULT_BLACKWINS" roundNumber="3" tableNumber="1" whitePlayer="ALPHAANA"/>
<Game blackPlayer="BETABEN" handicap="0" knownColor="true" result="RESULT_WHITEWINS" roundNumber="3" tableNumber="2" whitePlayer="GAMMACHO"/>
</Games>
<ByePlayers>
<ByePlayer player="EPSEVE" roundNumber="3"/>
</ByePlayers>
<TournamentParameterSet>
<GeneralParameterSet basicTime="60" beginDate="2026-05-01" canByoYomiTime="300" complementaryTimeSystem="CANBYOYOMI" director="D" endDate="2026-05-02" genCountNotPlayedGamesAsHalfPoint="false" genMMBar="4D" genMMFloor="20K" genMMS2ValueAbsent="1" genMMS2ValueBye="2" genMMZero="30K" genNBW2ValueAbsent="0" genNBW2ValueBye="2" genRoundDownNBWMMS="true" komi="7" location="Berlin" name="Worked Example Open" nbMovesCanTime="15" numberOfCategories="1" numberOfRounds="3" shortName="wex" size="19" stdByoYomiTime="30"/>
<PlacementParameterSet>
<PlacementCriteria>
<PlacementCriterion name="MMS" number="1"/>
<PlacementCriterion name="SOSM" number="2"/>
<PlacementCriterion name="SOSOSM" number="3"/>
<PlacementCriterion name="NULL" number="4"/>
</PlacementCriteria>
</PlacementParameterSet>
</TournamentParameterSet>
</Tournament>
"#;

#[test]
fn the_worked_example_imported_from_opengotha_gives_its_standings() {
    let director = Keypair::from_seed([0x41; 32]);
    let officials = vec![Participant {
        role: Role::Director,
        name: "D".into(),
        key: director.public(),
    }];
    let imported = import(WORKED_EXAMPLE, officials).expect("imports");
    assert_eq!(imported.genesis.rounds, 3);
    assert_eq!(imported.genesis.criteria, ["MMS", "SOSM", "SOSOSM"]);
    let mut chain = Chain::create(&director, 1, imported.genesis).expect("genesis");
    for f in imported.facts {
        chain.append(&director, 2, f).expect("fact");
    }
    let chain = Chain::open(chain.records).expect("verifies");
    let t = chain.projection.tournament().expect("model");
    let st = standings(&t, 3, &[], &[]).expect("standings");
    let order: Vec<&str> = st.rows.iter().map(|r| r.player.as_str()).collect();
    let ids: Vec<String> = [
        ("Alpha", "Ana"),
        ("Delta", "Dan"),
        ("Beta", "Ben"),
        ("Gamma", "Cho"),
        ("Eps", "Eve"),
        ("Zeta", "Fay"),
    ]
    .iter()
    .map(|(n, f)| key_string(n, f))
    .collect();
    assert_eq!(order, ids);
    let p6 = &st.rows[5];
    assert_eq!(p6.get(Criterion::Mms), Some(Value::from_halves(59)));
    assert_eq!(p6.get(Criterion::Sosm), Some(Value::from_halves(185)));
    assert_eq!(p6.get(Criterion::Sososm), Some(Value::from_points(271)));
}

#[test]
fn bad_opengotha_files_are_refused() {
    assert!(import("<Tournament>", vec![]).is_err());
    assert!(import("<NotATournament/>", vec![]).is_err());
    let bad_result = WORKED_EXAMPLE.replace("RESULT_EQUAL", "RESULT_MAYBE");
    assert!(import(&bad_result, vec![]).is_err());
    let bad_criterion = WORKED_EXAMPLE.replace("name=\"SOSOSM\"", "name=\"STS\"");
    let e = import(&bad_criterion, vec![]).expect_err("STS is not supported");
    assert!(e.to_string().contains("STS"));
}

#[test]
fn a_huge_round_count_or_an_overflowing_time_is_refused_not_wrapped() {
    // Refused before anything is sized by the declared count.
    let rounds = WORKED_EXAMPLE.replace("numberOfRounds=\"3\"", "numberOfRounds=\"20000000\"");
    let e = import(&rounds, vec![]).expect_err("20,000,000 rounds");
    assert!(
        e.to_string()
            .contains("the number of rounds is 20000000; it must be from 1 to 200"),
        "{e}"
    );
    // 2^64 / 60,000 + 1 minutes would wrap to 44 seconds: refused instead.
    let time = WORKED_EXAMPLE.replace("basicTime=\"60\"", "basicTime=\"307445734561826\"");
    let e = import(&time, vec![]).expect_err("an overflowing basic time");
    assert!(e.to_string().contains("basic time (minutes)"), "{e}");
    let week = WORKED_EXAMPLE.replace("basicTime=\"60\"", "basicTime=\"10081\"");
    assert!(import(&week, vec![]).is_err(), "more than a week");
}

#[test]
fn an_iso_8859_15_file_is_read() {
    use kifu_tournament::opengotha::decode;
    assert_eq!(decode("Nemo André".as_bytes()), "Nemo André");
    assert_eq!(decode(b"Nemo Andr\xe9 \xbd"), "Nemo André œ");
}

/// Imports `xml` and reads the chain back.
fn imported_chain(xml: &str) -> Chain {
    let director = Keypair::from_seed([0x41; 32]);
    let officials = vec![Participant {
        role: Role::Director,
        name: "D".into(),
        key: director.public(),
    }];
    let imported = import(xml, officials).expect("imports");
    let mut chain = Chain::create(&director, 1, imported.genesis).expect("genesis");
    for f in imported.facts {
        chain.append(&director, 2, f).expect("fact");
    }
    Chain::open(chain.records).expect("verifies")
}

#[test]
fn a_game_whose_colours_were_not_noted_keeps_them_unknown_to_the_h9() {
    // Round 3 board 1 (Alpha – Delta, Black won) with knownColor="false".
    let xml = WORKED_EXAMPLE.replace(
        r#"<Game blackPlayer="DELTADAN" handicap="0" knownColor="true" result="RESULT_BLACKWINS" roundNumber="3""#,
        r#"<Game blackPlayer="DELTADAN" handicap="0" knownColor="false" result="RESULT_BLACKWINS" roundNumber="3""#,
    );
    assert_ne!(xml, WORKED_EXAMPLE);
    let chain = imported_chain(&xml);
    let p = &chain.projection;
    let unknown: Vec<(u32, u32)> = p
        .boards
        .iter()
        .filter(|(_, b)| !b.colours_known)
        .map(|(k, _)| *k)
        .collect();
    assert_eq!(unknown, [(3, 1)]);
    let records = chain.events().expect("events");
    assert!(records
        .iter()
        .any(|e| matches!(&e.body, kifu_ledger::Body::PairedColoursUnknown(q) if q.round == 3)));
    // The standings are OpenGotha's (the scores do not depend on colours
    // in an even game), and the `.h9` writes `?` for both players' colour
    // in that round only.
    let t = p.tournament().expect("model");
    let mut info = p.event_info();
    info.class = "A".into();
    info.adjusted_time_minutes = 80;
    let text = kifu_standings::h9::write(&t, &info, 3, true).expect("h9");
    let line = |name: &str| {
        text.lines()
            .find(|l| l.contains(name))
            .unwrap_or_default()
            .to_string()
    };
    let alpha = line("Alpha Ana");
    let delta = line("Delta Dan");
    assert!(alpha.ends_with("-/?0"), "{alpha}");
    assert!(delta.ends_with("+/?0"), "{delta}");
    // Rounds 1 and 2 keep their colours.
    assert!(alpha.contains("+/w0") && alpha.contains("+/b0"), "{alpha}");
    let st = standings(&t, 3, &[], &[]).expect("standings");
    assert_eq!(st.rows[0].player, key_string("Alpha", "Ana"));
    // A file with every colour known has none unknown.
    let known = imported_chain(WORKED_EXAMPLE);
    assert!(known.projection.boards.values().all(|b| b.colours_known));
}

#[test]
fn a_round_taken_from_the_file_pairs_its_boards_and_byes_only() {
    use kifu_ledger::Body;
    let imported = import(WORKED_EXAMPLE, vec![]).expect("imports");
    let r3 = imported.round(3);
    let boards: Vec<(u32, String, String)> = r3
        .iter()
        .filter_map(|b| match b {
            Body::Paired(p) => {
                assert_eq!((p.round, p.game), (3, None));
                Some((p.board, p.white.clone(), p.black.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[0].0, 1);
    let byes: Vec<&Body> = r3
        .iter()
        .filter(|b| matches!(b, Body::ByeGiven { .. }))
        .collect();
    assert_eq!(byes.len(), 1);
    // Nothing but pairings and byes, and nothing of another round.
    assert_eq!(r3.len(), 3);
    assert!(imported.round(4).is_empty());
    let counts = imported.counts();
    assert_eq!(counts.get("paired"), Some(&8));
    assert_eq!(counts.get("bye given"), Some(&1));
}

#[test]
fn an_import_is_checked_fact_by_fact_before_anything_is_signed() {
    use kifu_ledger::Body;
    let mut imported = import(WORKED_EXAMPLE, vec![]).expect("imports");
    assert!(imported.check().is_ok());
    // A pairing of somebody never registered, placed fifth.
    let mut p = match imported.facts.iter().find(|b| matches!(b, Body::Paired(_))) {
        Some(Body::Paired(p)) => p.clone(),
        _ => unreachable!("the file pairs"),
    };
    p.white = "NOBODY".into();
    p.round = 3;
    p.board = 9;
    imported.facts.insert(4, Body::Paired(p));
    let e = imported.check().unwrap_err();
    assert_eq!((e.index, e.kind), (5, "paired"));
    assert!(e.to_string().starts_with("paired #6 refused: "), "{e}");
}
