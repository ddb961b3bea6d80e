//! The clauses behind a profile's choices, quoted from the rule documents.
//!
//! Each tournament profile carries, as data, the words of its document for
//! every choice it makes, so a projection that applies a rule can say which
//! one: `ruleset.clause(Topic::Ko)`. The tests check that every quotation is
//! found, word for word, in `docs/rules/`.

use serde::{Deserialize, Serialize};

/// What a clause is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topic {
    /// Ko and superko.
    Ko,
    /// Self-capture.
    Suicide,
    /// Moving in turn.
    Alternation,
    /// Counting.
    Scoring,
    /// Pass stones.
    PassStones,
    /// When play pauses or ends on passes, and White passing last.
    EndOfGame,
    /// Resuming play after a status dispute.
    Resumption,
    /// The remedy for an illegal move.
    IllegalMove,
    /// Repeated positions.
    Repetition,
    /// The move limit.
    MoveLimit,
    /// Komi and jigo.
    Komi,
    /// Handicap placement.
    Handicap,
    /// Starting with the wrong colours or handicap.
    ColourOrHandicapError,
    /// The time system.
    TimeSystem,
}

/// A quotation from a rule document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clause {
    /// What it is about.
    pub topic: Topic,
    /// File in `shared/rules/`.
    pub document: String,
    /// Section heading (or numbered point) in that file.
    pub section: String,
    /// The words quoted, exactly as in the document.
    pub text: String,
}

fn c(topic: Topic, document: &str, section: &str, text: &str) -> Clause {
    Clause {
        topic,
        document: document.into(),
        section: section.into(),
        text: text.into(),
    }
}

const LGC: &str = "docs/rules/lgc-tournament-rules-2023.txt";
const LONDON: &str = "docs/rules/london-open-rules.txt";
const BGA: &str = "docs/rules/bga-aga-style-rules-summary.txt";
const UEC: &str = "docs/rules/uec-cup-computer-go-rules.txt";

pub(crate) fn lgc_2023() -> Vec<Clause> {
    use Topic::*;
    vec![
        c(Ko, LGC, "Illegal move", "It is illegal to play so as to recreate a previous board position with the same person to play (ko and natural situational superko)."),
        c(Suicide, LGC, "Making a move", "Once the stone is played any removal of the opponent's stones is carried out."),
        c(Alternation, LGC, "Alternation", "All moves must be played in alternation with the clock running."),
        c(Scoring, LGC, "Scoring", "Territory is defined as empty points surrounded by stones of the same colour. Accordingly eye points in seki count as territory. Prisoners are placed inside the opponent's territory. If your opponent has less territory than the number of prisoners you have captured then the surplus is counted as negative territory for your opponent."),
        c(PassStones, LGC, "Ending the game", "A player passes by handing a stone to the opponent (who adds it to any existing prisoners) and completes the move by pressing the clock."),
        c(EndOfGame, LGC, "Ending the game", "Play pauses after the minimum number of consecutive passes in which White passes last."),
        c(Resumption, LGC, "Ending the game", "If there is a dispute about the status of any groups then play resumes on the clock, with Black going first. Resumption can be repeated subject to White passing last. At the start of a resumption if both players pass then the game stops and all stones remain on the board for counting purposes."),
        c(IllegalMove, LGC, "Illegal move", "If any illegal move is made and if this is noticed within three moves, then the game must be unwound to the position just before the illegal move and play continues from that point. If the illegal move is noticed after three moves, the game just continues as it is."),
        c(Komi, LGC, "Scoring", "Komi in an even game is 7.5 to White. In a handicap game it is 0.5 to White."),
        c(ColourOrHandicapError, LGC, "Colour or handicap error", "If players start a game with the wrong colour or handicap, and this is noticed before the third move is completed, then the game must be restarted. If the error is noticed later, then the game continues and the pairing is modified to reflect the actual colours or handicap used."),
        c(TimeSystem, LGC, "Fischer time", "This is the default method when digital clocks are used for games with an indeterminate end."),
    ]
}

pub(crate) fn london_open() -> Vec<Clause> {
    use Topic::*;
    vec![
        c(Ko, LONDON, "3", "It is illegal to play so as to recreate a previous board position with the same person to play (ko and natural situational superko)."),
        c(Suicide, BGA, "Rule Violation", "A move which violates the rules of ko, superko, self-capture, or alternation is an illegal move."),
        c(Alternation, BGA, "Rule Violation", "A move which violates the rules of ko, superko, self-capture, or alternation is an illegal move."),
        c(Scoring, LONDON, "8", "The score is determined exacly as in normal territory counting i.e. place any prisoners into the opponents territory. Territory is defined as empty points surrounded by stones of the same colour. So eye points in seki do count as territory."),
        c(PassStones, LONDON, "2", "Whenever a player passes, the player must hand a 'pass stone' to the opponent. This stone is added to the opponent's prisoners."),
        c(EndOfGame, LONDON, "5", "Play pauses after two consecutive passes. The players must then attempt to agree on the status of every group. If the status of all groups is agreed, then the players must ensure that White passes last. So if necessary, White must pass again and hand over another pass stone."),
        c(Resumption, LONDON, "6", "If there is a dispute about the status of any groups after two consecutive passes, then play resumes on the clock, with the opponent of the last player to pass going first."),
        c(Resumption, LONDON, "7", "If at the start of a resumption, both players pass (so making four consecutive passes in all) then the players accept that they cannot agree on the status of all groups. In this case the game stops and all stones remain on the board for counting purposes. Again the players must ensure that White passes last."),
        c(IllegalMove, LONDON, "4", "If an illegal move is made and if this is noticed within three moves, then the game must be unwound to the position just before the illegal move and play continues from that point. If the illegal move is noticed after three moves, the game just continues as it is."),
        c(Repetition, LONDON, "4. Repeating positions are illegal.", "Situations such as cycling round triple ko are no longer treated as jigo."),
        c(Komi, LONDON, "1", "Komi in an even game is 7.5 to White. In a handicap game, White wins Jigo."),
        c(ColourOrHandicapError, BGA, "Irregular Moves iii", "Placing handicap stones in the wrong position. If this is noticed immediately before White's first move then set the stones correctly. Otherwise just carry on."),
    ]
}

pub(crate) fn bga_aga() -> Vec<Clause> {
    use Topic::*;
    vec![
        c(Ko, BGA, "Ko and Superko", "You must not play so as to re-create a previous board position that you created on a previous play."),
        c(Suicide, BGA, "Rule Violation", "A move which violates the rules of ko, superko, self-capture, or alternation is an illegal move."),
        c(Alternation, BGA, "Rule Violation", "A move which violates the rules of ko, superko, self-capture, or alternation is an illegal move."),
        c(Scoring, BGA, "The score", "At the start of the game you can agree to use Territory counting or Area counting, but if you cannot agree, then Territory counting is used. Territory is defined as empty intersections surrounded by stones of the same colour. So eye points in seki count towards territory."),
        c(PassStones, BGA, "Pass", "Whenever you pass you must hand a 'pass stone' to your opponent as a prisoner."),
        c(EndOfGame, BGA, "White passes last", "Once agreement is reached, or the game ended on a total of 4 consecutive passes, White must make an additional pass if Black was the last to pass."),
        c(Resumption, BGA, "Game End", "If such agreement cannot be reached, then play resumes with the opponent of the last person to pass moving first. If the first two moves of a resumption are pass, then the game ends with all stones remaining on the board."),
        c(IllegalMove, BGA, "Illegal Moves", "If you inadvertently make an illegal move and if the error is noticed immediately, unwind to the position before the illegal move and pass, handing a pass stone to your opponent."),
        c(IllegalMove, BGA, "Illegal Moves", "If the players do not agree to unwind, then play continues as is, except that, in the case of self- capture, the relevant stones should be removed from the board and handed to the opponent as prisoners."),
        c(ColourOrHandicapError, BGA, "Irregular Moves iii", "Placing handicap stones in the wrong position. If this is noticed immediately before White's first move then set the stones correctly. Otherwise just carry on."),
    ]
}

pub(crate) fn uec_cup() -> Vec<Clause> {
    use Topic::*;
    vec![
        c(Ko, UEC, "Game Rules", "Based on Japanese Go playing rules, except the following ending procedure."),
        c(Scoring, UEC, "a)", "Both programs displays the dead stones and calculate the size of the territory."),
        c(EndOfGame, UEC, "a)", "Both programs pass consecutively. (Normal end of game)"),
        c(Resumption, UEC, "a) 4.", "Neither the program, nor the operator can request for the resume of the game thenafter."),
        c(IllegalMove, UEC, "f)", "A player who made the first illegal move loses the game."),
        c(Repetition, UEC, "g) Repetition of a position", "If the same position repeats in a game (such as 3 kou case), the referee stops the game and declares a draw."),
        c(MoveLimit, UEC, "e)", "When the game has progressed the 400th moves. Pass will be counted by a move."),
        c(Komi, UEC, "Game Rules", "The handicap (komi) is 6.5 points."),
        c(Handicap, UEC, "Game Rules", "The initiative is decided by nigiri for each game."),
        c(TimeSystem, UEC, "3:Time limit", "Time limit for each player is 30 minutes. The time will be measured by the server. The server will count time by 0.1 seconds."),
    ]
}
