//! The bounds of the format (`docs/FORMAT.md` section 10, "Bounds"): every
//! count and length in a tournament's facts that sizes a reader's memory or
//! work, each with its limit. A fact past a bound is refused at append and
//! at verification, in words, by every face alike (the command line, the
//! director's desk, the server): nothing is ever sized by a declared count.
//!
//! The limits are far above any real event (the European Go Congress's main
//! tournament: about 700 players, 350 boards, 10 rounds) and far below what
//! would let one record cost a reader noticeable memory or time.

use thiserror::Error;

/// Rounds of a tournament: 1 to this. A round robin of 200 players fits.
pub const MAX_ROUNDS: u32 = 200;
/// Players registered in one tournament.
pub const MAX_PLAYERS: usize = 10_000;
/// Board numbers in a round: 1 to this.
pub const MAX_BOARD: u32 = 10_000;
/// A name (a tournament's, a player's surname or given name, a city, a
/// club, an official's), in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// A tournament's short name and a registration id, in characters.
pub const MAX_ID_CHARS: usize = 64;
/// Any other text field of a tournament's facts (a reason, a country, a
/// date, a pin), in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// Officials named in a tournament's genesis.
pub const MAX_OFFICIALS: usize = 200;
/// Placement criteria of a tournament.
pub const MAX_CRITERIA: usize = 32;
/// Any one time of a time control (main time, a period, an increment), in
/// milliseconds: a week.
pub const MAX_TIME_MS: u64 = 7 * 24 * 3_600_000;

/// A count or length past its bound.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoundError {
    /// A text longer than its bound.
    #[error("the {what} is {chars} characters long; the most is {max}")]
    TooLong {
        /// Which field, in words.
        what: &'static str,
        /// Its length in characters.
        chars: usize,
        /// The bound.
        max: usize,
    },
    /// A name holding a control or format character.
    #[error("the {what} holds the character U+{code:04X}, a control or format character that would change how the text around it is shown")]
    Character {
        /// Which field, in words.
        what: &'static str,
        /// The character's code point.
        code: u32,
    },
    /// A time zone not written as an IANA name.
    #[error("the time zone {zone:?} is not an IANA name such as Europe/Berlin or UTC")]
    TimeZone {
        /// The name given.
        zone: String,
    },
    /// A number or count outside its range.
    #[error("the {what} is {value}; it must be from {min} to {max}")]
    OutOfRange {
        /// Which number, in words.
        what: &'static str,
        /// The value given.
        value: u64,
        /// The least allowed.
        min: u64,
        /// The most allowed.
        max: u64,
    },
}

/// Refuses a name (of a tournament, a player, an official, a club) longer
/// than `max` characters, or holding a control character or a Unicode
/// format character that changes how text around it is shown: the
/// bidirectional overrides, embeddings and isolates (U+202A to U+202E,
/// U+2066 to U+2069), the marks U+200E, U+200F and U+061C, and the
/// invisible U+200B to U+200D, U+2060 to U+2064 and U+FEFF. A listing then
/// shows every name as it is stored: no name can reorder or hide the text
/// beside it.
pub fn name(what: &'static str, text: &str, max: usize) -> Result<(), BoundError> {
    self::text(what, text, max)?;
    if let Some(c) = text.chars().find(|c| c.is_control() || is_format(*c)) {
        return Err(BoundError::Character {
            what,
            code: u32::from(c),
        });
    }
    Ok(())
}

/// The format characters [`name`] refuses.
pub fn is_format(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// Refuses `text` longer than `max` characters (counted as characters,
/// never as bytes).
pub fn text(what: &'static str, text: &str, max: usize) -> Result<(), BoundError> {
    // Counting stops at the first character past the bound: a huge field
    // costs no more than a long one.
    let chars = text.chars().take(max + 1).count();
    if chars > max {
        return Err(BoundError::TooLong {
            what,
            chars: text.chars().count(),
            max,
        });
    }
    Ok(())
}

/// Refuses a time zone name that is not written as an IANA name is: `UTC`,
/// or an area and a location (`Europe/Berlin`, `America/Argentina/Salta`),
/// each part ASCII letters, digits, `_`, `+` or `-`, at most 64 characters
/// in all. Whether the zone exists is the tournament's check (it holds the
/// time zone database).
pub fn time_zone(zone: &str) -> Result<(), BoundError> {
    text("time zone", zone, 64)?;
    let part_ok = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-'))
    };
    if !zone.split('/').all(part_ok) {
        return Err(BoundError::TimeZone {
            zone: zone.to_string(),
        });
    }
    Ok(())
}

/// Periods of byo-yomi, or stones of a Canadian block.
pub const MAX_PERIODS: u32 = 1_000;

/// Refuses a time control whose times or counts pass their bounds.
pub fn time_control(tc: &crate::body::TimeControl) -> Result<(), BoundError> {
    use crate::body::TimeControl::*;
    let t = |what, v: u64| range(what, v, 0, MAX_TIME_MS);
    match *tc {
        Untimed => Ok(()),
        SuddenDeath { main_ms } => t("main time (ms)", main_ms),
        Fischer {
            main_ms,
            increment_ms,
            max_ms,
        } => t("main time (ms)", main_ms)
            .and(t("increment (ms)", increment_ms))
            .and(t("most time (ms)", max_ms.unwrap_or(0))),
        Simple { per_move_ms } => t("time per move (ms)", per_move_ms),
        Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => t("main time (ms)", main_ms)
            .and(t("period (ms)", period_ms))
            .and(range(
                "number of periods",
                periods.into(),
                0,
                MAX_PERIODS.into(),
            )),
        Canadian {
            main_ms,
            stones,
            block_ms,
        } => t("main time (ms)", main_ms)
            .and(t("block (ms)", block_ms))
            .and(range(
                "stones of a block",
                stones.into(),
                0,
                MAX_PERIODS.into(),
            )),
    }
}

/// Refuses `value` outside `min..=max`.
pub fn range(what: &'static str, value: u64, min: u64, max: u64) -> Result<(), BoundError> {
    if value < min || value > max {
        return Err(BoundError::OutOfRange {
            what,
            value,
            min,
            max,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_counted_in_characters_not_bytes() {
        // 200 two-byte characters are 400 bytes and within the bound.
        assert!(text("name", &"é".repeat(200), MAX_NAME_CHARS).is_ok());
        let e = text("name", &"é".repeat(201), MAX_NAME_CHARS).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the name is 201 characters long; the most is 200"
        );
    }

    #[test]
    fn a_name_cannot_reorder_or_hide_the_text_beside_it() {
        assert!(name("surname", "Ōhashi Hirofumi", MAX_NAME_CHARS).is_ok());
        assert!(name("surname", "محمد", MAX_NAME_CHARS).is_ok());
        for bad in [
            "Ann\u{202E}nnA",
            "A\u{2066}B",
            "A\u{200B}",
            "A\nB",
            "\u{FEFF}A",
        ] {
            let e = name("surname", bad, MAX_NAME_CHARS).unwrap_err();
            assert!(
                e.to_string().contains("control or format character"),
                "{bad:?}: {e}"
            );
        }
    }

    #[test]
    fn ranges_say_their_bounds_in_words() {
        assert!(range("number of rounds", 10, 1, MAX_ROUNDS as u64).is_ok());
        let e = range("number of rounds", 4_294_967_295, 1, MAX_ROUNDS as u64).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the number of rounds is 4294967295; it must be from 1 to 200"
        );
    }
}
