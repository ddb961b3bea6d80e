//! SGF reading details.

use kifu_go::{sgf, Color, Komi, Point};

#[test]
fn main_line_takes_the_first_variation_at_every_branch() {
    let g = sgf::read("(;SZ[9](;B[aa](;W[bb];B[cc])(;W[dd]))(;B[ee]))").expect("sgf");
    let pts: Vec<_> = g
        .moves
        .iter()
        .map(|m| m.point.map(|p| p.to_sgf()))
        .collect();
    assert_eq!(
        pts,
        vec![Some("aa".into()), Some("bb".into()), Some("cc".into())]
    );
}

#[test]
fn escapes_and_soft_line_breaks() {
    let g = sgf::read("(;C[a\\]b\\\\c\\\nd\ne];B[aa]C[x\\:y])").expect("sgf");
    assert_eq!(g.comment.as_deref(), Some("a]b\\cd\ne"));
    assert_eq!(g.moves[0].comment.as_deref(), Some("x:y"));
}

#[test]
fn passes_as_empty_and_tt_up_to_19() {
    let g = sgf::read("(;SZ[19];B[];W[tt])").expect("sgf");
    assert_eq!(g.moves[0].point, None);
    assert_eq!(g.moves[1].point, None);
    let g = sgf::read("(;SZ[21];B[tt])").expect("sgf");
    assert_eq!(g.moves[0].point, Some(Point::new(19, 19)));
}

#[test]
fn real_world_oddities_are_tolerated() {
    // FF[3] long names, setup in a second node, unknown properties, odd komi,
    // time properties, a BOM before the tree.
    let text = "\u{feff}(;GaMe[1]FF[3]SZ[19]KM[650]HA[2]TM[-]XX[whatever]OT[3x60 byo-yomi]\n\
                PB[Lee]PW[Han]RE[B+R]DT[2019-12-18]RU[Chinese]\n;AB[pd][dp]\n;W[qp]WL[7199.5]OW[3];B[dd]BL[12]C[hi])";
    let g = sgf::read(text).expect("sgf");
    assert_eq!(g.komi, Some(Komi(1300)));
    assert_eq!(g.handicap, 2);
    assert_eq!(g.time_limit_ms, None);
    assert_eq!(g.overtime.as_deref(), Some("3x60 byo-yomi"));
    assert_eq!(g.setup_black.len(), 2);
    assert_eq!(g.first_to_move(), Color::White);
    assert_eq!(g.moves[0].white_time_left_ms, Some(7_199_500));
    assert_eq!(g.moves[0].white_overtime_left, Some(3));
    assert_eq!(g.moves[1].black_time_left_ms, Some(12_000));
    assert!(g
        .other
        .iter()
        .any(|(id, v)| id == "XX" && v == &["whatever"]));
    let back = sgf::read(&sgf::write(&g)).expect("round trip");
    assert_eq!(back, g);
}

#[test]
fn malformed_records_are_typed_errors() {
    assert!(matches!(
        sgf::read("no tree"),
        Err(kifu_go::Error::Sgf { .. })
    ));
    assert!(matches!(
        sgf::read("(;B[aa]"),
        Err(kifu_go::Error::Sgf { .. })
    ));
    assert!(matches!(
        sgf::read("(;SZ[26])"),
        Err(kifu_go::Error::BoardSize(26))
    ));
    assert!(matches!(
        sgf::read("(;SZ[9];B[zz])"),
        Err(kifu_go::Error::SgfPoint { .. })
    ));
}

#[test]
fn setup_beside_a_move_in_the_root_is_part_of_the_start() {
    let g = sgf::read("(;SZ[9]AB[cc][gg]B[ee];W[dd])").expect("sgf");
    assert_eq!(g.setup_black.len(), 2);
    assert_eq!(g.moves.len(), 2);
    assert!(g.other.is_empty());
    assert_eq!(sgf::read(&sgf::write(&g)).expect("round trip"), g);
}
