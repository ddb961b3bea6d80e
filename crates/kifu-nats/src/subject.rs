//! The subject scheme and the message headers.
//!
//! Every record is published on
//!
//! ```text
//! kifu.<game id>.<tournament>
//! ```
//!
//! - `<game id>` is the game's id in lowercase hex (64 digits);
//! - `<tournament>` is the name of the tournament the genesis names
//!   (`Genesis::tournament`), written as one subject token: ASCII letters,
//!   digits, `-` and `_` stay as they are, every other byte of its UTF-8 is
//!   written `~` and two lowercase hex digits (`Sample Open` becomes
//!   `Sample~20Open`); a game outside any tournament has the token `~`.
//!
//! All the records of one game share one subject, so the stream keeps them in
//! the order they were published. One game: `kifu.<game id>.*`. One
//! tournament: `kifu.*.<tournament>`. Everything: `kifu.>`. (A tournament
//! whose name is empty has the token `~~`; neither `~` nor `~~` can come out
//! of a non-empty name.)

use kifu_ledger::{Genesis, Hash};

/// The first token of every kifu subject.
pub const ROOT: &str = "kifu";

/// The stream's subjects.
pub const STREAM_SUBJECTS: &str = "kifu.>";

/// Header: the record's place in the publishing server's feed.
pub const HEADER_CURSOR: &str = "Kifu-Cursor";
/// Header: the record's sequence number in its game.
pub const HEADER_SEQ: &str = "Kifu-Seq";
/// Header: the record's kind name (`stone_placed`, ...).
pub const HEADER_KIND: &str = "Kifu-Kind";
/// Header: the game id in hex.
pub const HEADER_GAME: &str = "Kifu-Game";
/// Header: JetStream's de-duplication id; kifu puts the record hash (hex).
pub const HEADER_MSG_ID: &str = "Nats-Msg-Id";

/// The token standing for "no tournament".
pub const NO_TOURNAMENT: &str = "~";

/// A tournament name written as one subject token (see the module text).
pub fn tournament_token(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            out.push('~');
            out.push_str(&hex::encode([b]));
        }
    }
    if out.is_empty() {
        // An empty name still needs a token, and `~` alone means none.
        out.push_str("~~");
    }
    out
}

/// The tournament token of a game from its genesis.
pub fn genesis_token(genesis: &Genesis) -> String {
    match &genesis.tournament {
        Some(t) => tournament_token(&t.tournament),
        None => NO_TOURNAMENT.to_string(),
    }
}

/// The subject a record of `game` is published on.
pub fn subject_for(game: &Hash, genesis: &Genesis) -> String {
    format!("{ROOT}.{}.{}", hex::encode(game), genesis_token(genesis))
}

/// The filter for one game's records.
pub fn game_filter(game: &Hash) -> String {
    format!("{ROOT}.{}.*", hex::encode(game))
}

/// The filter for one tournament's records.
pub fn tournament_filter(name: &str) -> String {
    format!("{ROOT}.*.{}", tournament_token(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_single_subject_tokens_and_distinct() {
        assert_eq!(tournament_token("Sample Open"), "Sample~20Open");
        assert_eq!(tournament_token("a.b*c>d~"), "a~2eb~2ac~3ed~7e");
        assert_eq!(tournament_token("Meijin-2026_r1"), "Meijin-2026_r1");
        assert_eq!(tournament_token("碁"), "~e7~a2~81");
        assert_eq!(tournament_token(""), "~~");
        for name in ["", "x", "Sample Open", "a.b", "~", "~~", "\t"] {
            let t = tournament_token(name);
            assert!(!t.is_empty());
            assert!(!t.contains(['.', '*', '>', ' ', '\t']), "{t}");
            assert_ne!(t, NO_TOURNAMENT);
        }
        assert_ne!(tournament_token("~"), tournament_token("~7e"));
    }

    #[test]
    fn filters_match_the_subject_layout() {
        let game = [0xab; 32];
        let mut g = kifu_ledger::testkit::Cast::new().genesis("t");
        let s = subject_for(&game, &g);
        assert_eq!(s, format!("kifu.{}.Sample~20Open", "ab".repeat(32)));
        assert_eq!(game_filter(&game), format!("kifu.{}.*", "ab".repeat(32)));
        assert_eq!(tournament_filter("Sample Open"), "kifu.*.Sample~20Open");
        g.tournament = None;
        assert!(subject_for(&game, &g).ends_with(".~"));
    }
}
