//! A draft record projected before anyone signs it: what the game would
//! draw if the event were appended at the head. A device shows it before a
//! player confirms a move the rules call illegal (the rule documents give
//! illegal moves a remedy, they do not forbid recording them: LGC 2023,
//! "Illegal moves"; RIF rules of Renju 9.2 and 9.3); a referee console asks
//! it before signing a judgement. Nothing is stored: the projection is
//! computed from the events and the draft alone.

use kifu_ledger::{Body, Color, Event, Hash, Standing};
use serde::Serialize;

use crate::cite::Consequence;
use crate::forbidden::{forbidden_for_black, ForbiddenPoint};
use crate::moves::is_illegal_move;
use crate::state::{BoardState, GameState};

/// What a draft would bring about.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Preview {
    /// The place the draft would take.
    pub seq: u64,
    /// The draft's kind.
    pub kind: &'static str,
    /// Why the server would refuse the record from its signer (a key not on
    /// the roster, a player signing for the opponent, ...), in words; `None`
    /// when the signer may state it.
    pub refused: Option<String>,
    /// When refused: the clause of the rule documents that gives the power
    /// to sign this kind to someone else ([`crate::powers::clause_for_kind`]).
    pub refused_clause: Option<crate::cite::Cited>,
    /// True when the draft is a Go move the game's ruleset calls illegal
    /// (the consequences say why, with the clause).
    pub illegal_move: bool,
    /// True when the draft is a Go move the engine flags with a rule it
    /// breaks that the ruleset does not call an illegal move (a stone on an
    /// occupied point under LGC 2023, "Stone on an occupied point"; a stone
    /// of the wrong colour; a move while play is paused): an irregularity
    /// recorded at once if signed. The consequences say which, with the
    /// clause; a device asks the player to confirm it, as an illegal move.
    pub irregular_move: bool,
    /// For a black stone on a Renju board: the forbidden shape it makes
    /// (RIF rules of Renju 9.2, 9.3), with its point in RIF notation.
    pub forbidden: Option<ForbiddenPoint>,
    /// Whether a pass hands a stone to the opponent under the game's Go
    /// profile (`pass_stones`; LGC 2023, "Ending the game", 1); `None` for a
    /// game without a Go board. A device reads it to sign its passes.
    pub pass_stones: Option<bool>,
    /// What the projection draws at the draft, each with its rule.
    pub consequences: Vec<Consequence>,
    /// The whole state with the draft applied.
    #[serde(skip)]
    pub state: GameState,
}

/// Projects `events` (a verified chain, genesis first) with `draft` applied
/// after them. The draft's `seq` and `prev_hash` are taken as given; a
/// caller building it for the head sets `seq` to the head's + 1.
pub fn preview(events: &[Event], draft: &Event) -> Preview {
    let refused = match Standing::replay(events) {
        Some(standing) => standing.check(draft).err().map(|r| r.to_string()),
        None => Some("the game has no verified genesis".to_string()),
    };
    let refused_clause = refused
        .as_ref()
        .and_then(|_| crate::powers::clause_for_kind(draft.body.kind_name()));
    let before = GameState::replay(events);
    let forbidden = match (&draft.body, &before.board) {
        (
            Body::StonePlaced {
                stone: Color::Black,
                point,
                ..
            },
            BoardState::Renju(_),
        ) => {
            let name = crate::convert::renju_point(*point).map(|p| p.to_string());
            forbidden_for_black(&before)
                .unwrap_or_default()
                .into_iter()
                .find(|f| Some(&f.point) == name.as_ref())
        }
        _ => None,
    };
    let mut state = before;
    state.apply(draft);
    let (illegal_move, irregular_move) = match (&draft.body, &state.board, state.go_rules()) {
        (Body::StonePlaced { .. } | Body::Pass { .. }, BoardState::Go(b), Some(rules)) => {
            match b.verdict(draft.seq) {
                Some(v) if is_illegal_move(rules, v) => (true, false),
                Some(v) => (false, !v.violations.is_empty()),
                None => (false, false),
            }
        }
        _ => (false, false),
    };
    let consequences = state.consequences_of(draft.seq).cloned().collect();
    let pass_stones = state.go_rules().map(|r| r.pass_stones);
    Preview {
        seq: draft.seq,
        kind: draft.body.kind_name(),
        refused,
        refused_clause,
        illegal_move,
        irregular_move,
        forbidden,
        pass_stones,
        consequences,
        state,
    }
}

impl Preview {
    /// The preview as `POST /games/{id}/preview` answers it: with the game,
    /// the head it was drawn at, and the state after it in words, as the
    /// public view and as a picture.
    pub fn document(&self, game: &Hash, prev_hash: &Hash) -> PreviewDocument {
        PreviewDocument {
            game: hex::encode(game),
            prev_hash: hex::encode(prev_hash),
            seq: self.seq,
            kind: self.kind,
            refused: self.refused.clone(),
            refused_clause: self.refused_clause.clone(),
            illegal_move: self.illegal_move,
            irregular_move: self.irregular_move,
            forbidden: self.forbidden.clone(),
            pass_stones: self.pass_stones,
            consequences: self.consequences.clone(),
            text: self.state.text(),
            view: self.state.view(),
            board_view: crate::document::board_picture(&self.state.board),
        }
    }
}

/// What a draft would bring about if appended at the head (`POST
/// /games/{id}/preview`); nothing is stored.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PreviewDocument {
    /// The game.
    #[schemars(regex(pattern = "^[0-9a-f]{64}$"))]
    pub game: String,
    /// The head the draft would follow: its `prev_hash`.
    #[schemars(regex(pattern = "^[0-9a-f]{64}$"))]
    pub prev_hash: String,
    /// The place the draft would take.
    pub seq: u64,
    /// The draft's kind.
    pub kind: &'static str,
    /// Why the server would refuse the record from its signer, in words;
    /// null when the signer may state it.
    pub refused: Option<String>,
    /// When refused: the clause that gives the power to sign this kind.
    pub refused_clause: Option<crate::cite::Cited>,
    /// True when the draft is a Go move the game's ruleset calls illegal.
    pub illegal_move: bool,
    /// True when the draft is a Go move the engine flags with a rule it
    /// breaks that the ruleset does not call an illegal move (a stone on an
    /// occupied point under LGC 2023): an irregularity if signed.
    pub irregular_move: bool,
    /// A black stone on a forbidden Renju point, with the shape it makes,
    /// or null.
    pub forbidden: Option<ForbiddenPoint>,
    /// Whether a pass hands a stone to the opponent under the game's Go
    /// profile; null for a game without a Go board.
    pub pass_stones: Option<bool>,
    /// What the projection draws at the draft, each with its clause.
    pub consequences: Vec<Consequence>,
    /// The state after the draft in words, as in `replay`.
    pub text: crate::state_text::StateText,
    /// The public view after the draft, as in `replay`.
    pub view: crate::view::GameView,
    /// The board after the draft as a picture, as in `replay`; null without
    /// a board.
    pub board_view: Option<crate::document::BoardPicture>,
}
