//! [`GameState`]: the whole game at one event, and how one event changes it.

use kifu_clock::{Clock, ClockEvent, PlayerClock, TimeControl};
use kifu_ledger::{
    Body, Color, Event, GameResult, Genesis, Outcome, Participant, PublicKey, ResultBy, Role,
};
use serde::Serialize;

use crate::cite::{cited, topic_words, Cited, Consequence};
use crate::go::GoBoard;
use crate::record::*;
use crate::renju::RenjuBoard;
use kifu_go::{Conduct, Topic};

/// The board, by game.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "game")]
pub enum BoardState {
    /// No board (before the genesis, or a board the engine cannot set up).
    None,
    /// A Go board.
    Go(Box<GoBoard>),
    /// A Renju or Gomoku board.
    Renju(Box<RenjuBoard>),
}

/// Both clocks, projected by `kifu-clock`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ClockState {
    #[serde(skip)]
    pub(crate) clock: Option<Clock>,
    /// The time control.
    pub time_control: Option<TimeControl>,
    /// When the clock was started.
    pub started_at_ms: Option<u64>,
    /// Black's clock at the start of his current or next turn.
    pub black: Option<PlayerClock>,
    /// White's clock.
    pub white: Option<PlayerClock>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// Why both clocks are stopped.
    pub paused: Option<String>,
    /// The instant the running player's flag falls if nobody presses.
    pub flag_at_ms: Option<u64>,
    /// Flags fallen.
    pub flags: Vec<FallenFlag>,
    /// Time used as measured by the server (computer events), Black and White.
    pub server_used_ms: [u64; 2],
    /// The time each player has left at the last event, Black and White, as
    /// the clocks show it: under server timekeeping, the limit less the
    /// server's count; otherwise the clock projection (the running side
    /// counted down to the event's instant).
    pub remaining_ms: Option<[u64; 2]>,
    /// The resolution the clocks are shown in, in milliseconds (1000: whole
    /// seconds; the UEC Cup's server: 100).
    pub resolution_ms: u64,
}

/// A player's flag fell: the clock's [`kifu_clock::Flag`], with the side
/// named as every other field of the game's documents names it (`black`,
/// `white`), not by the clock's SGF letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FallenFlag {
    /// Whose flag.
    pub player: Color,
    /// The instant it fell.
    pub at_ms: u64,
}

impl From<kifu_clock::Flag> for FallenFlag {
    fn from(f: kifu_clock::Flag) -> FallenFlag {
        FallenFlag {
            player: match f.player {
                kifu_clock::Player::Black => Color::Black,
                kifu_clock::Player::White => Color::White,
            },
            at_ms: f.at_ms,
        }
    }
}

/// The whole game at one event, derived from the signed facts alone.
///
/// Build it with [`GameState::replay`] or [`GameState::new`] and
/// [`GameState::apply`]; both give equal states.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GameState {
    /// The last event applied.
    pub at_seq: Option<u64>,
    /// The time of the last event applied.
    pub at_ms: Option<u64>,
    /// The genesis.
    pub genesis: Option<Genesis>,
    /// The ruleset profile.
    pub profile: String,
    /// The board.
    pub board: BoardState,
    /// Whose turn it is.
    pub to_move: Option<Color>,
    /// The clocks.
    pub clock: ClockState,
    /// Where the game stands.
    pub phase: Phase,
    /// Illegal moves pointed out.
    pub illegal_moves: Vec<IllegalMoveNotice>,
    /// Irregularities and their fixes.
    pub irregularities: Vec<IrregularityRecord>,
    /// Disputes.
    pub disputes: Vec<Dispute>,
    /// Referee rulings.
    pub rulings: Vec<RulingRecord>,
    /// Protests.
    pub protests: Vec<Protest>,
    /// Appeals.
    pub appeals: Vec<Appeal>,
    /// The appeals committee.
    pub committee: Option<Committee>,
    /// Sanctions on the players.
    pub sanctions: Vec<SanctionRecord>,
    /// The result.
    pub result: ResultState,
    /// Every consequence, with its rule, in order.
    pub consequences: Vec<Consequence>,
    /// The story: every event, who signed it, what it says.
    pub events: Vec<EventNote>,
    /// Players' rewind agreements, by illegal move (BGA).
    #[serde(skip)]
    pub(crate) rewind_agreements: Vec<(u64, Color)>,
    /// Players' status agreements since play last paused.
    #[serde(skip)]
    pub(crate) status_agreements: [Option<Vec<kifu_ledger::Point>>; 2],
    /// Dead stones marked by each side (UEC Cup).
    #[serde(skip)]
    pub(crate) dead_marks: [Option<Vec<kifu_ledger::Point>>; 2],
    /// The tournament rules the game is conducted under (for Go, the
    /// ruleset's own; for Renju and Gomoku, the RIF tournament rules).
    #[serde(skip)]
    pub(crate) conduct: Conduct,
    /// True once the pairing was modified to the colours actually used: each
    /// seat plays the other colour.
    pub colours_swapped: bool,
    /// The last Go move whose player has not yet pressed the clock: the
    /// event, the player's colour, the stone's colour.
    #[serde(skip)]
    pub(crate) unpressed: Option<(u64, Color, Color)>,
    /// Each player's first clock press, Black and White.
    #[serde(skip)]
    pub(crate) first_press_ms: [Option<u64>; 2],
    /// Players recorded as arrived.
    #[serde(skip)]
    pub(crate) arrived: [bool; 2],
    /// The last stone or pass recorded.
    #[serde(skip)]
    pub(crate) last_move_seq: Option<u64>,
    /// Both clocks after each move, as the press completing it left them.
    pub move_clocks: Vec<crate::clock::MoveClocks>,
    /// A Go ruleset given as a value ([`GameState::with_ruleset`]), used
    /// instead of the profile the genesis names.
    #[serde(skip)]
    pub(crate) given_ruleset: Option<kifu_go::Ruleset>,
}

impl Default for GameState {
    fn default() -> Self {
        GameState::new()
    }
}

pub(crate) use crate::convert::{colour_of, idx, player};

/// The clock projection's pause reason once the game has a result.
pub(crate) const GAME_OVER: &str = "GAME_OVER";

/// "Black" or "White".
pub(crate) fn name(c: Color) -> &'static str {
    crate::words::colour(c)
}

pub use crate::text::result_text;

impl GameState {
    /// The state before any event.
    pub fn new() -> GameState {
        GameState {
            at_seq: None,
            at_ms: None,
            genesis: None,
            profile: String::new(),
            board: BoardState::None,
            to_move: None,
            clock: ClockState {
                clock: None,
                time_control: None,
                started_at_ms: None,
                black: None,
                white: None,
                running: None,
                paused: None,
                flag_at_ms: None,
                flags: Vec::new(),
                server_used_ms: [0; 2],
                remaining_ms: None,
                resolution_ms: 1000,
            },
            phase: Phase::NotStarted,
            illegal_moves: Vec::new(),
            irregularities: Vec::new(),
            disputes: Vec::new(),
            rulings: Vec::new(),
            protests: Vec::new(),
            appeals: Vec::new(),
            committee: None,
            sanctions: Vec::new(),
            result: ResultState::default(),
            consequences: Vec::new(),
            events: Vec::new(),
            rewind_agreements: Vec::new(),
            status_agreements: [None, None],
            dead_marks: [None, None],
            conduct: Conduct::unstated(),
            colours_swapped: false,
            unpressed: None,
            first_press_ms: [None; 2],
            arrived: [false; 2],
            last_move_seq: None,
            move_clocks: Vec::new(),
            given_ruleset: None,
        }
    }

    /// The state before any event of a Go game played under `ruleset`, a
    /// value: the projection follows its fields (and its clause table),
    /// whatever name the genesis gives the profile.
    pub fn with_ruleset(ruleset: kifu_go::Ruleset) -> GameState {
        GameState {
            given_ruleset: Some(ruleset),
            ..GameState::new()
        }
    }

    /// The state after `events`, applied in order.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> GameState {
        let mut s = GameState::new();
        for e in events {
            s.apply(e);
        }
        s
    }

    /// The state at event `seq`: every event up to and including it.
    pub fn at<'a>(events: impl IntoIterator<Item = &'a Event>, seq: u64) -> GameState {
        GameState::replay(events.into_iter().take_while(|e| e.seq <= seq))
    }

    /// Adds a consequence under a rule outside the rule documents.
    pub(crate) fn note(&mut self, what: impl Into<String>, rule: impl Into<String>) {
        self.note_cited(what, Cited::other(rule));
    }

    /// Adds a consequence with its clause and the clause's words.
    pub(crate) fn note_cited(&mut self, what: impl Into<String>, cited: Cited) {
        let at_seq = self.at_seq.unwrap_or(0);
        self.consequences.push(Consequence {
            at_seq,
            what: what.into(),
            rule: cited.rule,
            quote: cited.quote,
        });
    }

    /// Adds a consequence under the clause of the rules in force on `topic`.
    pub(crate) fn note_on(&mut self, what: impl Into<String>, topic: Topic) {
        let c = self.cite(topic);
        self.note_cited(what, c);
    }

    /// The clause of the rules in force on `topic`: one entry of the clause
    /// table gives both the clause named and the words quoted.
    pub(crate) fn cite(&self, topic: Topic) -> Cited {
        let clause = match &self.board {
            BoardState::Go(b) => b.ruleset().clause(topic),
            _ => self.conduct.clause(topic),
        };
        match clause {
            Some(c) => cited(c),
            None => Cited::other(format!(
                "{} (the profile quotes no clause on {})",
                self.profile,
                topic_words(topic)
            )),
        }
    }

    /// The Go ruleset in force, if the game is Go.
    pub(crate) fn go_rules(&self) -> Option<&kifu_go::Ruleset> {
        match &self.board {
            BoardState::Go(b) => Some(b.ruleset()),
            _ => None,
        }
    }

    /// How this game's points are written for people: its board's labels
    /// (a 19x19 Go board's before the genesis).
    pub fn notation(&self) -> crate::notation::Notation {
        self.genesis
            .as_ref()
            .map(crate::notation::Notation::of)
            .unwrap_or_default()
    }

    /// The consequences of one event.
    pub fn consequences_of(&self, seq: u64) -> impl Iterator<Item = &Consequence> {
        self.consequences.iter().filter(move |c| c.at_seq == seq)
    }

    /// The roles `key` holds in this game.
    pub fn roles_of(&self, key: &PublicKey) -> Vec<Role> {
        self.genesis
            .as_ref()
            .map(|g| g.roles_of(key))
            .unwrap_or_default()
    }

    /// The roster entry of a seat.
    pub fn player_participant(&self, c: Color) -> Option<&Participant> {
        let role = match c {
            Color::Black => Role::Black,
            Color::White => Role::White,
        };
        self.genesis.as_ref().and_then(|g| g.holder(role))
    }

    /// The keys of both players.
    pub(crate) fn player_keys(&self) -> Vec<PublicKey> {
        [Color::Black, Color::White]
            .iter()
            .filter_map(|c| self.player_participant(*c).map(|p| p.key))
            .collect()
    }

    /// `Name (roles)` for a key.
    pub fn signer_name(&self, key: &PublicKey) -> String {
        let Some(g) = &self.genesis else {
            return format!("key {}", &key.to_hex()[..12]);
        };
        let entries: Vec<&Participant> = g.roster.iter().filter(|p| &p.key == key).collect();
        match entries.first() {
            None => format!("key {} (not in the roster)", &key.to_hex()[..12]),
            Some(first) => {
                let roles: Vec<String> = entries
                    .iter()
                    .map(|p| crate::words::role(p.role).to_string())
                    .collect();
                format!("{} ({})", first.name, roles.join(", "))
            }
        }
    }

    /// True once the rules give a result, or both players signed the same
    /// result on their sheets ([`ResultState::signed_by_both`]).
    pub fn is_over(&self) -> bool {
        self.result.computed().is_some() || self.result.signed_by_both().is_some()
    }

    /// Applies one event. Never panics and never refuses: a fact that makes
    /// no sense where it stands is kept and flagged as a consequence.
    pub fn apply(&mut self, event: &Event) {
        if let Some(last) = self.at_seq {
            if event.seq <= last {
                self.at_seq = Some(event.seq);
                self.note(
                    format!(
                        "event {} does not follow event {last}: ignored by the projection",
                        event.seq
                    ),
                    "docs/FORMAT.md, \"Verifying a chain\"",
                );
                self.at_seq = Some(last);
                return;
            }
        }
        self.at_seq = Some(event.seq);
        self.at_ms = Some(event.at_ms);
        let signer = match (&self.genesis, &event.body) {
            // The genesis names its own signer in the roster it brings.
            (None, Body::GameCreated(g)) => g
                .roster
                .iter()
                .find(|p| p.key == event.signer)
                .map(|p| format!("{} ({})", p.name, crate::words::role(p.role)))
                .unwrap_or_else(|| self.signer_name(&event.signer)),
            _ => self.signer_name(&event.signer),
        };
        self.events.push(EventNote {
            seq: event.seq,
            at_ms: event.at_ms,
            kind: event.body.kind_name().to_string(),
            signer,
            summary: crate::story::describe_seated(
                &event.body,
                &self.notation(),
                self.colours_swapped,
            ),
        });
        if self.genesis.is_none() {
            if let Body::GameCreated(g) = &event.body {
                self.start(g.clone());
            } else {
                self.note(
                    "no genesis before this event: nothing can be projected",
                    "docs/FORMAT.md, \"Verifying a chain\"",
                );
            }
            return;
        }
        let roles = self.roles_of(&event.signer);
        if matches!(event.body, Body::StonePlaced { .. } | Body::Pass { .. }) {
            self.last_move_seq = Some(event.seq);
        }
        self.dispatch(event, &roles);
        self.check_flag(event.at_ms);
        self.stop_clocks_at_result(event.at_ms);
        self.refresh();
        if matches!(event.body, Body::ClockPressed { .. }) {
            self.record_move_clocks(event.seq);
        }
    }

    fn start(&mut self, g: Genesis) {
        self.profile = g.ruleset.clone();
        let tc = crate::convert::clock_time_control(&g.time_control);
        self.clock.time_control = Some(tc);
        match Clock::new(tc) {
            Ok(c) => self.clock.clock = Some(c),
            Err(e) => self.note(
                format!("the time control cannot be run ({e}): no clock projection"),
                "kifu-clock, TimeControl::validate",
            ),
        }
        let rules = crate::rules_of::rules_of(&g, self.given_ruleset.as_ref());
        // The record is never refused: an unknown profile is played under
        // the fallback, an override refused is noted.
        for (what, rule) in rules.notes(&g) {
            self.note(what, rule);
        }
        match rules.rules {
            crate::rules_of::GameRules::Go(ruleset) => {
                let ruleset = *ruleset;
                self.conduct = ruleset.conduct.clone();
                let free = crate::go::free_placement(&ruleset);
                match GoBoard::new(ruleset, g.board_size, g.handicap, g.komi_half_points, free) {
                    Ok(b) => self.board = BoardState::Go(Box::new(b)),
                    Err(e) => self.note(
                        format!("the board cannot be set up ({e}): no board projection"),
                        "kifu-go, Game::new",
                    ),
                }
            }
            crate::rules_of::GameRules::Renju(settings) => {
                self.conduct = Conduct::rif_world_championship();
                self.board = BoardState::Renju(Box::new(RenjuBoard::new(settings)));
            }
        }
        self.genesis = Some(g);
        self.refresh();
    }

    fn dispatch(&mut self, event: &Event, roles: &[Role]) {
        let seq = event.seq;
        match &event.body {
            Body::GameCreated(_) => self.note(
                "a second genesis in one chain: ignored",
                "docs/FORMAT.md, \"Verifying a chain\"",
            ),
            Body::TournamentCreated(_)
            | Body::PlayerRegistered(_)
            | Body::RegistrationCorrected(_)
            | Body::Paired(_)
            | Body::PairedColoursUnknown(_)
            | Body::ByeGiven { .. }
            | Body::PlayerAbsent { .. }
            | Body::BoardResultEntered { .. }
            | Body::GameCheckpointed(_)
            | Body::TournamentSanction { .. }
            | Body::RoundDrawn(_)
            | Body::TimeZoneStated { .. } => self.note(
                "a tournament fact in a game chain: ignored",
                "docs/FORMAT.md, \"Tournament chains\"",
            ),
            Body::LogKeyRotated { .. } => self.note(
                "the log operator's key rotation: not part of a game",
                "docs/TRANSPARENCY.md, \"Operator key rotation\"",
            ),
            Body::ClockStarted { running } => {
                self.clock_event(ClockEvent::Started {
                    at_ms: event.at_ms,
                    running: player(*running),
                });
                if self.clock.started_at_ms.is_none() {
                    self.clock.started_at_ms = Some(event.at_ms);
                }
            }
            Body::ClockPressed { player: p } => {
                let mut p = self.colour_of_seat(*p);
                // A player who sat at the wrong colour presses the clock of
                // the colour he plays: where his stone's colour is the side
                // that runs, the press is that side's.
                if let Some((_, mover, stone)) = self.unpressed {
                    let running =
                        self.clock.clock.as_ref().and_then(|c| {
                            c.is_running().then(|| crate::state::colour_of(c.to_move()))
                        });
                    if mover == p && stone != p && running == Some(stone) {
                        p = stone;
                    }
                }
                if self.unpressed.is_some_and(|(_, c, s)| c == p || s == p) {
                    self.unpressed = None;
                }
                self.first_press(p, event.at_ms);
                self.clock_event(ClockEvent::Pressed {
                    at_ms: event.at_ms,
                    player: player(p),
                });
                self.pause_on_passes(event.at_ms);
            }
            Body::ClockPaused { reason } => {
                let paused = self
                    .clock
                    .clock
                    .as_ref()
                    .and_then(|c| c.pause_reason().cloned());
                match paused {
                    // Stopped already for the same reason (the passes that
                    // paused play stopped them): the fact confirms it.
                    Some(was) if was == crate::convert::clock_pause(reason) => self.note_on(
                        format!(
                            "the clocks are already stopped {}",
                            crate::words::pause_reason(&was)
                        ),
                        Topic::ClockPause,
                    ),
                    // Already stopped (the referee was called): nothing more
                    // stops; the stated reason is noted.
                    Some(was) => self.note_on(
                        format!(
                            "the clocks were already stopped ({}); now also {}",
                            crate::words::pause_reason(&was),
                            crate::words::ledger_pause_reason(reason)
                        ),
                        Topic::ClockPause,
                    ),
                    None => self.clock_event(ClockEvent::Paused {
                        at_ms: event.at_ms,
                        reason: crate::convert::clock_pause(reason),
                    }),
                }
            }
            Body::ClockResumed { running } => self.clock_resumed(event.at_ms, *running),
            Body::ClockAdjusted {
                player: p,
                delta_ms,
                reason,
            } => {
                self.clock_event(ClockEvent::Adjusted {
                    at_ms: event.at_ms,
                    player: player(*p),
                    delta_ms: *delta_ms,
                    reason: reason.clone(),
                });
                if self.clock.started_at_ms.is_some() {
                    self.note_on(
                        format!(
                            "{}'s clock adjusted by the referee by {}",
                            name(*p),
                            crate::words::signed_duration(*delta_ms)
                        ),
                        Topic::TimingError,
                    );
                }
            }
            Body::ClockReading {
                black_ms,
                white_ms,
                black_overtime,
                white_overtime,
                read_by,
            } => self.clock_reading(
                event.at_ms,
                (*black_ms, *black_overtime),
                (*white_ms, *white_overtime),
                read_by,
            ),
            Body::ServerTimeUsed { player: p, used_ms } => self.server_time(*p, *used_ms),
            Body::StonePlaced {
                player: p,
                stone,
                point,
            } => self.stone_placed(seq, *p, *stone, *point),
            Body::Pass {
                player: p,
                pass_stone,
            } => self.pass(seq, *p, *pass_stone),
            Body::Resigned { player: p, .. } => self.resigned(seq, *p),
            Body::IllegalMoveNoticed { move_seq, .. } => {
                self.illegal_move_noticed(seq, *move_seq, &event.signer, roles)
            }
            Body::RewindAgreed {
                player: p,
                move_seq,
            } => self.rewind_agreed(seq, *p, *move_seq),
            Body::RewindDeclined {
                player: p,
                move_seq,
            } => self.rewind_declined(seq, *p, *move_seq),
            Body::IrregularityRecorded {
                kind,
                about_seq,
                fix,
                statement,
            } => self.irregularity(seq, *kind, *about_seq, fix, statement),
            Body::DeadStonesMarked { player: p, dead } => self.dead_marked(seq, *p, dead),
            Body::StatusAgreed { dead } => self.status_agreed(seq, dead, roles),
            Body::StatusDisputed { player: p, .. } => self.status_disputed(seq, *p),
            Body::FiveDeclared { player: p } => self.renju_input(
                seq,
                kifu_renju::GameInput::DeclareFive {
                    by: crate::renju::player_id(*p),
                },
            ),
            Body::ForbiddenMovePointedOut { player: p, point } => {
                let point = point.and_then(crate::renju::renju_point);
                self.renju_input(
                    seq,
                    kifu_renju::GameInput::ClaimForbidden {
                        by: crate::renju::player_id(*p),
                        point,
                    },
                )
            }
            Body::DrawOffered { player: p } => self.renju_input(
                seq,
                kifu_renju::GameInput::OfferDraw {
                    by: crate::renju::player_id(*p),
                },
            ),
            Body::DrawAccepted { player: p } => self.renju_input(
                seq,
                kifu_renju::GameInput::AcceptDraw {
                    by: crate::renju::player_id(*p),
                },
            ),
            Body::DrawDeclined { player: p } => self.note_on(
                format!("{} declines the draw offer; play goes on", name(*p)),
                Topic::DrawOffer,
            ),
            Body::OpeningSwap { player: p, swap } => self.renju_input(
                seq,
                kifu_renju::GameInput::Swap {
                    by: crate::renju::player_id(*p),
                    swap: *swap,
                },
            ),
            Body::FifthCountDeclared { player: p, count } => self.renju_input(
                seq,
                kifu_renju::GameInput::DeclareFifthCount {
                    by: crate::renju::player_id(*p),
                    count: *count,
                },
            ),
            Body::FifthsOffered { player: p, points } => {
                let points = points
                    .iter()
                    .filter_map(|q| crate::renju::renju_point(*q))
                    .collect();
                self.renju_input(
                    seq,
                    kifu_renju::GameInput::ProposeFifths {
                        by: crate::renju::player_id(*p),
                        points,
                    },
                )
            }
            Body::FifthChosen { player: p, point } => match crate::renju::renju_point(*point) {
                Some(point) => self.renju_input(
                    seq,
                    kifu_renju::GameInput::ChooseFifth {
                        by: crate::renju::player_id(*p),
                        point,
                    },
                ),
                None => self.note_on(
                    "the chosen fifth move is off the board",
                    Topic::RulesInForce,
                ),
            },
            Body::DisputeRaised { player: p, matter } => self.dispute_raised(seq, *p, matter),
            Body::RefereeCalled { player: p } => self.referee_called(seq, *p),
            Body::RefereeRuling(r) => self.referee_ruling(seq, r),
            Body::SanctionImposed(s) => self.sanction(seq, s, "imposed"),
            Body::ProtestDeclared {
                player: p,
                statement,
            } => self.protest(seq, *p, statement),
            Body::AppealLodged {
                player: p,
                ruling_seq,
                grounds,
            } => self.appeal(seq, *p, *ruling_seq, grounds),
            Body::CommitteeFormed {
                members,
                reserves,
                formed_before_round,
            } => self.committee_formed(seq, members, reserves, *formed_before_round),
            Body::MemberRecused { member, reason } => self.member_recused(*member, reason),
            Body::MemberCoopted { member } => self.member_coopted(member),
            Body::CommitteeDecision {
                appeal_seq,
                verdict,
                ..
            } => self.committee_decision(seq, *appeal_seq, verdict, &event.signer),
            Body::ResultDeclared(r) => {
                let signer = self.signer_name(&event.signer);
                self.result.declared.push(Statement {
                    seq,
                    signer,
                    seat: None,
                    roles: roles.to_vec(),
                    result: r.clone(),
                    under_protest: false,
                    matches: None,
                });
            }
            Body::ResultSheetSigned {
                result,
                under_protest,
            } => self.sheet_signed(seq, result, *under_protest, &event.signer),
            Body::PlayerArrived { player: p } => self.player_arrived(*p, event.at_ms),
            Body::ProgramTerminated { player: p, .. } => self.program_terminated(*p, event.at_ms),
            // A program's own words (its count, its dead stones) are evidence
            // for the referee; the rules' count is made from the facts.
            // UEC Cup a) 2 and 3: the programs' `final_score` answers
            // (`agreed.rs`).
            Body::ProgramAnswered {
                player: p,
                command,
                answer,
            } => self.program_answered(seq, *p, command, answer),
            Body::KeyReplaced {
                participant,
                new_key,
                ..
            } => self.key_replaced(participant, new_key),
            Body::PairingModified {
                swap_colours,
                handicap,
                komi_half_points,
                reason,
            } => self.pairing_modified(*swap_colours, *handicap, *komi_half_points, reason),
            Body::KeyRevoked { key, .. } => {
                let who = self.signer_name(key);
                self.note(
                    format!("{who}: this key is revoked; nothing it signs from here on counts"),
                    "docs/FORMAT.md, \"Keys along the chain\"",
                );
            }
        }
    }

    /// From here on `new_key` speaks for whoever `participant` spoke for:
    /// the projection's roster follows the chain's (the ledger has checked
    /// who may replace which key).
    fn key_replaced(&mut self, participant: &PublicKey, new_key: &PublicKey) {
        let who = self.signer_name(participant);
        if let Some(g) = &mut self.genesis {
            for p in g.roster.iter_mut().filter(|p| &p.key == participant) {
                p.key = *new_key;
            }
        }
        self.note(
            format!(
                "{who}: a new key ({}) signs for them from here on; the old key signs nothing more",
                &new_key.to_hex()[..12]
            ),
            "docs/FORMAT.md, \"Keys along the chain\"",
        );
    }

    /// Records a result that follows from play, unless one already stands.
    pub(crate) fn end_by_play(&mut self, result: GameResult, cited: Cited) {
        if self.result.by_play.is_some() || self.result.ruled.is_some() {
            self.note_cited(
                format!(
                    "{} would follow, but the game was already decided",
                    result_text(&result)
                ),
                cited,
            );
            return;
        }
        let at_seq = self.at_seq.unwrap_or(0);
        self.note_cited(
            format!("the game ends: {}", result_text(&result)),
            cited.clone(),
        );
        self.result.by_play = Some(Decided {
            result,
            at_seq,
            rule: cited.rule,
            quote: cited.quote,
        });
    }

    /// Records a forfeit of `who` (both, when the other already forfeited).
    pub(crate) fn forfeit(&mut self, who: Color, why: &str, cited: Cited) {
        let at_seq = self.at_seq.unwrap_or(0);
        let result = match &self.result.forfeit {
            Some(d) if d.result.outcome == Outcome::Win(who) => GameResult {
                outcome: Outcome::BothLose,
                by: ResultBy::Forfeit,
            },
            Some(d) if d.result.outcome == Outcome::BothLose => return,
            Some(_) => return,
            None => GameResult {
                outcome: Outcome::Win(who.opponent()),
                by: ResultBy::Forfeit,
            },
        };
        self.note_cited(
            format!(
                "{} forfeits the game ({why}): {}",
                name(who),
                result_text(&result)
            ),
            cited.clone(),
        );
        self.result.forfeit = Some(Decided {
            result,
            at_seq,
            rule: cited.rule,
            quote: cited.quote,
        });
    }

    /// After every event: the derived parts (turn, clock view, phase,
    /// admissibility of appeals, result comparison).
    fn refresh(&mut self) {
        // After the result nobody is to move.
        self.to_move = match &self.board {
            _ if self.is_over() => None,
            BoardState::Go(b) => Some(b.to_move()),
            BoardState::Renju(r) => r.to_move(),
            BoardState::None => None,
        };
        self.refresh_clock_view();
        self.refresh_appeals();
        self.refresh_panels();
        self.refresh_result();
        self.phase = self.compute_phase();
    }

    fn compute_phase(&self) -> Phase {
        if let Some(d) = self.result.computed() {
            return Phase::Finished {
                how: format!("{}; {}", result_text(&d.result), d.rule),
            };
        }
        if let Some(s) = self.result.signed_by_both() {
            return Phase::Finished {
                how: format!(
                    "{}; signed by both players on the result sheet",
                    result_text(&s.result)
                ),
            };
        }
        if self
            .result
            .programs_count
            .as_ref()
            .is_some_and(|p| p.to_referee)
        {
            return Phase::AwaitingReferee;
        }
        if let BoardState::Renju(r) = &self.board {
            if r.awaiting_referee() {
                return Phase::AwaitingReferee;
            }
        }
        if let Some(reason) = &self.clock.paused {
            if reason == "ADJOURNMENT" {
                return Phase::Adjourned;
            }
            if let BoardState::Go(b) = &self.board {
                if matches!(b.ending_phase(), kifu_go::EndingPhase::StatusAssessment) {
                    return Phase::StatusAssessment;
                }
            }
            return Phase::Paused {
                reason: reason.clone(),
            };
        }
        if let BoardState::Go(b) = &self.board {
            match b.ending_phase() {
                kifu_go::EndingPhase::StatusAssessment
                | kifu_go::EndingPhase::WhiteToPassLast(_) => return Phase::StatusAssessment,
                kifu_go::EndingPhase::Play if b.resumptions() > 0 => return Phase::Resumption,
                _ => {}
            }
        }
        let moved = match &self.board {
            // Handicap stones placed freely come before play.
            BoardState::Go(b) => b
                .ops
                .iter()
                .any(|o| !matches!(o, crate::go::Op::Handicap { .. })),
            BoardState::Renju(r) => !r.game().moves().is_empty(),
            BoardState::None => false,
        };
        if self.clock.started_at_ms.is_some() || moved {
            Phase::Playing
        } else {
            Phase::NotStarted
        }
    }

    /// Once the game has a result no clock runs: the time after it is
    /// nobody's, and a press after it starts no clock. The clocks stop at
    /// the event that gave the result.
    fn stop_clocks_at_result(&mut self, at_ms: u64) {
        let running = self.clock.clock.as_ref().is_some_and(|c| c.is_running());
        if !running || !self.is_over() || self.clock.started_at_ms.is_none() {
            return;
        }
        self.clock_event(ClockEvent::Paused {
            at_ms,
            reason: kifu_clock::PauseReason::Other(GAME_OVER.into()),
        });
    }

    /// The loss on time, from the clock projection.
    fn check_flag(&mut self, at_ms: u64) {
        if self.is_over() {
            return;
        }
        // LGC 2023, "Ending the game" 4: during status assessment the clock is
        // paused, whatever the record says about the clock.
        if let BoardState::Go(b) = &self.board {
            if matches!(b.ending_phase(), kifu_go::EndingPhase::StatusAssessment) {
                return;
            }
        }
        let Some(clock) = &self.clock.clock else {
            return;
        };
        let Some(flag) = clock.flag_fallen_by(at_ms) else {
            return;
        };
        let loser = colour_of(flag.player);
        let rule = self.cite(Topic::LossOnTime);
        if let BoardState::Renju(r) = &mut self.board {
            let _ = r.apply(
                self.at_seq.unwrap_or(0),
                kifu_renju::GameInput::TimeExpired {
                    player: crate::renju::player_id(loser),
                },
            );
        }
        self.note_cited(
            format!(
                "{}'s flag fell {} after the clock was started",
                name(loser),
                crate::words::duration(
                    flag.at_ms
                        .saturating_sub(self.clock.started_at_ms.unwrap_or(flag.at_ms))
                )
            ),
            rule.clone(),
        );
        self.end_by_play(
            GameResult {
                outcome: Outcome::Win(loser.opponent()),
                by: ResultBy::Time,
            },
            rule,
        );
    }
}
