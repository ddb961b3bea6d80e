//! The clauses behind a profile's choices, quoted from the rule documents.
//!
//! Each tournament profile carries, as data, the words of its document for
//! every choice it makes, so a projection that applies a rule can say which
//! one: `ruleset.clause(Topic::Ko)`. The tests check that every quotation is
//! found, word for word, in `docs/rules/`.

use serde::{Deserialize, Serialize};

/// What a clause is about.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields)]
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
    /// Resigning.
    Resignation,
    /// Losing on time.
    LossOnTime,
    /// Who measures the time and how finely.
    TimeLimit,
    /// A stone on an occupied point (where it is an irregularity).
    OccupiedPoint,
    /// A stone of the wrong colour.
    WrongColour,
    /// Captured stones left on the board.
    CapturedStonesNotRemoved,
    /// Stones with liberties taken off.
    LiveStonesRemoved,
    /// Handicap stones on the wrong points.
    HandicapMisplaced,
    /// A stone placed between points.
    AmbiguousPlacement,
    /// The position disturbed by accident.
    PositionDisturbance,
    /// An irregularity the document does not list.
    OtherIrregularity,
    /// Agreeing on the status of the groups (or displaying dead stones).
    StatusAgreement,
    /// The dead stones do not match: the referee settles them.
    StatusSettledByReferee,
    /// An equal count.
    Jigo,
    /// Prisoners beyond the opponent's territory.
    NegativeTerritory,
    /// A move after the game is over.
    AfterEndOfGame,
    /// An illegal move noticed after intervening moves: rewind by agreement.
    IllegalMoveRewind,
    /// The players do not agree to rewind: play continues as it is.
    IllegalMoveNoRewind,
    /// A failure of alternation: the whole sequence is the illegal move.
    AlternationSequence,
    /// The referee may adjust the time after an illegal move.
    TimeAdjustment,
    /// Arriving late.
    LateArrival,
    /// A program terminated abnormally (the general procedure).
    AbnormalTermination,
    /// Abnormal termination with little time left: a loss.
    AbnormalTerminationLoss,
    /// Abnormal termination with enough time left: a new game.
    AbnormalTerminationNewGame,
    /// Abnormal termination in the new game.
    AbnormalTerminationInNewGame,
    /// The second abnormal termination of the same program.
    AbnormalTerminationSecond,
    /// Other accidents ending a game.
    OtherAccident,
    /// Cheating and disqualification.
    Cheating,
    /// What the referee does (and decides where nothing else applies).
    Referee,
    /// Disputes go to the referee first.
    Dispute,
    /// A clarification ends the matter; otherwise a judgement.
    Clarification,
    /// A decision must be explained and justified.
    Judgement,
    /// The player calls the referee at once.
    CallReferee,
    /// Playing on under protest.
    Protest,
    /// The protest stated on the result form.
    ProtestOnSheet,
    /// The appeals committee: three persons and reserves.
    Committee,
    /// Co-opting players onto the committee.
    CommitteeCooption,
    /// The committee's decision is final.
    CommitteeFinal,
    /// The committee may reject a case.
    CommitteeRejects,
    /// A committee member involved in the dispute does not sit.
    InvolvedMember,
    /// Advice.
    Advice,
    /// Warnings (two are a forfeit).
    Warning,
    /// Game forfeit.
    GameForfeit,
    /// Other sanctions.
    OtherSanctions,
    /// Hindrance and its sanctions.
    Hindrance,
    /// Correcting the recorded time.
    TimingError,
    /// Pausing the clocks.
    ClockPause,
    /// The referee stops the clocks for arbitration.
    RefereePause,
    /// Who signs the result sheet.
    ResultSheet,
    /// A clock pressed by mistake.
    ClockMistake,
    /// Five in a row must be declared.
    FiveDeclared,
    /// Draw offers.
    DrawOffer,
    /// A draw offer rejected by playing on.
    DrawRejected,
    /// The referee's decisions are final.
    RefereeFinal,
    /// The rules the games are played by.
    RulesInForce,
    /// White passing last.
    WhitePassesLast,
    /// The clocks stop when play pauses on passes for the status of the
    /// groups.
    ClockPausedForStatus,
}

impl Topic {
    /// What the topic is about, in words (`occupied point`, `loss on time`).
    pub fn words(self) -> &'static str {
        match self {
            Topic::Ko => "ko",
            Topic::Suicide => "suicide",
            Topic::Alternation => "alternation",
            Topic::Scoring => "scoring",
            Topic::PassStones => "pass stones",
            Topic::EndOfGame => "end of game",
            Topic::Resumption => "resumption",
            Topic::IllegalMove => "illegal move",
            Topic::Repetition => "repetition",
            Topic::MoveLimit => "move limit",
            Topic::Komi => "komi",
            Topic::Handicap => "handicap",
            Topic::ColourOrHandicapError => "colour or handicap error",
            Topic::TimeSystem => "time system",
            Topic::Resignation => "resignation",
            Topic::LossOnTime => "loss on time",
            Topic::TimeLimit => "time limit",
            Topic::OccupiedPoint => "occupied point",
            Topic::WrongColour => "wrong colour",
            Topic::CapturedStonesNotRemoved => "captured stones not removed",
            Topic::LiveStonesRemoved => "live stones removed",
            Topic::HandicapMisplaced => "handicap misplaced",
            Topic::AmbiguousPlacement => "ambiguous placement",
            Topic::PositionDisturbance => "position disturbance",
            Topic::OtherIrregularity => "other irregularity",
            Topic::StatusAgreement => "status agreement",
            Topic::StatusSettledByReferee => "status settled by referee",
            Topic::Jigo => "jigo",
            Topic::NegativeTerritory => "negative territory",
            Topic::AfterEndOfGame => "after end of game",
            Topic::IllegalMoveRewind => "illegal move rewind",
            Topic::IllegalMoveNoRewind => "illegal move no rewind",
            Topic::AlternationSequence => "alternation sequence",
            Topic::TimeAdjustment => "time adjustment",
            Topic::LateArrival => "late arrival",
            Topic::AbnormalTermination => "abnormal termination",
            Topic::AbnormalTerminationLoss => "abnormal termination loss",
            Topic::AbnormalTerminationNewGame => "abnormal termination new game",
            Topic::AbnormalTerminationInNewGame => "abnormal termination in new game",
            Topic::AbnormalTerminationSecond => "abnormal termination second",
            Topic::OtherAccident => "other accident",
            Topic::Cheating => "cheating",
            Topic::Referee => "referee",
            Topic::Dispute => "dispute",
            Topic::Clarification => "clarification",
            Topic::Judgement => "judgement",
            Topic::CallReferee => "call referee",
            Topic::Protest => "protest",
            Topic::ProtestOnSheet => "protest on sheet",
            Topic::Committee => "committee",
            Topic::CommitteeCooption => "committee cooption",
            Topic::CommitteeFinal => "committee final",
            Topic::CommitteeRejects => "committee rejects",
            Topic::InvolvedMember => "involved member",
            Topic::Advice => "advice",
            Topic::Warning => "warning",
            Topic::GameForfeit => "game forfeit",
            Topic::OtherSanctions => "other sanctions",
            Topic::Hindrance => "hindrance",
            Topic::TimingError => "timing error",
            Topic::ClockPause => "clock pause",
            Topic::RefereePause => "referee pause",
            Topic::ResultSheet => "result sheet",
            Topic::ClockMistake => "clock mistake",
            Topic::FiveDeclared => "five declared",
            Topic::DrawOffer => "draw offer",
            Topic::DrawRejected => "draw rejected",
            Topic::RefereeFinal => "referee final",
            Topic::RulesInForce => "rules in force",
            Topic::WhitePassesLast => "white passes last",
            Topic::ClockPausedForStatus => "clock paused for status assessment",
        }
    }
}

impl std::fmt::Display for Topic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words())
    }
}

/// A quotation from a rule document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Clause {
    /// What it is about.
    pub topic: Topic,
    /// File in `shared/rules/`.
    pub document: String,
    /// Section heading (or numbered point) in that file, as the document
    /// spells it; nested headings are joined by `", "` (`Irregular Moves,
    /// IV.`), each found after the one before it and the words after the last.
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
const RIF: &str = "docs/rules/rif-renju-world-championship-rules.txt";

pub(crate) fn lgc_2023() -> Vec<Clause> {
    use Topic::*;
    const NOT_LISTED: &str = "This section lists the rules covering common irregularities.";
    const OTHERS: &str = "Any situations not listed here must be discussed with the referee.";
    vec![
        c(Ko, LGC, "Illegal move", "It is illegal to play so as to recreate a previous board position with the same person to play (ko and natural situational superko)."),
        c(Suicide, LGC, "Making a move", "Once the stone is played any removal of the opponent's stones is carried out."),
        c(Alternation, LGC, "Alternation", "All moves must be played in alternation with the clock running."),
        c(Scoring, LGC, "Komi in an even game", "Territory is defined as empty points surrounded by stones of the same colour. Accordingly eye points in seki count as territory. Prisoners are placed inside the opponent's territory. If your opponent has less territory than the number of prisoners you have captured then the surplus is counted as negative territory for your opponent."),
        c(NegativeTerritory, LGC, "Komi in an even game", "If your opponent has less territory than the number of prisoners you have captured then the surplus is counted as negative territory for your opponent."),
        c(Jigo, LGC, "Komi in an even game", "After accounting for komi the player with the most territory wins."),
        c(PassStones, LGC, "Ending the game", "A player passes by handing a stone to the opponent (who adds it to any existing prisoners) and completes the move by pressing the clock."),
        c(EndOfGame, LGC, "Ending the game", "Play pauses after the minimum number of consecutive passes in which White passes last."),
        c(ClockPausedForStatus, LGC, "Ending the game", "The clock is now paused."),
        c(StatusAgreement, LGC, "Ending the game", "The players must then attempt to agree on the status of every group."),
        c(Resumption, LGC, "Ending the game", "If there is a dispute about the status of any groups then play resumes on the clock, with Black going first. Resumption can be repeated subject to White passing last. At the start of a resumption if both players pass then the game stops and all stones remain on the board for counting purposes."),
        c(AfterEndOfGame, LGC, "Ending the game", "At the start of a resumption if both players pass then the game stops and all stones remain on the board for counting purposes."),
        c(IllegalMove, LGC, "Illegal move", "If any illegal move is made and if this is noticed within three moves, then the game must be unwound to the position just before the illegal move and play continues from that point. If the illegal move is noticed after three moves, the game just continues as it is."),
        c(TimeAdjustment, LGC, "Illegal move", "The referee may allow an adjustment of the time."),
        c(Komi, LGC, "Komi in an even game", "Komi in an even game is 7.5 to White. In a handicap game it is 0.5 to White."),
        c(ColourOrHandicapError, LGC, "Colour or handicap error", "If players start a game with the wrong colour or handicap, and this is noticed before the third move is completed, then the game must be restarted. If the error is noticed later, then the game continues and the pairing is modified to reflect the actual colours or handicap used."),
        c(HandicapMisplaced, LGC, "Colour or handicap error", "If players start a game with the wrong colour or handicap, and this is noticed before the third move is completed, then the game must be restarted. If the error is noticed later, then the game continues and the pairing is modified to reflect the actual colours or handicap used."),
        c(AmbiguousPlacement, LGC, "Ambiguous stone placement", "If the position of a stone just played is unclear, then a player may request that the opponent positions the stone unambiguously."),
        c(OccupiedPoint, LGC, NOT_LISTED, OTHERS),
        c(WrongColour, LGC, NOT_LISTED, OTHERS),
        c(CapturedStonesNotRemoved, LGC, NOT_LISTED, OTHERS),
        c(LiveStonesRemoved, LGC, NOT_LISTED, OTHERS),
        c(TimeSystem, LGC, "Fischer time", "This is the default method when digital clocks are used for games with an indeterminate end."),
        c(Resignation, LGC, "Resignation", "A player may resign the game by clearly saying \"I resign\", or by placing two stones simultaneously on the board."),
        c(LossOnTime, LGC, "Loss on time", "No overtime: a player loses on time if the current move is not completed before the basic time expires. With overtime: a player loses on time if not all of the given number of overtime stones are played in the prescribed overtime period."),
    ]
}

/// The LGC rules of arbitration, sanctions and time, under which the Go
/// tournaments of the LGC, London Open and BGA profiles are run.
pub(crate) fn lgc_conduct() -> Vec<Clause> {
    use Topic::*;
    const NOT_LISTED: &str = "This section lists the rules covering common irregularities.";
    const OTHERS: &str = "Any situations not listed here must be discussed with the referee.";
    const ARBITRATION: &str = "The arbitration procedure used to resolve disputes";
    const PAUSES: &str = "Management of time is governed by the following rules:";
    vec![
        c(PositionDisturbance, LGC, "Position disturbance", "If the position is disturbed accidentally and the players cannot simply correct it, then the referee can apply the following procedures, in order:"),
        c(OtherIrregularity, LGC, NOT_LISTED, OTHERS),
        c(AbnormalTermination, LGC, NOT_LISTED, OTHERS),
        c(OtherAccident, LGC, NOT_LISTED, OTHERS),
        c(LateArrival, LGC, "Start", "If a player is late by 30 minutes or more, they forfeit the game."),
        c(Referee, LGC, "Referee responsibilities", "The function of the referee is to inform players about the rules for the tournament, to apply the rules, and to enforce them."),
        c(Dispute, LGC, ARBITRATION, "A player with a dispute refers the matter to the referee in the first instance."),
        c(Clarification, LGC, ARBITRATION, "If this resolves the dispute, no judgement is made and the matter is ended. Otherwise the referee makes a judgement."),
        c(Judgement, LGC, ARBITRATION, "Any decision made regarding a dispute must be explained in clear language and carefully justified."),
        c(InvolvedMember, LGC, ARBITRATION, "If a dispute involves a player who is also a member of the appeals committee, then that player must not participate in the resolution of the dispute."),
        c(CommitteeRejects, LGC, ARBITRATION, "The appeals committee may reject a case if it considers the referee's judgement and reasoning obviously right and just. The appeals committee decision is final."),
        c(CallReferee, LGC, "Player responsibility", "In the event of a dispute, the player has a responsibility to call the referee as soon as possible, and may not delay in order to gain a favourable decision."),
        c(Protest, LGC, "Player responsibility", "If the referee decides that the game in dispute should resume, but the player still wants to appeal, then the player must inform the referee and the opponent that the game is played under protest."),
        c(ProtestOnSheet, LGC, "Player responsibility", "When signing a result form, the player must state that the game was played under protest. Failure to do so means that the player gives up the right to appeal."),
        c(ResultSheet, LGC, "Player responsibility", "When signing a result form, the player must state that the game was played under protest."),
        c(Committee, LGC, "Appeals committee", "The appeals committee is formed of three persons before the start of the first round and includes reserves."),
        c(CommitteeCooption, LGC, "Appeals committee", "If there are fewer than three at the time of a dispute, then other players must be co-opted to the committee to make up the number."),
        c(CommitteeFinal, LGC, "Appeals committee", "The appeals committee's decision is final."),
        c(Advice, LGC, "Advice", "The referee states what the correct behaviour or rule is. Thereafter players and spectators are required to respect the advice."),
        c(Warning, LGC, "Warning", "If a player receives two warnings in the same game, then the referee imposes the game forfeit sanction."),
        c(GameForfeit, LGC, "Game forfeit", "The referee declares one or both players to lose the game by forfeit."),
        c(OtherSanctions, LGC, "Other sanctions", "Sanctions of varying severity include: modification of time limits, removal from rounds or removal from the tournament."),
        c(Cheating, LGC, "Other sanctions", "Sanctions of varying severity include: modification of time limits, removal from rounds or removal from the tournament."),
        c(Hindrance, LGC, "Hindrance", "Sanctions of varying severity include: modification of time limits, removal from rounds, removal from the tournament, debarred from a supergroup in a future tournament."),
        c(TimingError, LGC, "Timing error", "Once the game has started, any apparent non-trivial mistakes in the recorded elapsed time can only be corrected by the referee."),
        c(ClockPause, LGC, PAUSES, "The clock may be paused with both player's timepieces being stopped simultaneously in the following circumstances:"),
        c(RefereePause, LGC, PAUSES, "10. By a player to call an absent referee after informing the opponent."),
        c(LossOnTime, LGC, "Loss on time", "No overtime: a player loses on time if the current move is not completed before the basic time expires. With overtime: a player loses on time if not all of the given number of overtime stones are played in the prescribed overtime period."),
        c(Resignation, LGC, "Resignation", "A player may resign the game by clearly saying \"I resign\", or by placing two stones simultaneously on the board."),
        c(AmbiguousPlacement, LGC, "Ambiguous stone placement", "If the position of a stone just played is unclear, then a player may request that the opponent positions the stone unambiguously."),
        c(ColourOrHandicapError, LGC, "Colour or handicap error", "If players start a game with the wrong colour or handicap, and this is noticed before the third move is completed, then the game must be restarted. If the error is noticed later, then the game continues and the pairing is modified to reflect the actual colours or handicap used."),
    ]
}

pub(crate) fn london_open() -> Vec<Clause> {
    use Topic::*;
    let mut v = vec![
        c(Ko, LONDON, "3.", "It is illegal to play so as to recreate a previous board position with the same person to play (ko and natural situational superko)."),
        c(Scoring, LONDON, "8.", "The score is determined exacly as in normal territory counting i.e. place any prisoners into the opponents territory. Territory is defined as empty points surrounded by stones of the same colour. So eye points in seki do count as territory."),
        c(PassStones, LONDON, "2.", "Whenever a player passes, the player must hand a 'pass stone' to the opponent. This stone is added to the opponent's prisoners."),
        c(EndOfGame, LONDON, "5.", "Play pauses after two consecutive passes. The players must then attempt to agree on the status of every group. If the status of all groups is agreed, then the players must ensure that White passes last. So if necessary, White must pass again and hand over another pass stone."),
        c(ClockPausedForStatus, LONDON, "6.", "If there is a dispute about the status of any groups after two consecutive passes, then play resumes on the clock"),
        c(StatusAgreement, LONDON, "5.", "The players must then attempt to agree on the status of every group."),
        c(Resumption, LONDON, "6.", "If there is a dispute about the status of any groups after two consecutive passes, then play resumes on the clock, with the opponent of the last player to pass going first."),
        c(AfterEndOfGame, LONDON, "7.", "In this case the game stops and all stones remain on the board for counting purposes."),
        c(Resumption, LONDON, "7.", "If at the start of a resumption, both players pass (so making four consecutive passes in all) then the players accept that they cannot agree on the status of all groups. In this case the game stops and all stones remain on the board for counting purposes. Again the players must ensure that White passes last."),
        c(IllegalMove, LONDON, "4.", "If an illegal move is made and if this is noticed within three moves, then the game must be unwound to the position just before the illegal move and play continues from that point. If the illegal move is noticed after three moves, the game just continues as it is."),
        c(Repetition, LONDON, "4. Repeating positions are illegal.", "Situations such as cycling round triple ko are no longer treated as jigo."),
        c(WhitePassesLast, LONDON, "5.", "So if necessary, White must pass again and hand over another pass stone."),
        c(Komi, LONDON, "1.", "Komi in an even game is 7.5 to White. In a handicap game, White wins Jigo."),
        c(Jigo, LONDON, "1.", "Komi in an even game is 7.5 to White. In a handicap game, White wins Jigo."),
        c(Handicap, LONDON, "From 2010", "the London Open rules of play are the AGA-style rules"),
    ];
    // "the London Open rules of play are the AGA-style rules, with the one
    // exception that the illegal move rule is replaced by the EGF rule 4".
    v.extend(bga_aga().into_iter().filter(|c| {
        !matches!(
            c.topic,
            IllegalMove | IllegalMoveRewind | IllegalMoveNoRewind | AlternationSequence | Ko
        ) && !v_has(c.topic)
    }));
    v
}

/// Topics London Open states itself (the rest come from the AGA-style rules).
fn v_has(topic: Topic) -> bool {
    use Topic::*;
    matches!(
        topic,
        Scoring
            | PassStones
            | EndOfGame
            | StatusAgreement
            | Resumption
            | AfterEndOfGame
            | Komi
            | Jigo
            | Handicap
            | WhitePassesLast
            | ClockPausedForStatus
    )
}

pub(crate) fn bga_aga() -> Vec<Clause> {
    use Topic::*;
    const IRREGULAR: &str = "Irregular Moves";
    vec![
        c(Ko, BGA, "Ko and Superko:", "You must not play so as to re-create a previous board position that you created on a previous play."),
        c(Suicide, BGA, "Rule Violation:", "A move which violates the rules of ko, superko, self-capture, or alternation is an illegal move."),
        c(Alternation, BGA, "Rule Violation:", "A move which violates the rules of ko, superko, self-capture, or alternation is an illegal move."),
        c(Scoring, BGA, "The score:", "At the start of the game you can agree to use Territory counting or Area counting, but if you cannot agree, then Territory counting is used. Territory is defined as empty intersections surrounded by stones of the same colour. So eye points in seki count towards territory."),
        c(PassStones, BGA, "Pass:", "Whenever you pass you must hand a 'pass stone' to your opponent as a prisoner."),
        c(EndOfGame, BGA, "Game End:", "Play pauses when both players pass in succession. You then attempt to reach agreement on all the stones that should be removed without further play."),
        c(ClockPausedForStatus, BGA, "Game End:", "Play pauses when both players pass in succession."),
        c(StatusAgreement, BGA, "Game End:", "You then attempt to reach agreement on all the stones that should be removed without further play."),
        c(Resumption, BGA, "Game End:", "If such agreement cannot be reached, then play resumes with the opponent of the last person to pass moving first. If the first two moves of a resumption are pass, then the game ends with all stones remaining on the board."),
        c(AfterEndOfGame, BGA, "Game End:", "If the first two moves of a resumption are pass, then the game ends with all stones remaining on the board."),
        c(WhitePassesLast, BGA, "White passes last:", "Once agreement is reached, or the game ended on a total of 4 consecutive passes, White must make an additional pass if Black was the last to pass."),
        c(IllegalMove, BGA, "Illegal Moves", "If you inadvertently make an illegal move and if the error is noticed immediately, unwind to the position before the illegal move and pass, handing a pass stone to your opponent."),
        c(IllegalMoveRewind, BGA, "Illegal Moves", "If the illegal move is noticed after one or more intervening moves then, by mutual agreement, the players may rewind to the position before the illegal move. The offender then plays a legal move without handing over a pass stone."),
        c(IllegalMoveNoRewind, BGA, "Illegal Moves", "If the players do not agree to unwind, then play continues as is, except that, in the case of self- capture, the relevant stones should be removed from the board and handed to the opponent as prisoners."),
        c(AlternationSequence, BGA, "Illegal Moves", "In the case of a failure of alternation, the phrase \"illegal move\" in this section refers to the whole sequence of two or more moves played consecutively by the offending player."),
        c(OtherIrregularity, BGA, IRREGULAR, "If you inadvertently make an irregular move then as soon as the error is noticed, fix the position as best you can to the satisfaction of you and your opponent."),
        c(CapturedStonesNotRemoved, BGA, "Irregular Moves, I.", "Failing to remove all the captured stones. Remove the stones and give them to the opponent as prisoners."),
        c(LiveStonesRemoved, BGA, "Irregular Moves, ii.", "Removing stones that still have one or more liberties. Replace all the removed stones. The original 'capturing' stone stays on the board."),
        c(HandicapMisplaced, BGA, "Irregular Moves, iii.", "Placing handicap stones in the wrong position. If this is noticed immediately before White's first move then set the stones correctly. Otherwise just carry on."),
        c(ColourOrHandicapError, BGA, "Irregular Moves, iii.", "Placing handicap stones in the wrong position. If this is noticed immediately before White's first move then set the stones correctly. Otherwise just carry on."),
        c(OccupiedPoint, BGA, "Irregular Moves, IV.", "Placing a stone on an occupied intersection. If noticed immediately, remove the stone from the board and it is then the opponent's turn to play. If noticed later just remove the stone from the board and return it to the owner's bowl."),
        c(AmbiguousPlacement, BGA, "Irregular Moves, V.", "Placing a stone ambiguously in between intersections. Ask the owner of the stone to please position it on its intended intersection."),
        c(WrongColour, BGA, "Irregular Moves, Vi.", "Playing a stone of the wrong colour. If noticed immediately, replace the stone with one of the right colour and complete any consequent captures. If noticed later try and fix the board position as best as you can."),
    ]
}

pub(crate) fn uec_cup() -> Vec<Clause> {
    use Topic::*;
    const A: &str = "a)Both programs pass consecutively";
    const F: &str = "f) When illegal moves are played.";
    vec![
        c(Ko, UEC, "Game Rules", "Based on Japanese Go playing rules, except the following ending procedure."),
        c(PassStones, UEC, "Game Rules", "Based on Japanese Go playing rules, except the following ending procedure."),
        c(Scoring, UEC, A, "1. Both programs displays the dead stones and calculate the size of the territory."),
        c(EndOfGame, UEC, A, "Both programs pass consecutively. (Normal end of game)"),
        c(StatusAgreement, UEC, A, "2. If the dead stones and the size of the territory by both programs match, this is used as the result of the game."),
        c(StatusSettledByReferee, UEC, A, "3. If they do not match, the referee corrects the mismatching parts under the witness of both operators."),
        c(Resumption, UEC, A, "4. Neither the program, nor the operator can request for the resume of the game thenafter."),
        c(AfterEndOfGame, UEC, "End of Game", "If any of the following conditions hold, the game is stopped and the result of the game is determined."),
        c(Resignation, UEC, "b) One of the programs resigns", "When either one of the operators resigns, the player who resigned loses the game, and the other wins."),
        c(LossOnTime, UEC, "d) One player exceed the time limit.", "The player who exceeded the time limit loses the game, and the other wins."),
        c(IllegalMove, UEC, F, "A player who made the first illegal move loses the game. The illegal move must be pointed out by the opponent or the referee before the submission of game scores."),
        c(Suicide, UEC, F, "A player who made the first illegal move loses the game."),
        c(OccupiedPoint, UEC, F, "A player who made the first illegal move loses the game."),
        c(Alternation, UEC, F, "A player who made the first illegal move loses the game."),
        c(Repetition, UEC, "g) Repetition of a position", "If the same position repeats in a game (such as 3 kou case), the referee stops the game and declares a draw."),
        c(MoveLimit, UEC, "e) When the game has progressed the 400th moves.", "The referee counts the territory of each player and determines the result."),
        c(Komi, UEC, "Game Rules", "The handicap (komi) is 6.5 points."),
        c(Handicap, UEC, "Game Rules", "The initiative is decided by nigiri for each game."),
        c(TimeSystem, UEC, "3:Time limit", "Time limit for each player is 30 minutes. The time will be measured by the server. The server will count time by 0.1 seconds."),
    ]
}

/// The UEC Cup's own arbitration: the referee, the server's clock, abnormal
/// termination, cheating and the result sheet.
pub(crate) fn uec_conduct() -> Vec<Clause> {
    use Topic::*;
    const H: &str = "h) Abnormal termination of programs";
    const K: &str = "k) Others";
    const OTHERS: &str = "Any other exceptions will be handled by the referee. If the referee cannot make a decision, the UEC Cup director has the right to make the final decision.";
    const TIME: &str = "3:Time limit";
    let mut v = vec![
        c(TimeLimit, UEC, TIME, "Time limit for each player is 30 minutes. The time will be measured by the server. The server will count time by 0.1 seconds."),
        c(AbnormalTermination, UEC, H, "If one of the programs terminates abnormally, the following procedure is applied."),
        c(AbnormalTerminationLoss, UEC, "h) Abnormal termination of programs, 1.", "If the sum of the remaining time of the both players is less than 40 minutes, the player have terminated abnormally loses, and the other wins."),
        c(AbnormalTerminationNewGame, UEC, "h) Abnormal termination of programs, 2.", "If the sum is equal or larger than 40 minutes, they play a new game with time control of 20 minutes each."),
        c(AbnormalTerminationInNewGame, UEC, "h) Abnormal termination of programs, 3.", "If the other program terminates abnormally in the new game, and if the sum of the remaining time is equal or larger than 20 minutes, then another new game is played with time control of 20 minutes each."),
        c(AbnormalTerminationSecond, UEC, "h) Abnormal termination of programs, 4.", "The second abnormal termination of the same program in a match loses."),
        c(OtherAccident, UEC, "i) Other accidents which causes termination of a game", "The referee checks the reason, and the player who has more responsibility on termination than the other should lose. If the referee cannot find the reason, he judge a win/lose/draw based on the final position."),
        c(Cheating, UEC, "j) Cheating", "If a cheating is found, the player who cheated loses the game, and is disqualified from all the following games."),
        c(ResultSheet, UEC, "5:Result sheet", "If the referee decides the final result of the game, then the referee must also sign the sheet."),
        c(RefereeFinal, UEC, K, OTHERS),
        c(ClockPause, UEC, TIME, "The time will be measured by the server."),
        c(RefereePause, UEC, TIME, "The time will be measured by the server."),
        c(TimingError, UEC, TIME, "The time will be measured by the server."),
    ];
    for topic in [
        Referee,
        Dispute,
        Clarification,
        Judgement,
        CallReferee,
        Protest,
        ProtestOnSheet,
        Advice,
        Warning,
        GameForfeit,
        OtherSanctions,
        Hindrance,
        LateArrival,
        OtherIrregularity,
        WrongColour,
        CapturedStonesNotRemoved,
        LiveStonesRemoved,
        HandicapMisplaced,
        ColourOrHandicapError,
        AmbiguousPlacement,
        PositionDisturbance,
        StatusSettledByReferee,
        ClockMistake,
    ] {
        v.push(c(topic, UEC, K, OTHERS));
    }
    v
}

/// The RIF example tournament rules (World Championship), under which the
/// Renju and Gomoku games are run.
pub(crate) fn rif_conduct() -> Vec<Clause> {
    use Topic::*;
    const WON: &str = "The game is won by a player when...";
    const DRAW: &str = "The game ends with draw when...";
    const REFEREE: &str = "The main referee of World Championship is";
    const DECIDES: &str = "Any situation which is not explained in these rules can be decided by referee according to his best judgement.";
    let mut v = vec![
        c(RulesInForce, RIF, "The Rules for World Championship", "The World Championship tournaments AT, BT and QT are played by RIF rules."),
        c(FiveDeclared, RIF, WON, "The player has to declare his victory by saying \"five\" or pointing his finger at his winning line. If the player does not notice his winning five, the game continues."),
        c(Resignation, RIF, WON, "The opponent resigns the game."),
        c(LossOnTime, RIF, WON, "The opponent's time runs out."),
        c(DrawOffer, RIF, DRAW, "The player offers a draw by saying \"draw?\" or \"I offer a draw\", and the opponent accepts it by shaking hands and stopping the clock."),
        c(DrawRejected, RIF, DRAW, "If the opponents plays his next move instead, the draw offer is rejected by that."),
        c(ClockMistake, RIF, "The player must press the clock button", "If at any time the clock button is pressed by mistake, the referee has to be called immediately."),
        c(ClockPause, RIF, "The player must press the clock button", "The clock can be stopped by pressing the [||] button on the clock's control panel. Other clock operations are done by a referee."),
        c(Cheating, RIF, "The player must not talk with other players", "Serious or multiple violations of above listed fair play rules can result with disqualification of the player."),
        c(RefereeFinal, RIF, REFEREE, "All the referee's decisions are final."),
        c(Referee, RIF, REFEREE, "The referee uses RIF rules and current World Championship rules to make decisions."),
    ];
    for topic in [
        Dispute,
        Clarification,
        Judgement,
        CallReferee,
        Protest,
        ProtestOnSheet,
        Advice,
        Warning,
        GameForfeit,
        OtherSanctions,
        Hindrance,
        LateArrival,
        TimingError,
        RefereePause,
        AbnormalTermination,
        OtherAccident,
        OtherIrregularity,
        ResultSheet,
    ] {
        v.push(c(topic, RIF, REFEREE, DECIDES));
    }
    v
}
