//! The short text form of time controls, display resolutions and SGF values.

use kifu_clock::{
    format_time, parse_duration, parse_time_control, sgf_move_properties, sgf_player_properties,
    sgf_root_properties, sgf_seconds, Clock, ClockEvent, Effect, ParseError, Player, Resolution,
    TimeControl,
};
use proptest::prelude::*;

#[test]
fn the_short_strings_a_referee_types_parse_and_print_back() {
    let cases = [
        (
            "sudden:30m",
            TimeControl::SuddenDeath { main_ms: 1_800_000 },
        ),
        (
            "fischer:90m+30s",
            TimeControl::Fischer {
                main_ms: 5_400_000,
                increment_ms: 30_000,
                max_ms: None,
            },
        ),
        (
            "fischer:90m+30s/120m",
            TimeControl::Fischer {
                main_ms: 5_400_000,
                increment_ms: 30_000,
                max_ms: Some(7_200_000),
            },
        ),
        (
            "byoyomi:60m+5x30s",
            TimeControl::Byoyomi {
                main_ms: 3_600_000,
                periods: 5,
                period_ms: 30_000,
            },
        ),
        (
            "canadian:60m+25/10m",
            TimeControl::Canadian {
                main_ms: 3_600_000,
                stones: 25,
                block_ms: 600_000,
            },
        ),
        (
            "simple:30s",
            TimeControl::Simple {
                per_move_ms: 30_000,
            },
        ),
        ("none", TimeControl::Untimed),
        (
            "sudden:1s500ms",
            TimeControl::SuddenDeath { main_ms: 1_500 },
        ),
        ("sudden:0s", TimeControl::SuddenDeath { main_ms: 0 }),
    ];
    for (text, control) in cases {
        assert_eq!(parse_time_control(text), Ok(control), "{text}");
        assert_eq!(control.to_string(), text, "canonical form of {control:?}");
    }
}

#[test]
fn hours_and_combinations_are_accepted_and_printed_in_minutes() {
    let tc: TimeControl = "fischer:1h30m+30s".parse().unwrap();
    assert_eq!(tc.to_string(), "fischer:90m+30s");
    assert_eq!(parse_duration("2h15m"), Ok(8_100_000));
    assert_eq!(parse_duration("1m30s250ms"), Ok(90_250));
    assert_eq!(
        " absolute:30m ".parse::<TimeControl>().unwrap().to_string(),
        "sudden:30m"
    );
}

#[test]
fn bad_short_strings_name_what_was_wrong() {
    let err = |text: &str| parse_time_control(text).unwrap_err();
    assert_eq!(err(""), ParseError::Empty);
    assert_eq!(
        err("hourglass:5m"),
        ParseError::UnknownSystem {
            system: "hourglass".to_owned()
        }
    );
    assert!(matches!(
        err("fischer"),
        ParseError::MissingParameters {
            system: "fischer",
            ..
        }
    ));
    assert!(matches!(
        err("none:5m"),
        ParseError::UnexpectedParameters { .. }
    ));
    assert!(matches!(
        err("byoyomi:60m+5*30s"),
        ParseError::Malformed {
            system: "byoyomi",
            ..
        }
    ));
    assert!(matches!(
        err("sudden:30"),
        ParseError::BadDuration {
            problem: "missing unit (h, m, s or ms)",
            ..
        }
    ));
    assert!(matches!(err("sudden:30x"), ParseError::BadDuration { .. }));
    assert!(matches!(
        err("sudden:30s1m"),
        ParseError::BadDuration { .. }
    ));
    assert!(matches!(err("sudden:1m1m"), ParseError::BadDuration { .. }));
    assert!(matches!(err("sudden:-5m"), ParseError::BadDuration { .. }));
    assert!(matches!(
        err("sudden:99999999999999999999h"),
        ParseError::BadDuration { .. }
    ));
    assert!(matches!(
        err("sudden:9999999999999999h"),
        ParseError::BadDuration {
            problem: "duration too large",
            ..
        }
    ));
    assert!(matches!(
        err("canadian:60m+0/10m"),
        ParseError::BadCount { what: "stones", .. }
    ));
    assert!(matches!(
        err("byoyomi:60m+x30s"),
        ParseError::BadCount {
            what: "periods",
            ..
        }
    ));
    assert!(err("byoyomi:60m+5x30").to_string().contains("missing unit"));
}

fn any_time_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        Just(TimeControl::Untimed),
        any::<u64>().prop_map(|main_ms| TimeControl::SuddenDeath { main_ms }),
        (any::<u64>(), any::<u64>(), any::<Option<u64>>()).prop_map(
            |(main_ms, increment_ms, max_ms)| {
                TimeControl::Fischer {
                    main_ms,
                    increment_ms,
                    max_ms,
                }
            }
        ),
        any::<u64>().prop_map(|per_move_ms| TimeControl::Simple { per_move_ms }),
        (any::<u64>(), any::<u32>(), any::<u64>()).prop_map(|(main_ms, periods, period_ms)| {
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            }
        }),
        (any::<u64>(), 1..=u32::MAX, any::<u64>()).prop_map(|(main_ms, stones, block_ms)| {
            TimeControl::Canadian {
                main_ms,
                stones,
                block_ms,
            }
        }),
    ]
}

proptest! {
    #[test]
    fn display_then_parse_is_the_identity(control in any_time_control()) {
        let text = control.to_string();
        prop_assert_eq!(text.parse::<TimeControl>(), Ok(control));
    }

    #[test]
    fn parse_then_display_is_canonical(text in "(sudden|fischer|byoyomi|canadian|simple|none)(:[0-9]{1,3}(h|m|s|ms)([+][0-9]{1,2}(x|/)?[0-9]{0,3}(m|s)?)?)?") {
        if let Ok(control) = text.parse::<TimeControl>() {
            let canonical = control.to_string();
            prop_assert_eq!(canonical.parse::<TimeControl>(), Ok(control));
            prop_assert_eq!(canonical.parse::<TimeControl>().unwrap().to_string(), canonical);
        }
    }

    #[test]
    fn parsing_never_panics(text in any::<String>()) {
        let _ = text.parse::<TimeControl>();
    }
}

// UEC Cup (uec-cup-computer-go-rules.txt), "Time limit": "The server will count time by 0.1
// seconds."
#[test]
fn uec_cup_times_are_shown_in_tenths_without_rounding_up() {
    assert_eq!(format_time(1_800_000, Resolution::Tenths), "30:00.0");
    assert_eq!(format_time(99, Resolution::Tenths), "0:00.0");
    assert_eq!(format_time(1_234_567, Resolution::Tenths), "20:34.5");
    assert_eq!(format_time(1_234_567, Resolution::Millis), "20:34.567");
    assert_eq!(format_time(1_234_567, Resolution::Seconds), "20:34");
    assert_eq!(format_time(36_000_000, Resolution::Seconds), "10:00:00");
}

#[test]
fn sgf_root_properties_follow_kgs_forms() {
    let root = |t: &str| sgf_root_properties(&t.parse().unwrap());
    let p = |v: &[(&'static str, &str)]| {
        v.iter()
            .map(|(k, s)| (*k, s.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        root("byoyomi:60m+5x30s"),
        p(&[("TM", "3600"), ("OT", "5x30 byo-yomi")])
    );
    assert_eq!(
        root("canadian:60m+25/10m"),
        p(&[("TM", "3600"), ("OT", "25/600 Canadian")])
    );
    assert_eq!(
        root("fischer:90m+30s"),
        p(&[("TM", "5400"), ("OT", "30 fischer")])
    );
    assert_eq!(root("simple:30s"), p(&[("OT", "30 simple")]));
    assert_eq!(root("sudden:30m"), p(&[("TM", "1800")]));
    assert_eq!(root("none"), p(&[]));
    assert_eq!(sgf_seconds(1_787_561), "1787.561");
    assert_eq!(sgf_seconds(1_787_500), "1787.5");
}

#[test]
fn sgf_move_values_are_taken_at_the_press_before_the_period_reset() {
    let tc: TimeControl = "byoyomi:0s+5x30s".parse().unwrap();
    let mut clock = Clock::new(tc).unwrap();
    clock
        .apply(&ClockEvent::Started {
            at_ms: 0,
            running: Player::Black,
        })
        .unwrap();
    let Effect::Moved(record) = clock
        .apply(&ClockEvent::Pressed {
            at_ms: 40_500,
            player: Player::Black,
        })
        .unwrap()
    else {
        panic!("a press is a move")
    };
    // 40.5 s: one period used up, 19.5 s left in the second at the press.
    let p = |v: &[(&'static str, &str)]| {
        v.iter()
            .map(|(k, s)| (*k, s.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        sgf_move_properties(&record),
        p(&[("BL", "19.5"), ("OB", "4")])
    );
    // Between moves the period is full again.
    assert_eq!(
        sgf_player_properties(Player::Black, clock.player(Player::Black)),
        p(&[("BL", "30"), ("OB", "4")])
    );
    assert_eq!(
        sgf_player_properties(Player::White, clock.player(Player::White)),
        p(&[("WL", "30"), ("OW", "5")])
    );

    let tc: TimeControl = "canadian:1m+2/30s".parse().unwrap();
    let clock = Clock::project(
        tc,
        &[
            ClockEvent::Started {
                at_ms: 0,
                running: Player::Black,
            },
            ClockEvent::Pressed {
                at_ms: 10_000,
                player: Player::Black,
            },
        ],
    )
    .unwrap();
    assert_eq!(
        sgf_player_properties(Player::Black, clock.player(Player::Black)),
        p(&[("BL", "50")])
    );
}

#[test]
fn sgf_overtime_reads_what_the_writer_writes() {
    use kifu_clock::{notation::parse_sgf_overtime, sgf_root_properties, TimeControl};
    for text in [
        "byoyomi:60m+5x30s",
        "canadian:60m+25/10m",
        "fischer:90m+30s",
        "simple:30s",
    ] {
        let tc: TimeControl = text.parse().expect(text);
        let props = sgf_root_properties(&tc);
        let main_ms = props
            .iter()
            .find(|(k, _)| *k == "TM")
            .map(|(_, v)| (v.parse::<f64>().expect("TM") * 1000.0) as u64)
            .unwrap_or(0);
        let ot = &props.iter().find(|(k, _)| *k == "OT").expect("OT").1;
        assert_eq!(parse_sgf_overtime(main_ms, ot), Some(tc), "{text}");
    }
    assert_eq!(
        parse_sgf_overtime(0, "3x60 Byo-Yomi").map(|t| matches!(
            t,
            TimeControl::Byoyomi {
                periods: 3,
                period_ms: 60_000,
                ..
            }
        )),
        Some(true)
    );
    assert_eq!(parse_sgf_overtime(0, "0x30 byo-yomi"), None);
    assert_eq!(parse_sgf_overtime(0, "whatever"), None);
}
