//! The standings and results files as `kifu tournament standings` and
//! `export` write them, and the verdict on a chain and its games as
//! `kifu verify` and `kifu tournament verify` print it.

mod common;

use common::Held;
use kifu_ledger::testkit::{finished_game, Cast};
use kifu_ledger::{
    AbsenceReason, BoardResult, Body, Keypair, Participant, Problem, Registration, Role, ZERO_HASH,
};
use kifu_tournament::entry::{pairing, results_file, ResultsOptions};
use kifu_tournament::tables::{self, Format};
use kifu_tournament::{mcmahon_genesis, verdict, verify_tournament_records, Chain};

fn director() -> Keypair {
    Keypair::from_seed([0x51; 32])
}

fn reg(id: &str, surname: &str, given: &str, club: &str, key: Option<&Keypair>) -> Body {
    Body::PlayerRegistered(Registration {
        id: id.into(),
        surname: surname.into(),
        given: given.into(),
        rank: "1d".into(),
        rating: 0,
        country: "DE".into(),
        club: club.into(),
        egd_pin: String::new(),
        aga_id: String::new(),
        smms_correction: 0,
        key: key.map(Keypair::public),
    })
}

/// "Cup": four 1d players; round 1: A beats B, C has the bye, D is absent
/// (½ MMS, not rounded down).
fn cup() -> Chain {
    let d = director();
    let officials = vec![Participant {
        role: Role::Director,
        name: "Dora Director".into(),
        key: d.public(),
    }];
    let mut g = mcmahon_genesis("Cup", "cup", 3, officials);
    g.round_down_bye_absent = false;
    g.egf_class = "A".into();
    g.adjusted_time_minutes = 90;
    let mut chain = Chain::create(&d, 1, g).expect("genesis");
    chain
        .append_all(
            &d,
            2,
            vec![
                reg("A", "Alpha", "Al", "Go, Berlin", None),
                reg("B", "Bravo", "Bo \"the stone\"", "", None),
                reg("C", "Charlie", "Cy", "", None),
                reg("D", "Delta", "Di", "", None),
                pairing(1, 1, "A", "B", 0, None, true),
                Body::BoardResultEntered {
                    round: 1,
                    board: 1,
                    result: BoardResult::WhiteWins,
                    by_default: false,
                    reason: "result sheet".into(),
                },
                Body::ByeGiven {
                    round: 1,
                    player: "C".into(),
                },
                Body::PlayerAbsent {
                    round: 1,
                    player: "D".into(),
                    reason: AbsenceReason::RoundSkipped,
                },
            ],
        )
        .expect("facts");
    chain
}

#[test]
fn the_standings_table_shares_a_place_and_blanks_it() {
    let chain = cup();
    let st = tables::standings_of(&chain, None, Some("MMS"), false).expect("standings");
    assert_eq!(st.round, 1);
    let text = tables::standings_table(&chain, &st);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Cup — standings after round 1");
    assert_eq!(
        lines[1],
        format!(
            "{:>3}  {:<8} {:<24} {:>3} {:>7}",
            "Pl", "Id", "Name", "Rk", "MMS"
        )
    );
    // A won and C had the bye: both one point up, one place, the second
    // line's place left blank.
    assert!(lines[2].starts_with("  1  A        Alpha Al"), "{text}");
    assert!(lines[3].starts_with("     C        Charlie Cy"), "{text}");
    assert!(lines[4].starts_with("  3  D        Delta Di"), "{text}");
    assert!(lines[5].starts_with("  4  B        Bravo Bo"), "{text}");
    assert_eq!(lines.len(), 6);
}

#[test]
fn standings_json_writes_whole_numbers_and_exact_halves() {
    let chain = cup();
    let st = tables::standings_of(&chain, Some(1), Some("MMS,NBW"), false).expect("standings");
    let j = tables::standings_json(&st);
    assert_eq!(j["round"], 1);
    assert_eq!(j["criteria"], serde_json::json!(["MMS", "NBW"]));
    let row = |id: &str| {
        j["table"]
            .as_array()
            .expect("table")
            .iter()
            .find(|r| r["player"] == id)
            .cloned()
            .expect("row")
    };
    let (a, b, d) = (row("A"), row("B"), row("D"));
    assert!(a["values"]["MMS"].is_i64());
    assert_eq!(a["values"]["NBW"], 1);
    assert_eq!(b["values"]["NBW"], 0);
    // D's absence is worth ½ MMS over B's loss.
    let half = d["values"]["MMS"].as_f64().expect("number");
    assert_eq!(half - b["values"]["MMS"].as_f64().expect("number"), 0.5);
    assert!(d["values"]["MMS"].is_f64());
    // Every criterion shown when asked for.
    let all = tables::standings_of(&chain, Some(1), None, true).expect("standings");
    assert!(
        tables::standings_json(&all)["criteria"]
            .as_array()
            .expect("list")
            .len()
            > 3
    );
    assert!(tables::standings_of(&chain, None, Some("FOO"), false).is_err());
}

#[test]
fn the_csv_quotes_what_needs_quoting() {
    assert_eq!(tables::csv_field("plain"), "plain");
    // A name a spreadsheet would run as a formula is shown as text.
    assert_eq!(
        tables::csv_field("=HYPERLINK(\"x\")"),
        "\"'=HYPERLINK(\"\"x\"\")\""
    );
    assert_eq!(tables::csv_field("@SUM(A1)"), "'@SUM(A1)");
    assert_eq!(tables::csv_field("+cmd"), "'+cmd");
    assert_eq!(tables::csv_field("-2+3"), "'-2+3");
    // Numbers stay numbers.
    assert_eq!(tables::csv_field("-3"), "-3");
    assert_eq!(tables::csv_field("+2.5"), "+2.5");
    assert_eq!(tables::csv_field("Go, Berlin"), "\"Go, Berlin\"");
    assert_eq!(
        tables::csv_field("Bo \"the stone\""),
        "\"Bo \"\"the stone\"\"\""
    );
    let chain = cup();
    let csv = tables::export(&chain, Format::Csv, &ResultsOptions::default()).expect("csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "place,player,surname,given,rank,country,club,MMS,SOSM,SOSOSM"
    );
    assert!(
        lines[1].starts_with("1,A,Alpha,Al,1d,DE,\"Go, Berlin\","),
        "{csv}"
    );
    assert!(
        lines[4].starts_with("4,B,Bravo,\"Bo \"\"the stone\"\"\",1d,DE,,"),
        "{csv}"
    );
}

#[test]
fn every_export_format_and_an_unknown_one() {
    let chain = cup();
    let o = ResultsOptions::default();
    let h9 = tables::export(&chain, Format::H9, &o).expect("h9");
    assert_eq!(h9, results_file(&chain, "h9", &o).expect("h9"));
    let aga = tables::export(&chain, Format::Aga, &o).expect("aga");
    assert_eq!(aga, results_file(&chain, "aga", &o).expect("aga"));
    let json = tables::export(&chain, Format::Json, &o).expect("json");
    assert!(json.ends_with("}\n"));
    let doc: serde_json::Value = serde_json::from_str(&json).expect("parses");
    assert_eq!(doc["tournament"], hex::encode(chain.id()));
    assert_eq!(doc["short_name"], "cup");
    assert_eq!(
        doc["byes"],
        serde_json::json!([{"round": 1, "player": "C"}])
    );
    assert_eq!(
        doc["absences"],
        serde_json::json!([{"round": 1, "player": "D"}])
    );
    assert_eq!(doc["players"].as_array().expect("players").len(), 4);
    assert_eq!(doc["standings"]["round"], 1);
    assert_eq!("csv".parse::<Format>(), Ok(Format::Csv));
    assert_eq!(tables::file_name(&chain, Format::H9), "cup.h9");
    assert_eq!(tables::file_name(&chain, Format::Aga), "cup.txt");
    assert_eq!(Format::Json.media_type(), "application/json");
    assert_eq!(
        "xml".parse::<Format>().unwrap_err().to_string(),
        "unknown format 'xml' (h9, aga, csv, json)"
    );
}

#[test]
fn the_log_names_each_fact_and_its_signer() {
    let chain = cup();
    let events = chain.events().expect("events");
    assert_eq!(
        tables::log_line(&chain, &events[0]),
        format!(
            "{:>4}  {:<22}  {}  — Dora Director (tournament director)",
            0,
            "tournament created",
            kifu_ledger::tournament::describe(&events[0].body)
        )
    );
    let j = tables::log_json(&chain, &events[5]);
    assert_eq!(j["seq"], 5);
    assert_eq!(j["kind"], "paired");
    assert_eq!(j["signer"], "Dora Director (tournament director)");
    assert_eq!(j["body"]["paired"]["white"], "A");
    let stranger = Keypair::from_seed([0x77; 32]).public();
    assert_eq!(
        tables::signer_words(&chain, &stranger),
        stranger.to_hex()[..16]
    );
}

#[test]
fn a_download_is_named_by_the_short_name_in_safe_characters() {
    let d = director();
    let officials = vec![Participant {
        role: Role::Director,
        name: "D".into(),
        key: d.public(),
    }];
    let chain = Chain::create(
        &d,
        1,
        mcmahon_genesis("Spring Open", "Spring Open/2026 é", 3, officials),
    )
    .expect("genesis");
    assert_eq!(
        tables::file_name(&chain, Format::Csv),
        "Spring_Open_2026__.csv"
    );
}

#[test]
fn the_verdict_of_a_sound_chain_in_words_and_json() {
    let chain = cup();
    let mut report = verify_tournament_records(&chain.records);
    report.require_trusted(&[director().public()]);
    assert!(report.ok());
    let lines = verdict::summary_lines(&report);
    assert_eq!(
        lines[0],
        format!(
            "ok: tournament Cup ({}), {} events: links, signatures and roles check; created by the director Dora Director",
            hex::encode(chain.id()),
            chain.records.len()
        )
    );
    assert_eq!(
        lines[1],
        "3 rounds (1 paired), 4 players, 1 boards paired, 1 with a result, 1 byes, 1 absences, 0 sanctions"
    );
    assert_eq!(lines[2], "0 game checkpoints:");
    let j = verdict::chain_json(&report);
    assert_eq!(j["ok"], true);
    assert_eq!(j["tournament"], hex::encode(chain.id()));
    assert_eq!(j["director"], "Dora Director");
    assert_eq!(j["games"][0]["chain"], "tournament");
    assert_eq!(j["results"], 1);
    // A copy given twice is a note, not a failure.
    let mut twice = chain.records.clone();
    twice.push(chain.records[2].clone());
    let report = verify_tournament_records(&twice);
    assert!(report.ok());
    let notes = verdict::note_lines(&report);
    assert_eq!(notes.len(), 1);
    assert!(notes[0].starts_with("note: seq 2: record "), "{notes:?}");
}

#[test]
fn an_untrusted_or_broken_chain_is_refused_in_one_line() {
    let chain = cup();
    let mut report = verify_tournament_records(&chain.records);
    report.require_trusted(&[Keypair::from_seed([0x99; 32]).public()]);
    assert!(!report.ok());
    assert!(report.problems[0]
        .what
        .starts_with("untrusted: the tournament chain's genesis is signed by key "));
    // A record missing: the chain after it does not link.
    let mut gap = chain.records.clone();
    gap.remove(3);
    let report = verify_tournament_records(&gap);
    assert!(!report.ok());
    let line = verdict::failure_line("cup.kifu", &report, " and 2 in its games");
    let id = &hex::encode(chain.id())[..16];
    assert!(
        line.starts_with(&format!(
            "tournament chain cup.kifu: {} problem(s) and 2 in its games; the first: tournament {id} seq ",
            report.problems.len()
        )),
        "{line}"
    );
    assert!(
        verdict::summary_lines(&report)[0].contains("its longest verified branch ends at seq 2")
    );
    let input = Problem {
        game: ZERO_HASH,
        seq: Some(3),
        what: "unreadable".into(),
    };
    assert_eq!(verdict::problem_line(&input), "input seq 3: unreadable");
}

#[test]
fn the_games_a_chain_pairs_are_checked_against_the_games_held() {
    let cast = Cast::new();
    let game = finished_game(&cast, "round 1 board 1", 2);
    let d = director();
    let officials = vec![Participant {
        role: Role::Director,
        name: "D".into(),
        key: d.public(),
    }];
    let mut chain = Chain::create(
        &d,
        1,
        mcmahon_genesis("Sample Open", "Sample Open", 2, officials),
    )
    .expect("genesis");
    chain
        .append_all(
            &d,
            2,
            vec![
                reg("W", "W", "", "", Some(&cast.white)),
                reg("B", "B", "", "", Some(&cast.black)),
                pairing(1, 1, "W", "B", 0, Some(game.game), true),
            ],
        )
        .expect("facts");
    let held = Held::default().with(game.records.clone());
    let c = kifu_tournament::checkpoints::of_game(&held, &chain, game.game).expect("checkpoint");
    chain
        .append(&d, 3, Body::GameCheckpointed(c))
        .expect("checkpointed");
    assert_eq!(verdict::paired_games(&chain), vec![((1, 1), game.game)]);
    let checks = verdict::check_games(&chain, &held);
    assert_eq!(checks.len(), 1);
    assert_eq!(checks[0].problems, Vec::<String>::new());
    assert_eq!(
        checks[0].at(),
        format!("round 1 board 1, game {}", &hex::encode(game.game)[..16])
    );
    // The store holds less than was checkpointed.
    let short = Held::default().with(game.records[..2].to_vec());
    let checks = verdict::check_games(&chain, &short);
    assert_eq!(
        checks[0].problems,
        [format!(
            "the checkpoint names seq {}, the chain is shorter",
            game.head.seq
        )]
    );
    // Not held at all.
    let checks = verdict::check_games(&chain, &Held::default());
    assert_eq!(checks[0].problems, ["not in the store"]);
    let report = verify_tournament_records(&chain.records);
    let j = verdict::tournament_json(&report, "here", &checks, &[], &[]);
    assert_eq!(j["ok"], false);
    assert_eq!(j["file"], "here");
    assert_eq!(j["paired_games"][0]["ok"], false);
    assert_eq!(j["paired_games"][0]["problems"][0], "not in the store");
}
