//! The worked example (`tiebreak-example.json`) reproduced exactly: every
//! value of every player, and both orders.

mod common;

use kifu_standings::{scores, standings, Criterion, Value};

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
