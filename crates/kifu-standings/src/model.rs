//! The tournament as the standings see it: players, games, byes, absences,
//! and the settings that say how unplayed rounds count.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::criterion::Criterion;

/// Everything that can be wrong with a tournament model or its input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A rank that is not `NNk`, `Nd` or `Np` within 30k..9d.
    #[error("rank {0:?} is not a Go rank (30k..1k, 1d..9d, 1p..9p)")]
    BadRank(String),
    /// A criterion name that is not known.
    #[error("unknown placement criterion {0:?}")]
    UnknownCriterion(String),
    /// Two players with the same id.
    #[error("player {0:?} is registered twice")]
    DuplicatePlayer(String),
    /// A game, bye or absence names a player who is not registered.
    #[error("round {round}: player {player:?} is not registered")]
    UnknownPlayer {
        /// Round number, from 1.
        round: u32,
        /// The id used.
        player: String,
    },
    /// A round number of 0 or beyond the tournament's rounds.
    #[error("round {round} is outside the tournament's rounds (1 to {rounds})")]
    BadRound {
        /// The round given.
        round: u32,
        /// The tournament's number of rounds.
        rounds: u32,
    },
    /// A player has two games, or a game and a bye, in one round.
    #[error("round {round}: player {player:?} is paired twice")]
    PairedTwice {
        /// Round number, from 1.
        round: u32,
        /// The player.
        player: String,
    },
    /// A player plays against themself.
    #[error("round {round}: player {player:?} is paired with themself")]
    SelfPairing {
        /// Round number, from 1.
        round: u32,
        /// The player.
        player: String,
    },
    /// The `.h9` header needs the EGF class and adjusted time, and the
    /// tournament does not know them (its time control gives none).
    #[error("the EGF class and adjusted time of the tournament are not known (its time control gives none); give them (--egf-class, --adjusted-time)")]
    NoEgfClass,
    /// Standings asked after a round the tournament does not have.
    #[error("standings after round {round}, but the tournament has {rounds} rounds")]
    NoSuchRound {
        /// The round asked.
        round: u32,
        /// The tournament's rounds.
        rounds: u32,
    },
}

/// A Go rank in OpenGotha's numbering: 1d = 0, 2d = 1, 1k = −1, 30k = −29
/// (`Player.convertKDPToInt`). Professional ranks are read as OpenGotha
/// reads them: 1p-3p as 7d, 4p-6p as 8d, 7p-9p as 9d.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Rank(i32);

impl Rank {
    /// The lowest rank, 30k.
    pub const MIN: Rank = Rank(-30);
    /// The highest rank, 9d.
    pub const MAX: Rank = Rank(8);

    /// OpenGotha's integer: 1d = 0, 1k = −1.
    pub fn value(self) -> i32 {
        self.0
    }

    /// The rank for OpenGotha's integer, clamped to 30k..9d.
    pub fn from_value(v: i32) -> Rank {
        Rank(v.clamp(Rank::MIN.0, Rank::MAX.0))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 0 {
            write!(f, "{}d", self.0 + 1)
        } else {
            write!(f, "{}k", -self.0)
        }
    }
}

impl FromStr for Rank {
    type Err = ModelError;

    /// The rank grammar of `docs/FORMAT.md` section 10: after trimming
    /// white space (Unicode `White_Space`, as `str::trim`), one or two ASCII
    /// digits without a leading zero, then `k`, `d` or `p` in either case;
    /// no sign, no other digits, no other letter (a Kelvin sign is not a
    /// `K`). Read as characters, never sliced at a byte.
    fn from_str(s: &str) -> Result<Rank, ModelError> {
        let bad = || ModelError::BadRank(s.to_string());
        let mut chars = s.trim().chars();
        let kind = chars.next_back().ok_or_else(bad)?;
        let num = chars.as_str();
        if num.is_empty()
            || num.len() > 2
            || num.starts_with('0')
            || !num.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let n: i32 = num.parse().map_err(|_| bad())?;
        match kind.to_ascii_lowercase() {
            'k' if (1..=30).contains(&n) => Ok(Rank(-n)),
            'd' if (1..=9).contains(&n) => Ok(Rank(n - 1)),
            // OpenGotha (`convertKDPToInt`): 1p-3p are 7d, 4p-6p 8d, 7p-9p 9d.
            'p' if (1..=3).contains(&n) => Ok(Rank(6)),
            'p' if (4..=6).contains(&n) => Ok(Rank(7)),
            'p' if (7..=9).contains(&n) => Ok(Rank::MAX),
            _ => Err(bad()),
        }
    }
}

impl TryFrom<String> for Rank {
    type Error = ModelError;
    fn try_from(s: String) -> Result<Rank, ModelError> {
        s.parse()
    }
}

impl From<Rank> for String {
    fn from(r: Rank) -> String {
        r.to_string()
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The registration id (unique within the tournament).
    pub id: String,
    /// Family name.
    pub surname: String,
    /// Given name.
    pub given: String,
    /// Declared rank.
    pub rank: Rank,
    /// Rating (EGD GoR or AGA rating ×100), 0 if unknown.
    pub rating: i32,
    /// Two-letter country code, empty if unknown.
    pub country: String,
    /// Club (EGD club code), empty if none.
    pub club: String,
    /// EGD PIN, empty if none.
    pub egd_pin: String,
    /// AGA ID, empty if none.
    pub aga_id: String,
    /// Correction added to the starting McMahon score (OpenGotha
    /// `smmsCorrection`).
    pub smms_correction: i32,
}

impl Player {
    /// A player with only the fields the scores need.
    pub fn new(id: &str, surname: &str, given: &str, rank: Rank) -> Player {
        Player {
            id: id.to_string(),
            surname: surname.to_string(),
            given: given.to_string(),
            rank,
            rating: 0,
            country: String::new(),
            club: String::new(),
            egd_pin: String::new(),
            aga_id: String::new(),
            smms_correction: 0,
        }
    }
}

/// A game's result, with OpenGotha's six outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// Not known yet: the game counts as paired, nobody scores.
    Unknown,
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Jigo (draw): ½ each.
    Jigo,
    /// Both players lose (director's decision).
    BothLose,
    /// Both players win (director's decision).
    BothWin,
}

/// One game of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// Round number, from 1.
    pub round: u32,
    /// Board (table) number, from 1.
    pub board: u32,
    /// White's registration id.
    pub white: String,
    /// Black's registration id.
    pub black: String,
    /// Handicap stones (0 for an even game).
    pub handicap: u8,
    /// The result.
    pub result: GameResult,
    /// The result was given "by default" (forfeit, not played over the board).
    pub by_default: bool,
    /// The colours were noted (OpenGotha `knownColor`). When false, `white`
    /// and `black` are the two players in no particular colour; the scores
    /// use them as given (as OpenGotha does), the `.h9` writes `?` for the
    /// colour and the AGA file leaves the game out.
    #[serde(default = "yes")]
    pub colours_known: bool,
}

fn yes() -> bool {
    true
}

impl Game {
    /// Half points `player` scored in this game (OpenGotha `getWX2`).
    pub fn halves_for(&self, player: &str) -> i64 {
        let white = self.white == player;
        match self.result {
            GameResult::Unknown | GameResult::BothLose => 0,
            GameResult::WhiteWins => 2 * i64::from(white),
            GameResult::BlackWins => 2 * i64::from(!white),
            GameResult::Jigo => 1,
            GameResult::BothWin => 2,
        }
    }

    /// The other player of the game.
    pub fn opponent_of(&self, player: &str) -> &str {
        if self.white == player {
            &self.black
        } else {
            &self.white
        }
    }

    /// True when the game was played with a result (OpenGotha
    /// `gameWasPlayed`): not unknown, not by default.
    pub fn was_played(&self) -> bool {
        self.result != GameResult::Unknown && !self.by_default
    }
}

/// The settings that change scores (OpenGotha `GeneralParameterSet` and
/// `PlacementParameterSet`). Points are in half points, as OpenGotha keeps
/// them (`genNBW2ValueBye` = 2 means one point).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Number of rounds.
    pub rounds: u32,
    /// McMahon bar: nobody starts above it.
    pub mm_bar: Rank,
    /// McMahon floor: nobody starts below it.
    pub mm_floor: Rank,
    /// NBW half points for a bye.
    pub nbw2_bye: u8,
    /// MMS half points for a bye.
    pub mms2_bye: u8,
    /// NBW half points for an absent round.
    pub nbw2_absent: u8,
    /// MMS half points for an absent round.
    pub mms2_absent: u8,
    /// The running sum of bye and absence points is rounded down to a whole
    /// point (OpenGotha `genRoundDownNBWMMS`).
    pub round_down_bye_absent: bool,
    /// Opponents' scores in SOS count their unplayed rounds as ½ (OpenGotha
    /// `genCountNotPlayedGamesAsHalfPoint`).
    pub unplayed_as_half: bool,
    /// The placement criteria, in order.
    pub criteria: Vec<Criterion>,
}

impl Settings {
    /// OpenGotha's McMahon defaults: bar 4d, floor 20k, bye 1 and 1, absent 0
    /// NBW and ½ MMS, rounded down, criteria MMS, SOSM, SOSOSM.
    pub fn mcmahon(rounds: u32) -> Settings {
        Settings {
            rounds,
            mm_bar: Rank(3),
            mm_floor: Rank(-20),
            nbw2_bye: 2,
            mms2_bye: 2,
            nbw2_absent: 0,
            mms2_absent: 1,
            round_down_bye_absent: true,
            unplayed_as_half: false,
            criteria: vec![Criterion::Mms, Criterion::Sosm, Criterion::Sososm],
        }
    }

    /// OpenGotha's Swiss defaults: the McMahon point settings with criteria
    /// NBW, SOSW, SOSOSW.
    pub fn swiss(rounds: u32) -> Settings {
        Settings {
            criteria: vec![Criterion::Nbw, Criterion::Sosw, Criterion::Sososw],
            ..Settings::mcmahon(rounds)
        }
    }

    /// The starting McMahon score of a player (OpenGotha `Player.smms`, with
    /// `genMMZero` = −30): 30 + rank clamped to floor..bar, plus the player's
    /// correction.
    pub fn smms(&self, player: &Player) -> i64 {
        let zero = -30;
        let v = (player.rank.0 - zero).clamp(self.mm_floor.0 - zero, self.mm_bar.0 - zero);
        i64::from(v + player.smms_correction)
    }
}

/// What a player did in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Participation<'a> {
    /// Played (or is paired in) this game.
    Paired(&'a Game),
    /// Had the bye.
    Bye,
    /// Was absent (late arrival, skipped round, withdrawal, removal).
    Absent,
    /// Present but neither paired nor given the bye.
    NotAssigned,
}

/// A tournament: settings, players, games, byes and absences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// How scores are computed.
    pub settings: Settings,
    /// Registered players.
    pub players: Vec<Player>,
    /// Every game of every round.
    pub games: Vec<Game>,
    /// `(round, player)` given the bye.
    pub byes: BTreeSet<(u32, String)>,
    /// `(round, player)` absent.
    pub absences: BTreeSet<(u32, String)>,
}

impl Tournament {
    /// An empty tournament.
    pub fn new(settings: Settings) -> Tournament {
        Tournament {
            settings,
            players: Vec::new(),
            games: Vec::new(),
            byes: BTreeSet::new(),
            absences: BTreeSet::new(),
        }
    }

    /// The player with this id.
    pub fn player(&self, id: &str) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// Checks that every id is registered, every round is in range, and no
    /// player is paired twice (two games, or a game and a bye) in a round.
    pub fn validate(&self) -> Result<(), ModelError> {
        let mut ids = BTreeSet::new();
        for p in &self.players {
            if !ids.insert(p.id.as_str()) {
                return Err(ModelError::DuplicatePlayer(p.id.clone()));
            }
        }
        let rounds = self.settings.rounds;
        let known = |round: u32, id: &str| -> Result<(), ModelError> {
            if round == 0 || round > rounds {
                return Err(ModelError::BadRound { round, rounds });
            }
            if ids.contains(id) {
                Ok(())
            } else {
                Err(ModelError::UnknownPlayer {
                    round,
                    player: id.to_string(),
                })
            }
        };
        let mut busy: BTreeSet<(u32, String)> = BTreeSet::new();
        let mut take = |round: u32, id: &str| -> Result<(), ModelError> {
            if busy.insert((round, id.to_string())) {
                Ok(())
            } else {
                Err(ModelError::PairedTwice {
                    round,
                    player: id.to_string(),
                })
            }
        };
        for g in &self.games {
            known(g.round, &g.white)?;
            known(g.round, &g.black)?;
            if g.white == g.black {
                return Err(ModelError::SelfPairing {
                    round: g.round,
                    player: g.white.clone(),
                });
            }
            take(g.round, &g.white)?;
            take(g.round, &g.black)?;
        }
        for (round, id) in &self.byes {
            known(*round, id)?;
            take(*round, id)?;
        }
        for (round, id) in &self.absences {
            known(*round, id)?;
        }
        Ok(())
    }

    /// What `player` did in `round` (from 1). Precedence as in OpenGotha's
    /// scoring ("1) participation"): absent, then paired, then bye.
    pub fn participation(&self, round: u32, player: &str) -> Participation<'_> {
        let key = (round, player.to_string());
        if self.byes.contains(&key) {
            return Participation::Bye;
        }
        if let Some(g) = self
            .games
            .iter()
            .find(|g| g.round == round && (g.white == player || g.black == player))
        {
            return Participation::Paired(g);
        }
        if self.absences.contains(&key) {
            Participation::Absent
        } else {
            Participation::NotAssigned
        }
    }
}
