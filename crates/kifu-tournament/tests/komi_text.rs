//! The komi a tournament's results files state is the ledger's writing of
//! half points, for every value a genesis can hold.

use kifu_tournament::{mcmahon_genesis, Projection};

fn komi_text(half_points: i32) -> String {
    let mut g = mcmahon_genesis("Komi Open", "komi", 1, Vec::new());
    g.komi_half_points = half_points;
    Projection::new([7; 32], g)
        .expect("a McMahon genesis")
        .event_info()
        .komi
}

#[test]
fn the_event_s_komi_is_written_as_half_points_with_its_sign() {
    assert_eq!(komi_text(15), "7.5");
    assert_eq!(komi_text(12), "6");
    assert_eq!(komi_text(0), "0");
    assert_eq!(komi_text(-1), "-0.5");
    assert_eq!(komi_text(-6), "-3");
}
