//! Seats no device holds (`docs/FORMAT.md` section 10, "Seats no device
//! holds"): the key of a player who signs nothing themself, because one
//! shared board recorder signs the game for both, or because the player
//! has no device yet.
//!
//! Such a seat is named with a key derived from the seat by RFC 9380's
//! hash to curve (suite `edwards25519_XMD:SHA-512_ELL2_RO_`): a point in the
//! prime-order group whose discrete logarithm nobody knows, so the key can
//! sign nothing, and anyone can derive it again to see that no one holds it.
//! It is an acceptable key (section 1, rule 1): the roster names the player,
//! the recorder signs for them, and an official can bind the player's own
//! device later with `key_replaced` (section 5.2).

use crate::body::Role;
use crate::key::PublicKey;

/// The domain separation tag of the hash to curve.
pub const UNHELD_DOMAIN: &[u8] = b"kifu/v1/unheld-seat";

/// The key of the seat `role` at `place` that no device holds: `place`
/// names the seat's game (`TOURNAMENT\nROUND\nBOARD` for a tournament
/// board, or the game's title), and the key is the hash to curve of
/// `place`, a line feed and the role's snake_case name.
pub fn unheld_key(place: &str, role: Role) -> PublicKey {
    let role = match role {
        Role::Black => "black",
        Role::White => "white",
        Role::Referee => "referee",
        Role::Recorder => "recorder",
        Role::Director => "director",
        Role::Committee => "committee",
    };
    let point = curve25519_dalek::EdwardsPoint::hash_to_curve::<ed25519_dalek::Sha512>(
        &[place.as_bytes(), b"\n", role.as_bytes()],
        &[UNHELD_DOMAIN],
    );
    PublicKey(point.compress().to_bytes())
}

/// The place of a tournament board, as [`unheld_key`] takes it.
pub fn board_place(tournament: &str, round: u32, board: u32) -> String {
    format!("{tournament}\n{round}\n{board}")
}

/// True when `key` is the unheld key of seat `role` at `place`.
pub fn is_unheld(key: &PublicKey, place: &str, role: Role) -> bool {
    unheld_key(place, role) == *key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unheld_key_is_acceptable_distinct_per_seat_and_the_same_each_time() {
        let place = board_place("spring-open", 3, 7);
        let black = unheld_key(&place, Role::Black);
        let white = unheld_key(&place, Role::White);
        assert_ne!(black, white);
        assert_eq!(black, unheld_key(&place, Role::Black));
        assert!(is_unheld(&black, &place, Role::Black));
        assert!(!is_unheld(
            &black,
            &board_place("spring-open", 3, 8),
            Role::Black
        ));
        // Section 1, rule 1: canonical, not of small order, torsion-free.
        assert!(crate::sig::check_key(&black.0).is_ok());
        assert!(crate::sig::check_key(&white.0).is_ok());
    }
}
