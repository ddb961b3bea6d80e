//! The rank grammar (`docs/FORMAT.md` section 10): what two verifiers must
//! agree is a Go rank, and that no text, whatever its characters, makes the
//! reader panic.

use kifu_standings::Rank;
use proptest::prelude::*;

#[test]
fn ranks_as_people_write_them_are_read() {
    for (text, shown) in [
        ("2d", "2d"),
        ("2D", "2d"),
        (" 15k ", "15k"),
        ("30K", "30k"),
        ("1k", "1k"),
        ("9d", "9d"),
        ("1p", "7d"),
        ("\u{3000}3d\u{a0}", "3d"),
    ] {
        let r: Rank = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(r.to_string(), shown, "{text:?}");
    }
}

#[test]
fn signs_leading_zeros_other_digits_and_look_alike_letters_are_not_ranks() {
    for text in [
        "+2d",
        "+30k",
        "-1k",
        "+0k",
        "02d",
        "0k",
        "00d",
        "31k",
        "10d",
        "10p",
        "100k",
        "2\u{e9}",
        "2\u{212a}",
        "\u{662}d",
        "\u{ff12}d",
        "２d",
        "2",
        "d",
        "",
        " ",
        "2 d",
        "2dd",
        "k2",
    ] {
        assert!(text.parse::<Rank>().is_err(), "{text:?} was read as a rank");
    }
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused_without_a_panic(text in "\\PC{0,8}") {
        let _ = text.parse::<Rank>();
    }

    #[test]
    fn every_rank_read_writes_back_to_itself(n in 1u8..=30, dan in any::<bool>()) {
        let text = if dan { format!("{}d", (n % 9) + 1) } else { format!("{n}k") };
        let r: Rank = text.parse().unwrap();
        prop_assert_eq!(r.to_string(), text);
    }
}
