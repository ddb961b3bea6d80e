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

/// `n` variations nested one inside the other, each with one move: the
/// main line is the first move of each, `(;B[aa](;W[bb](;B[aa]...)))`.
fn nested(n: usize) -> String {
    let mut s = String::with_capacity(n * 10);
    s.push_str("(;SZ[9]");
    for i in 0..n {
        s.push_str(if i % 2 == 0 { "(;B[aa]" } else { "(;W[bb]" });
    }
    for _ in 0..n {
        s.push(')');
    }
    s.push(')');
    s
}

#[test]
fn deeply_nested_variations_are_read_in_bounded_memory() {
    // About 1.4 MB of nesting: read without recursion; every node is on the
    // main line here, so the line is as long as the nesting.
    let g = sgf::read(&nested(200_000)).expect("nested record");
    assert_eq!(g.moves.len(), 200_000);
    // Side variations nested deeply are scanned, not kept.
    let mut text = String::from("(;SZ[9];B[ee](;W[cc])(;W[aa]");
    for _ in 0..200_000 {
        text.push_str("(;B[bb]");
    }
    text.push_str(&")".repeat(200_000));
    text.push_str("))");
    let g = sgf::read(&text).expect("record");
    assert_eq!(g.moves.len(), 2);
    assert_eq!(g.moves[1].point, Some(Point::new(2, 2)));
    let side = sgf::read("(;SZ[9];B[ee](;W[aa];B[bb])(;W[cc](;B[dd])(;B[ff])))").expect("sgf");
    assert_eq!(side.moves.len(), 3);
    assert_eq!(side.moves[2].point, Some(Point::new(1, 1)));
}

#[test]
fn a_node_with_many_distinct_properties_is_read_in_linear_time() {
    // 60,000 distinct identifiers (about 600 KB): a linear scan per
    // property would take minutes; the index keeps it linear.
    let mut text = String::from("(;SZ[9]");
    let letters: Vec<char> = ('A'..='Z').collect();
    let mut n = 0;
    'outer: for a in &letters {
        for b in &letters {
            for c in &letters {
                for d in &letters {
                    text.push_str(&format!("X{a}{b}{c}{d}[1]"));
                    n += 1;
                    if n == 60_000 {
                        break 'outer;
                    }
                }
            }
        }
    }
    text.push(')');
    // More than any record needs: refused, after one linear scan.
    assert!(matches!(sgf::read(&text), Err(kifu_go::Error::Sgf { .. })));
    // As many as the reader keeps: all kept, in order.
    // (SZ is one of them.)
    let upto = text
        .match_indices("[1]")
        .nth(sgf::MAX_PROPERTIES - 2)
        .map(|(i, _)| i + 3)
        .unwrap();
    let g = sgf::read(&format!("{})", &text[..upto])).expect("record");
    assert_eq!(g.other.len(), sgf::MAX_PROPERTIES - 1);
}

#[test]
fn setup_rectangles_are_bounded_by_the_board() {
    let g = sgf::read("(;SZ[19]AB[aa:ss])").expect("one full rectangle");
    assert_eq!(g.setup_black.len(), 361);
    // A file repeating the rectangle is refused at once, not expanded
    // 100,000 times.
    let text = format!("(;SZ[19]AB{})", "[aa:ss]".repeat(100_000));
    assert!(matches!(sgf::read(&text), Err(kifu_go::Error::Sgf { .. })));
    // Off-board corners are refused.
    assert!(sgf::read("(;SZ[9]AB[aa:zz])").is_err());
}

#[test]
fn lower_case_identifiers_write_and_read_back_exactly() {
    let g = sgf::read("(;M[]r[])").expect("sgf");
    assert!(g.other.iter().any(|(id, _)| id == "r"));
    assert!(g.other.iter().any(|(id, _)| id == "M"));
    let text = sgf::write(&g);
    assert!(text.contains("r[]"), "{text}");
    assert_eq!(sgf::read(&text).expect("back"), g);
}

#[test]
fn encodings_are_read_by_their_ca_property() {
    // 围棋 in GB2312, 囲碁 in Shift_JIS, Müller in Latin-1.
    let gb: &[u8] = b"(;GM[1]CA[GB2312]SZ[19]PB[\xce\xa7\xc6\xe5])";
    let (g, w) = sgf::read_bytes(gb).expect("gb2312");
    assert_eq!(g.black_player.as_deref(), Some("围棋"));
    assert!(w.is_empty(), "{w:?}");
    let sj: &[u8] = b"(;GM[1]CA[Shift_JIS]SZ[19]PW[\x88\xcd\x8c\xe9])";
    let (g, _) = sgf::read_bytes(sj).expect("shift_jis");
    assert_eq!(g.white_player.as_deref(), Some("囲碁"));
    let l1: &[u8] = b"(;GM[1]CA[ISO-8859-1]SZ[19]PB[M\xfcller])";
    let (g, _) = sgf::read_bytes(l1).expect("latin-1");
    assert_eq!(g.black_player.as_deref(), Some("Müller"));
    // No CA and not UTF-8: Latin-1, with a warning.
    let (g, w) = sgf::read_bytes(b"(;SZ[19]PB[M\xfcller])").expect("default");
    assert_eq!(g.black_player.as_deref(), Some("Müller"));
    assert_eq!(w.len(), 1);
    // An unknown label is a warning, not a silent guess.
    let (_, w) = sgf::read_bytes(b"(;CA[klingon]SZ[19])").expect("unknown");
    assert_eq!(w[0].property, "CA");
}

#[test]
fn records_of_other_games_are_refused_and_odd_values_warned_about() {
    assert!(matches!(
        sgf::read("(;GM[6]SZ[8];B[aa])"),
        Err(kifu_go::Error::Sgf { .. })
    ));
    let (g, w) = sgf::read_with_warnings("(;GM[1]SZ[19]KM[abc]HA[x]RE[B])").expect("sgf");
    assert_eq!(g.komi, None);
    assert_eq!(g.handicap, 0);
    // RE is kept as written; reading it as a result is the importer's job.
    assert_eq!(g.result.as_deref(), Some("B"));
    let props: Vec<&str> = w.iter().map(|w| w.property.as_str()).collect();
    assert_eq!(props, ["KM", "HA"]);
}

#[test]
fn export_information_keeps_the_record_and_adds_what_kifu_knows() {
    use kifu_go::sgf::{write_game_info, ExportFacts, GameInfo, SgfMove};
    // An imported record's information is written back as it was.
    let original =
        sgf::read("(;GM[1]SZ[19]PB[Lee]BR[9p]PW[Han]DT[2019-12-18]RU[Chinese]KM[7.5]RE[B])")
            .expect("sgf");
    let info = GameInfo::from_game(&original);
    let mut g = kifu_go::SgfGame::new(19);
    g.komi = Some(Komi(15));
    g.moves
        .push(SgfMove::new(Color::Black, Some(Point::new(3, 3))));
    let mut off = SgfMove::new(Color::White, Some(Point::new(19, 2)));
    off.white_time_left_ms = Some(0);
    g.moves.push(off);
    let facts = ExportFacts {
        ruleset: "lgc-2023".into(),
        event: Some("Open".into()),
        round: Some(2),
        date: Some("2026-01-01".into()),
        timed: false,
        info: Some(info.clone()),
    };
    write_game_info(&mut g, &facts);
    let text = sgf::write(&g);
    let back = sgf::read(&text).expect("reads back");
    assert_eq!(GameInfo::from_game(&back).get("BR"), Some("9p"));
    assert_eq!(
        back.rules.as_deref(),
        Some("Chinese"),
        "the record's RU is kept"
    );
    assert_eq!(back.result.as_deref(), Some("B"));
    assert_eq!(
        back.date.as_deref(),
        Some("2019-12-18"),
        "not the import date"
    );
    assert_eq!(back.root("EV"), Some("Open"));
    assert_eq!(back.root("RO"), Some("2"));
    assert_eq!(back.root("KIFURULES"), Some("lgc-2023"));
    // The off-board move is a comment, and no time is written untimed.
    assert_eq!(back.moves.len(), 1);
    assert!(back.moves[0]
        .comment
        .as_deref()
        .unwrap_or("")
        .contains("off the board"));
    assert!(!text.contains("WL[") && !text.contains("BL["), "{text}");
    // A game recorded in kifu: the closest standard RU and the date.
    let mut g = kifu_go::SgfGame::new(9);
    write_game_info(
        &mut g,
        &ExportFacts {
            ruleset: "lgc-2023".into(),
            date: Some("2026-01-01".into()),
            timed: true,
            ..ExportFacts::default()
        },
    );
    assert_eq!(g.rules.as_deref(), Some("AGA"));
    assert_eq!(g.date.as_deref(), Some("2026-01-01"));
    let mut g = kifu_go::SgfGame::new(9);
    write_game_info(
        &mut g,
        &ExportFacts {
            ruleset: "chinese".into(),
            ..ExportFacts::default()
        },
    );
    assert_eq!(g.rules.as_deref(), Some("Chinese"));
}
