//! kifu's draw against OpenGotha 3.51.02's own, board by board, on the
//! generator's tournaments (8 to 120 players, McMahon and Swiss, with late
//! entries, withdrawals, absences and odd fields). Each round is drawn by
//! both from the same history; OpenGotha's draw is then played (seeded
//! results) so the next round starts from OpenGotha's own tournament.
//! Where the boards differ, both draws are costed by OpenGotha's own
//! `costValue`: a different draw of the same total cost is a tie the two
//! matchings broke differently; kifu's draw must never cost less.
//!
//! Needs a JDK and `KIFU_OPENGOTHA_JAR=path/to/opengotha.jar` (OpenGotha
//! 3.51.02, `distribution/opengotha.jar` of lucvannier/opengotha); skipped
//! without them. Runs `tests/peers/OpenGothaPairing.java`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use kifu_pairing::generate::{play, tournament, Rng, Shape};
use kifu_pairing::{draw_cost, pair, Board, Draw, PairingSettings, System};
use kifu_standings::{GameResult, Tournament};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

/// The tournament as an OpenGotha file, rounds before `round` only.
fn opengotha_xml(t: &Tournament, round: u32, system: System) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
         <Tournament dataVersion=\"201\" gothaVersion=\"351\">\n<Players>\n",
    );
    for p in &t.players {
        let participating: String = (1..=20)
            .map(|r| {
                if t.absences.contains(&(r, p.id.clone())) {
                    '0'
                } else {
                    '1'
                }
            })
            .collect();
        let _ = writeln!(
            x,
            "<Player agaId=\"\" club=\"{}\" country=\"{}\" egfPin=\"\" ffgLicence=\"\" firstName=\"{}\" \
             name=\"{}\" participating=\"{}\" rank=\"{}\" rating=\"{}\" registeringStatus=\"FIN\" \
             smmsCorrection=\"{}\"/>",
            escape(&p.club),
            escape(&p.country),
            escape(&p.given),
            escape(&p.surname),
            participating,
            p.rank.to_string().to_uppercase(),
            p.rating,
            p.smms_correction
        );
    }
    x.push_str("</Players>\n<Games>\n");
    for g in t.games.iter().filter(|g| g.round < round) {
        let result = match g.result {
            GameResult::WhiteWins => "RESULT_WHITEWINS",
            GameResult::BlackWins => "RESULT_BLACKWINS",
            GameResult::Jigo => "RESULT_EQUAL",
            GameResult::BothWin => "RESULT_BOTHWIN",
            GameResult::BothLose => "RESULT_BOTHLOSE",
            GameResult::Unknown => "RESULT_UNKNOWN",
        };
        let _ = writeln!(
            x,
            "<Game blackPlayer=\"{}\" handicap=\"{}\" knownColor=\"true\" result=\"{}\" \
             roundNumber=\"{}\" tableNumber=\"{}\" whitePlayer=\"{}\"/>",
            g.black, g.handicap, result, g.round, g.board, g.white
        );
    }
    x.push_str("</Games>\n<ByePlayers>\n");
    for (r, p) in t.byes.iter().filter(|(r, _)| *r < round) {
        let _ = writeln!(x, "<ByePlayer player=\"{p}\" roundNumber=\"{r}\"/>");
    }
    let criteria = match system {
        System::McMahon => ["MMS", "SOSM", "SOSOSM"],
        System::Swiss => ["NBW", "SOSW", "SOSOSW"],
    };
    let listed: String = criteria
        .iter()
        .chain(["NULL"; 3].iter())
        .enumerate()
        .map(|(i, c)| format!("<PlacementCriterion name=\"{c}\" number=\"{}\"/>", i + 1))
        .collect();
    let _ = write!(
        x,
        "</ByePlayers>\n<TournamentParameterSet>\n\
         <GeneralParameterSet basicTime=\"60\" beginDate=\"2026-05-01\" canByoYomiTime=\"300\" \
         complementaryTimeSystem=\"CANBYOYOMI\" endDate=\"2026-05-02\" \
         genCountNotPlayedGamesAsHalfPoint=\"false\" genMMBar=\"4D\" genMMFloor=\"20K\" \
         genMMS2ValueAbsent=\"1\" genMMS2ValueBye=\"2\" genMMZero=\"30K\" genNBW2ValueAbsent=\"0\" \
         genNBW2ValueBye=\"2\" genRoundDownNBWMMS=\"true\" komi=\"7\" location=\"Leiden\" \
         name=\"Generated\" nbMovesCanTime=\"15\" numberOfCategories=\"1\" numberOfRounds=\"{}\" \
         shortName=\"generated\" size=\"19\" stdByoYomiTime=\"30\"/>\n\
         <HandicapParameterSet hdBasedOnMMS=\"true\" hdCeiling=\"9\" hdCorrection=\"1\" hdNoHdRankThreshold=\"1D\"/>\n\
         <PlacementParameterSet><PlacementCriteria>{listed}</PlacementCriteria></PlacementParameterSet>\n\
         <PairingParameterSet paiBaAvoidDuplGame=\"500000000000000\" paiBaBalanceWB=\"1000000\" \
         paiBaDeterministic=\"true\" paiBaRandom=\"0\" paiMaAdditionalPlacementCritSystem1=\"Rating\" \
         paiMaAdditionalPlacementCritSystem2=\"NULL\" paiMaAvoidMixingCategories=\"0\" \
         paiMaCompensateDUDD=\"true\" paiMaDUDDLowerMode=\"MID\" paiMaDUDDUpperMode=\"MID\" \
         paiMaDUDDWeight=\"100000000\" paiMaLastRoundForSeedSystem1=\"1\" paiMaMaximizeSeeding=\"5000000\" \
         paiMaMinimizeScoreDifference=\"100000000000\" paiMaSeedSystem1=\"SPLITANDRANDOM\" \
         paiMaSeedSystem2=\"SPLITANDSLIP\" paiSeAvoidSameGeo=\"100000000000\" paiSeBarThresholdActive=\"true\" \
         paiSeDefSecCrit=\"100000000000\" paiSeMinimizeHandicap=\"0\" paiSeNbWinsThresholdActive=\"false\" \
         paiSePreferMMSDiffRatherThanSameClub=\"3\" paiSePreferMMSDiffRatherThanSameCountry=\"1\" \
         paiSeRankThreshold=\"1D\" paiStandardNX1Factor=\"0.5\"/>\n\
         </TournamentParameterSet></Tournament>\n",
        t.settings.rounds
    );
    x
}

/// OpenGotha's draw of `round` and the costs: (draw, its cost, the cost
/// of `pairs` under OpenGotha's evaluation).
fn opengotha_draw(
    jar: &str,
    classes: &Path,
    xml: &Path,
    round: u32,
    pairs: &Path,
) -> (Draw, i64, i64) {
    let cp = format!("{jar}:{}", classes.display());
    let out = Command::new("java")
        .args(["-Djava.awt.headless=true", "-cp", &cp, "OpenGothaPairing"])
        .arg(xml)
        .arg(round.to_string())
        .arg(pairs)
        .output()
        .expect("java runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("cost given"),
        "OpenGotha failed on {}: {}{}",
        xml.display(),
        text,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut draw = Draw {
        round,
        boards: Vec::new(),
        bye: None,
    };
    let (mut own, mut given) = (0, 0);
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["bye", "-"] => {}
            ["bye", id] => draw.bye = Some(id.to_string()),
            ["table", t, w, b, h] => draw.boards.push(Board {
                table: t.parse().expect("table"),
                white: w.to_string(),
                black: b.to_string(),
                handicap: h.parse().expect("handicap"),
            }),
            ["cost", "opengotha", n] => own = n.parse().expect("cost"),
            ["cost", "given", n] => given = n.parse().expect("cost"),
            _ => {}
        }
    }
    (draw, own, given)
}

fn pairs_of(d: &Draw) -> Vec<(String, String)> {
    d.boards
        .iter()
        .map(|b| (b.white.clone(), b.black.clone()))
        .collect()
}

#[test]
fn kifu_draws_as_opengotha_itself() {
    let Ok(jar) = std::env::var("KIFU_OPENGOTHA_JAR") else {
        eprintln!("KIFU_OPENGOTHA_JAR not set: OpenGotha's own draw not compared");
        return;
    };
    let dir = std::env::temp_dir().join(format!("kifu-pairing-opengotha-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let built = Command::new("javac")
        .args(["-cp", &jar, "-d"])
        .arg(&dir)
        .arg(workspace().join("tests/peers/OpenGothaPairing.java"))
        .status()
        .expect("javac runs (KIFU_OPENGOTHA_JAR is set)");
    assert!(built.success(), "javac OpenGothaPairing.java");

    let sizes: Vec<usize> = match std::env::var("KIFU_PAIRING_SIZES") {
        Ok(s) => s.split(',').filter_map(|n| n.trim().parse().ok()).collect(),
        Err(_) => vec![8, 9, 13, 20, 31, 48, 64, 85, 120],
    };
    // Another batch: KIFU_PAIRING_SEED (default 1000), KIFU_PAIRING_ROUNDS
    // (default 5).
    let base: u64 = std::env::var("KIFU_PAIRING_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let round_count: u32 = std::env::var("KIFU_PAIRING_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let (mut rounds, mut identical, mut same_pairs, mut ties, mut worse) = (0, 0, 0, 0, 0);
    let mut report = String::new();
    for (k, &players) in sizes.iter().enumerate() {
        for system in [System::McMahon, System::Swiss] {
            let seed = base + k as u64 * 2 + u64::from(system == System::Swiss);
            let mut rng = Rng::new(seed);
            let shape = Shape::new(players, round_count, system);
            let mut t = tournament(&shape, &mut rng);
            let settings = PairingSettings::for_system(system);
            for round in 1..=shape.rounds {
                let xml = dir.join(format!("t{seed}-r{round}.xml"));
                std::fs::write(&xml, opengotha_xml(&t, round, system)).expect("xml written");
                let ours = pair(&t, round, &settings).expect("kifu draws");
                let pairs_file = dir.join(format!("t{seed}-r{round}.pairs"));
                let listed: String = pairs_of(&ours)
                    .iter()
                    .map(|(a, b)| format!("{a} {b}\n"))
                    .collect();
                std::fs::write(&pairs_file, listed).expect("pairs written");
                let (theirs, their_cost, our_cost_by_them) =
                    opengotha_draw(&jar, &dir, &xml, round, &pairs_file);
                let our_cost = draw_cost(&t, round, &settings, &pairs_of(&ours)).expect("cost");
                let their_cost_by_us =
                    draw_cost(&t, round, &settings, &pairs_of(&theirs)).expect("cost");
                rounds += 1;
                let sorted = |d: &Draw| {
                    let mut p: Vec<(String, String)> = d
                        .boards
                        .iter()
                        .map(|b| {
                            let mut x = [b.white.clone(), b.black.clone()];
                            x.sort();
                            (x[0].clone(), x[1].clone())
                        })
                        .collect();
                    p.sort();
                    p
                };
                let line = format!(
                    "{players:>3} {system:?} seed {seed} round {round}: OpenGotha cost {their_cost} \
                     (kifu's evaluation {their_cost_by_us}), kifu cost {our_cost_by_them} \
                     (kifu's evaluation {our_cost}); bye {:?} / {:?}",
                    theirs.bye, ours.bye
                );
                // kifu's evaluation is OpenGotha's, to the unit.
                assert_eq!(their_cost, their_cost_by_us, "{line}");
                assert_eq!(our_cost_by_them, our_cost, "{line}");
                if ours == theirs {
                    identical += 1;
                } else {
                    if sorted(&ours) == sorted(&theirs) && ours.bye == theirs.bye {
                        same_pairs += 1;
                    }
                    if our_cost_by_them == their_cost && ours.bye == theirs.bye {
                        ties += 1;
                    } else {
                        worse += 1;
                    }
                    let _ = writeln!(report, "differs: {line}");
                    for (a, b) in ours.boards.iter().zip(theirs.boards.iter()) {
                        if a != b {
                            let _ = writeln!(report, "    kifu {a:?}\n    OG   {b:?}");
                        }
                    }
                }
                play(&mut t, &theirs, &mut rng);
            }
        }
    }
    eprintln!(
        "{report}{rounds} rounds: {identical} identical board by board; of the {} others, \
         {same_pairs} with the same pairs (other tables or colours), {ties} of equal total cost \
         under OpenGotha's evaluation, {worse} different otherwise",
        rounds - identical
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        worse, 0,
        "kifu's draw cost differs from OpenGotha's in {worse} rounds"
    );
}
