//! Hostile SGF in bounded memory and time: deep nesting (on and off the
//! main line), long main lines, many properties in a node, huge point lists
//! and floods of warnings, each read with its peak memory measured in this
//! process (a counting global allocator) and its time taken.
//!
//! The bounds are generous on purpose (a busy machine, a debug build): the
//! reader holds 64 bytes per move of the main line and nothing per node
//! off it, so a small multiple of the text: 8 MB of nested variations
//! (a million moves) in 64 MiB. Before the reader streamed
//! the main line, 8 MB of nested variations took over 500 MB here.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use kifu_go::sgf;
use peak_alloc::PeakAlloc;
use proptest::prelude::*;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// One measurement at a time: the allocator counts the whole process.
static MEASURING: Mutex<()> = Mutex::new(());

/// Peak memory a read may take: a small multiple of the text, plus room
/// for the fixed costs.
fn memory_bound(len: usize) -> usize {
    12 * len + (1 << 20)
}

/// Time a read may take: linear in the text, with a wide margin for a
/// debug build on a shared machine.
fn time_bound(len: usize) -> Duration {
    Duration::from_secs(10) + Duration::from_micros(3 * len as u64)
}

/// Holds the process to one test at a time.
fn alone() -> std::sync::MutexGuard<'static, ()> {
    MEASURING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Reads `text`, returns (peak bytes above what was live before, time,
/// whether it read).
fn measure(text: &str) -> (usize, Duration, bool) {
    let _one = alone();
    measure_alone(text)
}

/// [`measure`], for a test that already holds the process.
fn measure_alone(text: &str) -> (usize, Duration, bool) {
    let before = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    let started = Instant::now();
    let read = sgf::read_with_warnings(text);
    let took = started.elapsed();
    let ok = read.is_ok();
    drop(read);
    let peak = ALLOC.peak_usage().saturating_sub(before);
    (peak, took, ok)
}

fn check(shape: &str, text: &str) -> bool {
    let (peak, took, ok) = measure(text);
    let len = text.len();
    assert!(
        peak <= memory_bound(len),
        "{shape}: {len} bytes of text took {peak} bytes at the peak"
    );
    assert!(
        took <= time_bound(len),
        "{shape}: {len} bytes of text took {took:?}"
    );
    ok
}

/// `n` moves, each a variation nested in the one before: `(;B[aa](;W[bb](...`.
fn nested_main_line(n: usize) -> String {
    let mut t = String::with_capacity(8 * n + 16);
    t.push_str("(;GM[1]");
    for i in 0..n {
        t.push_str(if i % 2 == 0 { "(;B[" } else { "(;W[" });
        t.push_str(["aa", "bb", "cc", "dd"][i % 4]);
        t.push(']');
    }
    for _ in 0..=n {
        t.push(')');
    }
    t
}

/// A short main line, then `n` variations nested off it.
fn nested_off_main_line(n: usize) -> String {
    let mut t = String::from("(;GM[1](;B[aa])");
    for _ in 0..n {
        t.push_str("(;B[bb]C[x]");
    }
    for _ in 0..=n {
        t.push(')');
    }
    t
}

/// `n` moves in one sequence, with clock readings.
fn long_main_line(n: usize) -> String {
    let mut t = String::from("(;GM[1]SZ[19]");
    for i in 0..n {
        if i % 2 == 0 {
            t.push_str(";B[dd]BL[10.5]");
        } else {
            t.push_str(";W[pp]WL[9]");
        }
    }
    t.push(')');
    t
}

/// A move node with `n` properties the reader does not use, and a root
/// with as many as it keeps (at most [`sgf::MAX_PROPERTIES`]).
fn many_properties(n: usize) -> String {
    let mut t = String::from("(;GM[1]");
    // GM is one of the root's properties.
    for i in 0..(sgf::MAX_PROPERTIES - 1).min(n) {
        t.push_str(&ident(i));
        t.push_str("[v]");
    }
    t.push_str(";B[aa]");
    for i in 0..n {
        t.push_str(&ident(i));
        t.push_str("[v]");
    }
    t.push(')');
    t
}

/// Distinct upper-case identifiers.
fn ident(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'A' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            return format!("X{s}");
        }
    }
}

/// A setup list of `n` points (refused past what any record needs).
fn huge_point_list(n: usize) -> String {
    let mut t = String::from("(;GM[1]SZ[19]AB");
    for i in 0..n {
        let x = (b'a' + (i % 19) as u8) as char;
        let y = (b'a' + ((i / 19) % 19) as u8) as char;
        t.push('[');
        t.push(x);
        t.push(y);
        t.push(']');
    }
    t.push(')');
    t
}

/// `n` moves each with a time that does not parse: a warning each.
fn warning_flood(n: usize) -> String {
    let mut t = String::from("(;GM[1]");
    for _ in 0..n {
        t.push_str(";B[aa]BL[soon]");
    }
    t.push(')');
    t
}

#[test]
fn eight_megabytes_of_nested_variations_read_in_bounded_memory() {
    let _one = alone();
    let text = nested_main_line(1_000_000);
    assert!(text.len() >= 8_000_000);
    let (peak, took, ok) = measure_alone(&text);
    assert!(ok, "the record reads");
    // 64 bytes per move, held once; the text itself is the caller's.
    assert!(std::mem::size_of::<sgf::SgfMove>() <= 64);
    assert!(
        peak <= 64 << 20,
        "{} bytes of nested variations took {peak} bytes at the peak",
        text.len()
    );
    assert!(took <= time_bound(text.len()), "took {took:?}");
    let game = sgf::read(&text).unwrap();
    assert_eq!(game.moves.len(), 1_000_000);
}

#[test]
fn a_flood_of_warnings_is_summed_up_not_kept() {
    let _one = alone();
    let (game, warnings) = sgf::read_with_warnings(&warning_flood(10_000)).unwrap();
    assert_eq!(game.moves.len(), 10_000);
    assert_eq!(warnings.len(), sgf::MAX_WARNINGS + 1);
    assert!(warnings
        .last()
        .unwrap()
        .to_string()
        .contains(&format!("{} more", 10_000 - sgf::MAX_WARNINGS)));
}

#[test]
fn lists_and_nodes_past_what_any_record_needs_are_refused() {
    let _one = alone();
    assert!(sgf::read(&huge_point_list(sgf::MAX_VALUES + 1)).is_err());
    let mut t = String::from("(;GM[1]");
    for i in 0..=sgf::MAX_PROPERTIES {
        t.push_str(&ident(i));
        t.push_str("[v]");
    }
    t.push(')');
    assert!(sgf::read(&t).is_err());
    // Properties a move node is not read for are scanned, not counted.
    assert!(sgf::read(&many_properties(sgf::MAX_PROPERTIES * 3)).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn hostile_shapes_read_in_bounded_memory_and_time(shape in 0usize..6, n in 1usize..120_000) {
        let (name, text) = match shape {
            0 => ("nested main line", nested_main_line(n)),
            1 => ("nested off the main line", nested_off_main_line(n)),
            2 => ("long main line", long_main_line(n)),
            3 => ("many properties", many_properties(n)),
            4 => ("huge point list", huge_point_list(n)),
            _ => ("warning flood", warning_flood(n)),
        };
        let ok = check(name, &text);
        if shape != 4 || n <= sgf::MAX_VALUES {
            prop_assert!(ok, "{name} of {n} reads");
        }
    }
}
