//! The AGA results file, as OpenGotha's
//! `ExternalDocument.generateAGAResultsFile` writes it and usgo.org's "AGA
//! Document Formats" describe it:
//!
//! ```text
//! TOURNEY <name>, <location>, <dates>
//! <TAB>start=YYYY-MM-DD
//! <TAB>finish=YYYY-MM-DD
//! <TAB>rules=<rules>
//! PLAYERS
//! <AGA id><TAB><Surname>, <Given><TAB><rank>
//! GAMES <round>
//! <white id><TAB><black id><TAB><W|B><TAB><handicap><TAB><komi>
//! END
//! ```
//!
//! The format has only `W` and `B`: jigo, both-win, both-lose, unknown
//! results and games decided by default are left out. Komi is 7 for an even
//! game and 0 for a handicap game; handicap 1 is written as 0 stones and komi
//! 0 (OpenGotha). Players without an AGA ID get temporary numbers counting
//! down from 99999, skipping numbers in use.

use std::collections::BTreeSet;

use crate::info::{date_span, EventInfo};
use crate::model::{GameResult, ModelError, Tournament};

/// The AGA results text of rounds 1..=`after_round`.
pub fn write(t: &Tournament, info: &EventInfo, after_round: u32) -> Result<String, ModelError> {
    t.validate()?;
    if after_round > t.settings.rounds {
        return Err(ModelError::NoSuchRound {
            round: after_round,
            rounds: t.settings.rounds,
        });
    }
    let used: BTreeSet<u64> = t
        .players
        .iter()
        .filter_map(|p| p.aga_id.trim().parse().ok())
        .collect();
    let mut next = 99_999u64;
    let mut ids: Vec<(u64, usize)> = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        let id = match p.aga_id.trim().parse::<u64>() {
            Ok(id) if id > 0 => id,
            _ => {
                while used.contains(&next) {
                    next -= 1;
                }
                next -= 1;
                next + 1
            }
        };
        ids.push((id, i));
    }
    let id_of = |pid: &str| {
        ids.iter()
            .find(|(_, i)| t.players[*i].id == pid)
            .map(|(id, _)| *id)
            .unwrap_or(0)
    };
    let mut out = format!(
        "TOURNEY {}, {}, {}\n\tstart={}\n\tfinish={}\n\trules={}\nPLAYERS\n",
        info.name,
        info.location,
        date_span(&info.start, &info.finish),
        info.start,
        info.finish,
        info.rules
    );
    let mut sorted = ids.clone();
    sorted.sort();
    for (id, i) in &sorted {
        let p = &t.players[*i];
        out.push_str(&format!("{id}\t{}, {}\t{}\n", p.surname, p.given, p.rank));
    }
    for round in 1..=after_round {
        out.push_str(&format!("GAMES {round}\n"));
        let mut games: Vec<_> = t.games.iter().filter(|g| g.round == round).collect();
        games.sort_by_key(|g| (g.board, g.white.clone()));
        for g in games {
            let result = match g.result {
                GameResult::WhiteWins => "W",
                GameResult::BlackWins => "B",
                _ => continue,
            };
            // A game whose colours were not noted cannot be written as
            // white-id, black-id: left out like a result by default.
            if g.by_default || !g.colours_known {
                continue;
            }
            let (stones, komi) = match g.handicap {
                0 => (0, 7),
                1 => (0, 0),
                h => (h, 0),
            };
            out.push_str(&format!(
                "{}\t{}\t{result}\t{stones}\t{komi}\n",
                id_of(&g.white),
                id_of(&g.black)
            ));
        }
    }
    out.push_str("END\n");
    Ok(out)
}
