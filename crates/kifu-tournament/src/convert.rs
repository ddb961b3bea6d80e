//! The one home of the tournament's conversions across the format/rules
//! line: a game chain's recorded result (`kifu_ledger::GameResult`) as the
//! tournament's board result (`kifu_ledger::BoardResult`), and a board
//! result as the standings model's (`kifu_standings::GameResult`, the six
//! outcomes of OpenGotha). Functions, not `From` impls: the types are
//! foreign to this crate. (The game projection's conversions, to the clock
//! and the engines, are `kifu_game::convert`; that crate does not see the
//! standings.)

use kifu_ledger::{BoardResult, Color, GameResult, Outcome, ResultBy};

/// The tournament's view of a game chain's result: the board result and
/// whether it was by default (a forfeit).
pub fn board_result_of(r: &GameResult) -> (BoardResult, bool) {
    let result = match r.outcome {
        Outcome::Win(Color::White) => BoardResult::WhiteWins,
        Outcome::Win(Color::Black) => BoardResult::BlackWins,
        Outcome::Draw => BoardResult::Jigo,
        Outcome::BothLose => BoardResult::BothLose,
        Outcome::NoResult => BoardResult::Unknown,
    };
    (result, r.by == ResultBy::Forfeit)
}

/// The standings model's result for a recorded board result (same six
/// outcomes).
pub fn standings_result(r: BoardResult) -> kifu_standings::GameResult {
    use kifu_standings::GameResult as S;
    match r {
        BoardResult::Unknown => S::Unknown,
        BoardResult::WhiteWins => S::WhiteWins,
        BoardResult::BlackWins => S::BlackWins,
        BoardResult::Jigo => S::Jigo,
        BoardResult::BothLose => S::BothLose,
        BoardResult::BothWin => S::BothWin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_standings::GameResult as S;

    #[test]
    fn each_board_result_is_the_same_standings_result() {
        for (b, s) in [
            (BoardResult::Unknown, S::Unknown),
            (BoardResult::WhiteWins, S::WhiteWins),
            (BoardResult::BlackWins, S::BlackWins),
            (BoardResult::Jigo, S::Jigo),
            (BoardResult::BothLose, S::BothLose),
            (BoardResult::BothWin, S::BothWin),
        ] {
            assert_eq!(standings_result(b), s);
        }
    }

    #[test]
    fn a_game_result_is_a_board_result_and_a_forfeit_is_by_default() {
        let r = |outcome, by| GameResult { outcome, by };
        assert_eq!(
            board_result_of(&r(Outcome::Win(Color::Black), ResultBy::Resignation)),
            (BoardResult::BlackWins, false)
        );
        assert_eq!(
            board_result_of(&r(Outcome::Win(Color::White), ResultBy::Forfeit)),
            (BoardResult::WhiteWins, true)
        );
        assert_eq!(
            board_result_of(&r(
                Outcome::Draw,
                ResultBy::Score {
                    margin_half_points: 0
                }
            )),
            (BoardResult::Jigo, false)
        );
        assert_eq!(
            board_result_of(&r(Outcome::BothLose, ResultBy::Forfeit)).0,
            BoardResult::BothLose
        );
        assert_eq!(
            board_result_of(&r(Outcome::NoResult, ResultBy::Resignation)).0,
            BoardResult::Unknown
        );
    }
}
