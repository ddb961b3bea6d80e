//! One scenario per clause of the rule documents in `docs/rules/`.

use kifu_clock::{
    Clock, ClockError, ClockEvent, ClockReading, Effect, Flag, Overtime, PauseReason, Player,
    ReadingSource, ShownTime, TimeControl,
};

const B: Player = Player::Black;
const W: Player = Player::White;

fn tc(text: &str) -> TimeControl {
    text.parse().expect("test time control parses")
}

fn start() -> ClockEvent {
    ClockEvent::Started {
        at_ms: 0,
        running: B,
    }
}

fn press(at_ms: u64, player: Player) -> ClockEvent {
    ClockEvent::Pressed { at_ms, player }
}

fn pause(at_ms: u64, reason: PauseReason) -> ClockEvent {
    ClockEvent::Paused { at_ms, reason }
}

fn resume(at_ms: u64) -> ClockEvent {
    ClockEvent::Resumed {
        at_ms,
        running: None,
    }
}

fn adjust(at_ms: u64, player: Player, delta_ms: i64, reason: &str) -> ClockEvent {
    ClockEvent::Adjusted {
        at_ms,
        player,
        delta_ms,
        reason: reason.to_owned(),
    }
}

fn project(control: &str, events: &[ClockEvent]) -> Clock {
    Clock::project(tc(control), events).expect("events apply")
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Timing procedure for removing three or more stones":
// 1. The player places the stone. 2. The clock is now paused. 3. The captured
// stones are removed. 4. The player restarts the opponent's clock.
#[test]
fn lgc_removing_three_or_more_stones_is_not_charged_to_the_capturing_player() {
    let clock = project(
        "sudden:10m",
        &[
            start(),
            // 1-2: Black places the capturing stone at 40 s and pauses.
            pause(40_000, PauseReason::StoneRemoval),
            // 3-4: removing the stones takes 50 s; Black restarts White's clock.
            press(90_000, B),
        ],
    );
    assert_eq!(
        clock.player(B).main_ms,
        600_000 - 40_000,
        "only the 40 s before the pause"
    );
    assert_eq!(clock.player(B).used_ms, 40_000);
    assert_eq!(clock.to_move(), W, "the opponent's clock runs");
    assert!(clock.is_running());
    assert_eq!(
        clock.flag_at(),
        Some(90_000 + 600_000),
        "White's clock started at the restart"
    );
}

#[test]
fn lgc_removing_three_or_more_stones_in_byo_yomi_keeps_the_period() {
    let clock = project(
        "byoyomi:0s+1x30s",
        &[
            start(),
            press(1_000, B),
            // White, in her last period, captures after 25 s and pauses; the
            // removal takes a minute; the 30 s period must not run out.
            pause(26_000, PauseReason::StoneRemoval),
            press(86_000, W),
        ],
    );
    assert_eq!(clock.flags(), [None, None]);
    assert_eq!(
        clock.player(W).overtime,
        Overtime::ByoYomi {
            periods_left: 1,
            period_ms: 30_000
        }
    );
    assert_eq!(clock.to_move(), B);
}

#[test]
fn lgc_restarting_the_opponents_clock_by_resume_hands_over_the_turn() {
    // A referee may also record step 4 as a resume of the opponent's clock;
    // then no move is completed (no increment), but the time is charged.
    let clock = project(
        "fischer:10m+10s",
        &[
            start(),
            pause(40_000, PauseReason::StoneRemoval),
            ClockEvent::Resumed {
                at_ms: 90_000,
                running: Some(W),
            },
        ],
    );
    assert_eq!(clock.player(B).main_ms, 560_000);
    assert_eq!(clock.to_move(), W);
    assert_eq!(clock.flag_at(), Some(690_000));
}

// RIF (rif-renju-world-championship-rules.txt), "The Rules for World Championship": "If at any
// time the clock button is pressed by mistake, the referee has to be called
// immediately. The opponent's clock should not be pressed to fix the mistake
// because it would cause adding 30 seconds to both players."
#[test]
fn rif_clock_pressed_by_mistake_is_fixed_by_the_referee_not_by_a_second_press() {
    let before = [start(), press(60_000, B), press(100_000, W)];
    let after_moves = project("fischer:90m+30s", &before);
    let black_before = after_moves.player(B).main_ms;
    let white_before = after_moves.player(W).main_ms;
    assert_eq!(black_before, 5_400_000 - 60_000 + 30_000);

    // Black, thinking since 100 s, presses by mistake at 110 s without moving;
    // White's clock runs until the referee stops it at 130 s.
    let mistake = [press(110_000, B), pause(130_000, PauseReason::CallReferee)];

    // The referee's fix: take back the undeserved increment, give White back
    // the 20 s her clock ran, and restart Black's clock.
    let fix = [
        adjust(150_000, B, -30_000, "increment from a press by mistake"),
        adjust(
            150_000,
            W,
            20_000,
            "time run on White's clock after a press by mistake",
        ),
        ClockEvent::Resumed {
            at_ms: 160_000,
            running: Some(B),
        },
    ];
    let fixed: Vec<_> = before.iter().chain(&mistake).chain(&fix).cloned().collect();
    let fixed = project("fischer:90m+30s", &fixed);
    assert_eq!(fixed.to_move(), B);
    assert_eq!(
        fixed.player(B).main_ms,
        black_before - 10_000,
        "Black's 10 s of thought, no increment"
    );
    assert_eq!(
        fixed.player(W).main_ms,
        white_before,
        "White exactly as before the mistake"
    );
    assert_eq!(fixed.flag_at(), Some(160_000 + black_before - 10_000));

    // The forbidden fix: White presses back. Both players gain an increment.
    let pressed_back: Vec<_> = before
        .iter()
        .chain(&[press(110_000, B), press(130_000, W)])
        .cloned()
        .collect();
    let pressed_back = project("fischer:90m+30s", &pressed_back);
    assert_eq!(pressed_back.to_move(), B);
    assert_eq!(
        pressed_back.player(B).main_ms,
        fixed.player(B).main_ms + 30_000
    );
    assert_eq!(
        pressed_back.player(W).main_ms,
        white_before - 20_000 + 30_000
    );
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Loss on time": "No overtime: a player loses on time if
// the current move is not completed before the basic time expires."
#[test]
fn lgc_loss_on_time_without_overtime_when_the_basic_time_expires() {
    let clock = project("sudden:30m", &[start(), press(1_000_000, B)]);
    // White has 30 min; her flag falls at 1_000 s + 1_800 s.
    assert_eq!(clock.flag_at(), Some(2_800_000));
    assert_eq!(clock.flag_fallen_by(2_799_999), None);
    assert_eq!(
        clock.flag_fallen_by(2_800_000),
        Some(Flag {
            player: W,
            at_ms: 2_800_000
        })
    );

    // Completing the move exactly when the basic time expires is too late.
    let mut late = clock.clone();
    let effect = late
        .apply(&press(2_800_000, W))
        .expect("a late press is still a fact");
    let Effect::Moved(record) = effect else {
        panic!("a press records a move")
    };
    assert!(!record.in_time);
    assert_eq!(
        late.flags()[W.index()],
        Some(Flag {
            player: W,
            at_ms: 2_800_000
        })
    );
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Loss on time": "With overtime: a player loses on time
// if not all of the given number of overtime stones are played in the prescribed overtime period."
#[test]
fn lgc_loss_on_time_with_overtime_only_when_the_overtime_stones_are_not_played() {
    // Canadian 1 min + 3 stones in 30 s. Main time expiring is not a loss.
    let events = [
        start(),
        press(70_000, B), // main time ran out at 60 s: this is stone 1, 20 s left
        press(71_000, W),
        press(86_000, B), // stone 2, 5 s left
        press(87_000, W),
    ];
    let clock = project("canadian:1m+3/30s", &events);
    assert_eq!(
        clock.player(B).overtime,
        Overtime::Canadian {
            moves_left: 1,
            block_ms_left: 5_000
        }
    );
    assert_eq!(clock.flag_fallen_by(91_999), None);
    assert_eq!(
        clock.flag_fallen_by(92_000),
        Some(Flag {
            player: B,
            at_ms: 92_000
        })
    );

    // Japanese byo-yomi: main time out, then the last period runs out.
    let clock = project(
        "byoyomi:1m+2x10s",
        &[start(), press(75_000, B), press(76_000, W)],
    );
    assert_eq!(
        clock.player(B).overtime,
        Overtime::ByoYomi {
            periods_left: 1,
            period_ms: 10_000
        }
    );
    assert_eq!(clock.flag_at(), Some(86_000));
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Sudden death": "Each player is assigned a fixed amount
// of time for the whole game. There is no overtime."
#[test]
fn sudden_death_flag_falls_when_main_time_is_used() {
    let clock = project("sudden:1m", &[start(), press(10_000, B), press(25_000, W)]);
    assert_eq!(clock.flag_at(), Some(25_000 + 50_000));
}

// RIF (rif-renju-world-championship-rules.txt), "The Rules for World
// Championship": "30 seconds added after each move (starting from the 1st
// move)"; the increment is added after the press, not before move 1.
#[test]
fn fischer_flag_moves_by_the_increment_after_each_move_in_time() {
    let clock = project("fischer:1m+30s", &[start()]);
    assert_eq!(clock.flag_at(), Some(60_000), "no increment before move 1");
    let clock = project(
        "fischer:1m+30s",
        &[start(), press(10_000, B), press(20_000, W)],
    );
    assert_eq!(clock.player(B).main_ms, 80_000);
    assert_eq!(clock.flag_at(), Some(100_000));
    let capped = project("fischer:1m+30s/70s", &[start(), press(10_000, B)]);
    assert_eq!(
        capped.player(B).main_ms,
        70_000,
        "the cap applies after the increment"
    );
}

#[test]
fn fischer_move_that_overstepped_gets_no_increment() {
    let clock = project("fischer:10s+5s", &[start(), press(12_000, B)]);
    assert_eq!(clock.player(B).main_ms, 0);
    assert_eq!(
        clock.flags()[B.index()],
        Some(Flag {
            player: B,
            at_ms: 10_000
        })
    );
}

#[test]
fn simple_time_flag_falls_per_move_and_nothing_carries_over() {
    let clock = project("simple:30s", &[start(), press(1_000, B), press(2_000, W)]);
    assert_eq!(
        clock.flag_at(),
        Some(32_000),
        "Black's 29 s saved are not carried over"
    );
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Japanese byo-yomi": "A move must be completed within
// the byo-yomi time period."
#[test]
fn byo_yomi_a_move_within_a_period_keeps_it_and_whole_periods_are_used_up() {
    let clock = project("byoyomi:0s+3x10s", &[start(), press(9_999, B)]);
    assert_eq!(
        clock.player(B).overtime,
        Overtime::ByoYomi {
            periods_left: 3,
            period_ms: 10_000
        }
    );
    let clock = project("byoyomi:0s+3x10s", &[start(), press(25_000, B)]);
    assert_eq!(
        clock.player(B).overtime,
        Overtime::ByoYomi {
            periods_left: 1,
            period_ms: 10_000
        }
    );
    let clock = project(
        "byoyomi:0s+3x10s",
        &[start(), press(25_000, B), press(26_000, W)],
    );
    assert_eq!(
        clock.flag_at(),
        Some(36_000),
        "one period left, reset to full"
    );
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Canadian overtime": "When all the moves have been
// made, the clock is reset for the next overtime period."
#[test]
fn canadian_block_resets_after_its_stones_and_leftover_is_discarded() {
    let clock = project(
        "canadian:0s+2/20s",
        &[start(), press(5_000, B), press(6_000, W), press(11_000, B)],
    );
    assert_eq!(
        clock.player(B).overtime,
        Overtime::Canadian {
            moves_left: 2,
            block_ms_left: 20_000
        }
    );
}

#[test]
fn untimed_game_never_flags() {
    let clock = project("none", &[start(), press(u64::MAX / 2, B)]);
    assert_eq!(clock.flag_at(), None);
    assert_eq!(clock.flag_fallen_by(u64::MAX), None);
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Management of time": the clock may be paused "with
// both player's timepieces being stopped simultaneously".
#[test]
fn lgc_pause_stops_both_clocks_and_is_excluded_from_time_used() {
    let clock = project(
        "sudden:1m",
        &[
            start(),
            press(10_000, B),
            pause(20_000, PauseReason::Toilet),
            resume(80_000),
            press(85_000, W),
        ],
    );
    assert_eq!(
        clock.player(W).main_ms,
        45_000,
        "10 s + 5 s, the minute away not counted"
    );
    assert_eq!(clock.player(B).main_ms, 50_000);
    let paused = project(
        "sudden:1m",
        &[start(), pause(59_000, PauseReason::ClockMalfunction)],
    );
    assert_eq!(paused.flag_at(), None);
    assert_eq!(
        paused.flag_fallen_by(10_000_000),
        None,
        "no flag falls during a pause"
    );
    let faces = paused.face_at(10_000_000).unwrap();
    assert_eq!(faces[B.index()].main_ms, 1_000);
}

#[test]
fn lgc_pause_reasons_have_stable_codes_in_lgc_order() {
    let codes: Vec<_> = PauseReason::LGC_2023
        .iter()
        .map(|r| r.code().to_owned())
        .collect();
    assert_eq!(
        codes,
        [
            "STATUS_ASSESSMENT",
            "COUNTING",
            "OVERTIME_RESET",
            "TOILET",
            "STONE_REMOVAL",
            "CLOCK_MALFUNCTION",
            "ADJOURNMENT",
            "FETCH_SEALING_FORM",
            "COMPLETE_SEALING_FORM",
            "CALL_REFEREE",
            "ARBITRATION",
            "ANNOUNCEMENT",
        ]
    );
    for reason in PauseReason::LGC_2023 {
        let json = serde_json::to_string(&reason).unwrap();
        assert_eq!(serde_json::from_str::<PauseReason>(&json).unwrap(), reason);
    }
    let other: PauseReason = serde_json::from_str("\"ILLNESS\"").unwrap();
    assert_eq!(other, PauseReason::Other("ILLNESS".to_owned()));
}

// LGC 2023 (lgc-tournament-rules-2023.txt), "Timing error": mistakes in the elapsed time "can only
// be corrected by the referee"; "Faulty clock": the referee interprets "what should have been the
// clock's correct indication".
#[test]
fn lgc_faulty_clock_reading_is_compared_with_what_it_should_have_shown() {
    let clock = project("byoyomi:1m+5x30s", &[start(), press(50_000, B)]);
    // At 130 s White has used 80 s: 20 s into her first period, 5 periods on
    // the display counting the running one.
    let reading = ClockReading {
        at_ms: 130_000,
        black: ShownTime {
            time_ms: 10_000,
            count: None,
        },
        white: ShownTime {
            time_ms: 7_000,
            count: Some(4),
        },
        read_by: ReadingSource::Referee,
    };
    let d = clock.discrepancy(&reading).unwrap();
    assert_eq!(d.black.time_ms, 0);
    assert_eq!(
        d.white.expected,
        ShownTime {
            time_ms: 10_000,
            count: Some(5)
        }
    );
    assert_eq!(d.white.time_ms, -3_000);
    assert_eq!(d.white.count, Some(-1));
    assert!(!d.within(500));
    assert!(d.black.within(0));

    // The same comparison as a recorded event.
    let mut recorded = clock.clone();
    let effect = recorded
        .apply(&ClockEvent::ReadingRecorded(reading))
        .unwrap();
    assert_eq!(effect, Effect::Reading(d));
}

#[test]
fn referee_cannot_take_more_main_time_than_is_left() {
    let mut clock = project("sudden:1m", &[start()]);
    let err = clock
        .apply(&adjust(50_000, B, -20_000, "penalty"))
        .unwrap_err();
    assert_eq!(
        err,
        ClockError::AdjustmentExceedsMainTime {
            player: B,
            remaining_ms: 10_000,
            delta_ms: -20_000
        }
    );
    clock
        .apply(&adjust(50_000, B, 60_000, "hindrance by the opponent"))
        .unwrap();
    assert_eq!(clock.flag_at(), Some(120_000));
}

#[test]
fn events_out_of_order_or_out_of_turn_are_rejected_and_leave_the_clock_unchanged() {
    let mut clock = project("sudden:1m", &[start(), press(10_000, B)]);
    let before = clock.clone();
    assert_eq!(
        clock.apply(&press(5_000, W)),
        Err(ClockError::TimeWentBackwards {
            at_ms: 5_000,
            last_ms: 10_000
        })
    );
    assert_eq!(
        clock.apply(&press(20_000, B)),
        Err(ClockError::NotOnMove {
            player: B,
            to_move: W,
            at_ms: 20_000
        })
    );
    assert_eq!(
        clock.apply(&resume(20_000)),
        Err(ClockError::NotPaused { at_ms: 20_000 })
    );
    assert_eq!(
        clock.apply(&start()),
        Err(ClockError::TimeWentBackwards {
            at_ms: 0,
            last_ms: 10_000
        })
    );
    assert_eq!(clock, before);
    let mut fresh = Clock::new(tc("sudden:1m")).unwrap();
    assert_eq!(
        fresh.apply(&press(1, B)),
        Err(ClockError::NotStarted {
            event: "press",
            at_ms: 1
        })
    );
}

#[test]
fn invalid_time_control_is_rejected() {
    let tc = TimeControl::Canadian {
        main_ms: 0,
        stones: 0,
        block_ms: 1,
    };
    assert!(matches!(
        Clock::new(tc),
        Err(ClockError::InvalidTimeControl { .. })
    ));
}
