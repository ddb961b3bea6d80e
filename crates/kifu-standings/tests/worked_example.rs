//! The worked example (`tiebreak-example.json`) reproduced exactly: every
//! value of every player, and both orders.

mod common;

use kifu_standings::{breakdown, scores, standings, Criterion, Value};

/// A fixture number (0.5, 78.75, 286) as an exact value.
fn exact(j: &serde_json::Value) -> Value {
    let x = j.as_f64().expect("number");
    let q = x * 4.0;
    assert_eq!(q.fract(), 0.0, "fixture value {x} is in quarters");
    Value::from_quarters(q as i64)
}

#[test]
fn every_value_of_the_worked_example_matches() {
    let f = common::fixture();
    let t = common::worked_example();
    let all = scores(&t, 3).expect("scores");
    let names = [
        ("NBW", Criterion::Nbw),
        ("MMS", Criterion::Mms),
        ("SOSW_Buchholz", Criterion::Sosw),
        ("SOSW_Buchholz", Criterion::Buchholz),
        ("SOSW-1_Buchholz_cut1", Criterion::SoswM1),
        ("SOSW-2", Criterion::SoswM2),
        ("median_Buchholz", Criterion::MedianBuchholz),
        ("SODOSW_Sonneborn_Berger", Criterion::Sodosw),
        ("SODOSW_Sonneborn_Berger", Criterion::SonnebornBerger),
        ("SOSOSW", Criterion::Sososw),
        ("CUSSW", Criterion::Cussw),
        ("SOSM", Criterion::Sosm),
        ("SOSM-1", Criterion::SosmM1),
        ("SOSM-2", Criterion::SosmM2),
        ("SODOSM", Criterion::Sodosm),
        ("SOSOSM", Criterion::Sososm),
        ("wins_incl_forfeit_and_bye", Criterion::Wins),
        ("wins_over_the_board", Criterion::WinsOverTheBoard),
    ];
    let mut checked = 0;
    for s in &all {
        let e = &f["expected"][&s.player];
        assert_eq!(
            s.smms,
            e["SMMS"].as_i64().expect("SMMS"),
            "{} SMMS",
            s.player
        );
        for (key, c) in names {
            assert_eq!(s.get(c), exact(&e[key]), "{} {key} ({c})", s.player);
            checked += 1;
        }
    }
    assert_eq!(checked, 6 * names.len());
}

#[test]
fn mcmahon_order_of_the_worked_example() {
    let f = common::fixture();
    let t = common::worked_example();
    let st = standings(&t, 3, &[], &[]).expect("standings");
    let order: Vec<&str> = st.rows.iter().map(|r| r.player.as_str()).collect();
    let expected: Vec<&str> = f["meta"]["orders"]["mcmahon_MMS_SOSM_SOSOSM"]
        .as_array()
        .expect("order")
        .iter()
        .map(|v| v.as_str().expect("id"))
        .collect();
    assert_eq!(order, expected);
    let places: Vec<u32> = st.rows.iter().map(|r| r.place).collect();
    assert_eq!(places, [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        st.rows[1].get(Criterion::Sosm),
        Some(Value::from_halves(187))
    );
}

#[test]
fn points_order_of_the_worked_example_with_head_to_head() {
    let f = common::fixture();
    let t = common::worked_example();
    let crit = Criterion::parse_list("POINTS,BUCHHOLZ,SONNEBORN-BERGER,WINS").expect("criteria");
    let st = standings(&t, 3, &crit, &[Criterion::HeadToHead]).expect("standings");
    let order: Vec<&str> = st.rows.iter().map(|r| r.player.as_str()).collect();
    let expected: Vec<&str> = f["meta"]["orders"]["plain_NBW_Buchholz_SB_wins"]
        .as_array()
        .expect("order")
        .iter()
        .map(|v| v.as_str().expect("id"))
        .collect();
    assert_eq!(order, expected);

    // Head-to-head on the points tie alone: P2–P3 met (P3 won), P1–P5 did not.
    let st = standings(&t, 3, &[Criterion::Points, Criterion::HeadToHead], &[]).expect("h2h");
    let h2h = |id: &str| {
        st.rows
            .iter()
            .find(|r| r.player == id)
            .and_then(|r| r.get(Criterion::HeadToHead))
            .expect("row")
    };
    let pairs = &f["meta"]["head_to_head_points_within_tied_groups"];
    for (group, ids) in [("P2_P3", ["P2", "P3"]), ("P1_P5", ["P1", "P5"])] {
        for id in ids {
            assert_eq!(h2h(id), exact(&pairs[group][id]), "{group} {id}");
        }
    }
}

/// P1's SOSM and SOSW-1 after round 3, taken apart: the opponents of
/// `tiebreak-example.json` and their scores, as a player checks them.
#[test]
fn the_worked_example_taken_apart() {
    let t = common::worked_example();
    let b = breakdown(
        &t,
        3,
        &[Criterion::Sosm, Criterion::SoswM1, Criterion::Mms],
        "P1",
    )
    .expect("breakdown");
    let parts = |k: usize| -> Vec<(u32, String, String, String, Value, bool)> {
        b[k].parts
            .iter()
            .map(|p| {
                (
                    p.round,
                    p.opponent.clone().unwrap_or_default(),
                    p.colour.clone().unwrap_or_default(),
                    p.outcome.clone(),
                    p.value,
                    p.counted,
                )
            })
            .collect()
    };
    let s = |x: &str| x.to_string();
    // R1 P1 (W) beat P2, R2 P3 (W) lost to P1, R3 P1 (W) lost to P4.
    // MMS after round 3: P2 32, P3 31, P4 32.5 (SOSM 95.5).
    assert_eq!(
        parts(0),
        [
            (
                1,
                s("P2"),
                s("white"),
                s("win"),
                Value::from_points(32),
                true
            ),
            (
                2,
                s("P3"),
                s("black"),
                s("win"),
                Value::from_points(31),
                true
            ),
            (
                3,
                s("P4"),
                s("white"),
                s("loss"),
                Value::from_halves(65),
                true
            ),
        ]
    );
    assert_eq!(b[0].value, Value::from_halves(191));
    // SOSW-1: NBW 1, 1, 2.5 without the lowest (round 1's, the first of
    // the two equal ones): 3.5.
    let w = parts(1);
    assert_eq!(
        w.iter().map(|p| p.5).collect::<Vec<_>>(),
        [false, true, true]
    );
    assert_eq!(b[1].value, Value::from_halves(7));
    // MMS: SMMS 31 and two wins.
    assert_eq!(b[2].base, Value::from_points(31));
    assert_eq!(b[2].value, Value::from_points(33));
}
