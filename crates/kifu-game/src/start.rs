//! The start of play at a round's start (LGC 2023, "Start"): "At a time
//! determined by the tournament director (by default 15 minutes after the
//! start of the round) Black's clock is started either by the referee or by
//! the players themselves." The director's desk starts every game of a
//! round at once with the fact this module drafts.

use kifu_ledger::{Body, Color, Event, Standing};

/// The fact that starts play in a game (genesis first, `events`): Black's
/// clock started, when no clock has been started yet and no result has
/// been signed; `None` otherwise.
pub fn start_of_play(events: &[Event]) -> Option<Body> {
    let standing = Standing::replay(events)?;
    let started = events
        .iter()
        .any(|e| matches!(e.body, Body::ClockStarted { .. }));
    (!started && standing.result_seq.is_none()).then_some(Body::ClockStarted {
        running: Color::Black,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{moves_game, Cast, ChainBuilder};

    fn events(c: &ChainBuilder) -> Vec<Event> {
        c.records.iter().map(|r| r.decode().unwrap()).collect()
    }

    #[test]
    fn black_s_clock_starts_a_game_not_started_and_only_it() {
        let cast = Cast::new();
        let fresh = ChainBuilder::start(&cast.referee, cast.genesis("start"), 1_000);
        assert_eq!(
            start_of_play(&events(&fresh)),
            Some(Body::ClockStarted {
                running: Color::Black
            })
        );
        // Started already (the test kit's game starts Black's clock).
        assert_eq!(
            start_of_play(&events(&moves_game(&cast, "started", 2))),
            None
        );
        assert_eq!(start_of_play(&[]), None);
    }
}
