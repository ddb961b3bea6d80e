//! The placement criteria, with OpenGotha's names (and the Renju/chess names
//! where those differ).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::model::ModelError;

/// One placement criterion. Larger values place higher for every criterion.
///
/// The Go names are OpenGotha's (`PlacementParameterSet.allPlacementCriteria`);
/// the suffix `W` means computed on NBW, `M` on MMS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Criterion {
    /// Number of wins (½ for a jigo), with bye and absence points.
    Nbw,
    /// McMahon score: SMMS + NBW-like points + bye/absence points.
    Mms,
    /// Cumulative sum of NBW after each round.
    Cussw,
    /// Cumulative sum of MMS after each round.
    Cussm,
    /// Sum of opponents' NBW.
    Sosw,
    /// SOSW without the lowest opponent value.
    SoswM1,
    /// SOSW without the two lowest opponent values.
    SoswM2,
    /// Sum of defeated opponents' NBW (½ for a jigo).
    Sodosw,
    /// Sum of opponents' SOSW.
    Sososw,
    /// Sum of opponents' MMS, with handicap correction.
    Sosm,
    /// SOSM without the lowest opponent value.
    SosmM1,
    /// SOSM without the two lowest opponent values.
    SosmM2,
    /// Sum of defeated opponents' MMS (½ for a jigo).
    Sodosm,
    /// Sum of opponents' SOSM.
    Sososm,
    /// Exploits tentés: opponents' NBW weighted by how hard each game was.
    Ext,
    /// Exploits réussis: EXT over the games won.
    Exr,
    /// Direct confrontation within a tied group (cycles collapsed).
    Dc,
    /// Simplified direct confrontation: wins inside a tied group whose
    /// members all met.
    Sdc,
    /// Renju/chess: points (same as NBW).
    Points,
    /// Renju/chess: Buchholz (same as SOSW).
    Buchholz,
    /// Renju/chess: Buchholz without the highest and the lowest opponent.
    MedianBuchholz,
    /// Renju/chess: Sonneborn-Berger (same as SODOSW).
    SonnebornBerger,
    /// Number of rounds won, counting forfeit wins and a full-point bye.
    Wins,
    /// Number of games won over the board (no forfeit, no bye).
    WinsOverTheBoard,
    /// Points scored in games among the tied players, when they all met.
    HeadToHead,
}

impl Criterion {
    /// Every criterion, in the order the `--all-criteria` table lists them.
    pub const ALL: [Criterion; 25] = [
        Criterion::Nbw,
        Criterion::Mms,
        Criterion::Cussw,
        Criterion::Cussm,
        Criterion::Sosw,
        Criterion::SoswM1,
        Criterion::SoswM2,
        Criterion::Sodosw,
        Criterion::Sososw,
        Criterion::Sosm,
        Criterion::SosmM1,
        Criterion::SosmM2,
        Criterion::Sodosm,
        Criterion::Sososm,
        Criterion::Ext,
        Criterion::Exr,
        Criterion::Dc,
        Criterion::Sdc,
        Criterion::Points,
        Criterion::Buchholz,
        Criterion::MedianBuchholz,
        Criterion::SonnebornBerger,
        Criterion::Wins,
        Criterion::WinsOverTheBoard,
        Criterion::HeadToHead,
    ];

    /// The criterion's name as written in standings (`SOSM-1`, `BUCHHOLZ`).
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Nbw => "NBW",
            Criterion::Mms => "MMS",
            Criterion::Cussw => "CUSSW",
            Criterion::Cussm => "CUSSM",
            Criterion::Sosw => "SOSW",
            Criterion::SoswM1 => "SOSW-1",
            Criterion::SoswM2 => "SOSW-2",
            Criterion::Sodosw => "SODOSW",
            Criterion::Sososw => "SOSOSW",
            Criterion::Sosm => "SOSM",
            Criterion::SosmM1 => "SOSM-1",
            Criterion::SosmM2 => "SOSM-2",
            Criterion::Sodosm => "SODOSM",
            Criterion::Sososm => "SOSOSM",
            Criterion::Ext => "EXT",
            Criterion::Exr => "EXR",
            Criterion::Dc => "DC",
            Criterion::Sdc => "SDC",
            Criterion::Points => "POINTS",
            Criterion::Buchholz => "BUCHHOLZ",
            Criterion::MedianBuchholz => "MEDIAN-BUCHHOLZ",
            Criterion::SonnebornBerger => "SONNEBORN-BERGER",
            Criterion::Wins => "WINS",
            Criterion::WinsOverTheBoard => "WON",
            Criterion::HeadToHead => "H2H",
        }
    }

    /// True for the criteria computed within a group of players tied on the
    /// criteria before it (DC, SDC, head-to-head).
    pub fn is_direct(self) -> bool {
        matches!(self, Criterion::Dc | Criterion::Sdc | Criterion::HeadToHead)
    }

    /// Parses a comma-separated list (`MMS,SOSM,SOSOSM`).
    pub fn parse_list(s: &str) -> Result<Vec<Criterion>, ModelError> {
        s.split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::parse)
            .collect()
    }
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Criterion {
    type Err = ModelError;

    /// Accepts the names of [`Criterion::name`] in any case, and the usual
    /// aliases (`SOSWM1`, `SB`, `MEDIAN`, `SOS` is not accepted: say W or M).
    fn from_str(s: &str) -> Result<Criterion, ModelError> {
        let up = s.trim().to_ascii_uppercase().replace('_', "-");
        let alias = match up.as_str() {
            "SOSWM1" => Some(Criterion::SoswM1),
            "SOSWM2" => Some(Criterion::SoswM2),
            "SOSMM1" => Some(Criterion::SosmM1),
            "SOSMM2" => Some(Criterion::SosmM2),
            "SB" | "BERGER" => Some(Criterion::SonnebornBerger),
            "MEDIAN" => Some(Criterion::MedianBuchholz),
            "HEAD-TO-HEAD" | "DIRECT-ENCOUNTER" => Some(Criterion::HeadToHead),
            "WINS-OVER-THE-BOARD" => Some(Criterion::WinsOverTheBoard),
            _ => None,
        };
        alias
            .or_else(|| Criterion::ALL.into_iter().find(|c| c.name() == up))
            .ok_or_else(|| ModelError::UnknownCriterion(s.to_string()))
    }
}
