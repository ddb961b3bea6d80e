//! `kifu match` end to end: GNU Go against itself, and scripted programs
//! (`tests/engines/fake_gtp.py`) that misbehave in each way the UEC Cup
//! rules (`uec-cup-computer-go-rules.txt`) provide for.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

fn fake() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/engines/fake_gtp.py");
    format!("python3 {}", script.display())
}

fn python_present() -> bool {
    std::process::Command::new("python3")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn gnugo() -> Option<PathBuf> {
    ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Runs `kifu match` with a black and a white program and more arguments.
fn play(data: &Path, black: &str, white: &str, more: &[&str]) -> Output {
    let mut args = vec!["match", "--black", black, "--white", white, "--size", "9"];
    args.extend_from_slice(more);
    run(data, &args)
}

/// The game ids printed, in order (`game N [id] ...`).
fn game_ids(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .filter_map(|l| {
            let start = l.find('[')? + 1;
            let end = l.find(']')?;
            Some(l[start..end].to_string())
        })
        .collect()
}

fn replay_json(data: &Path, id: &str) -> Value {
    serde_json::from_str(&ok(&run(data, &["replay", id, "--json"]))).expect("JSON")
}

fn events(data: &Path, id: &str) -> Vec<Value> {
    replay_json(data, id)["state"]["events"]
        .as_array()
        .expect("events")
        .clone()
}

fn summaries(data: &Path, id: &str) -> Vec<String> {
    events(data, id)
        .iter()
        .map(|e| e["summary"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Milliseconds from a clock face as the story words the server's count:
/// `0:04.5`, `1:02.3`, `1:00:03.0`.
fn words_ms(text: &str) -> u64 {
    let (whole, tenths) = text.split_once('.').unwrap_or((text, "0"));
    let mut seconds = 0u64;
    for part in whole.split(':') {
        let n: u64 = part
            .parse()
            .unwrap_or_else(|_| panic!("a clock face: {text}"));
        seconds = seconds * 60 + n;
    }
    let tenths: u64 = tenths
        .parse()
        .unwrap_or_else(|_| panic!("a clock face: {text}"));
    seconds * 1000 + tenths * 100
}

fn computed(data: &Path, id: &str) -> Value {
    replay_json(data, id)["result_computed"]["result"].clone()
}

fn skip_without_python() -> bool {
    if python_present() {
        return false;
    }
    assert!(
        !peers_required(),
        "python3 is required for the scripted programs"
    );
    eprintln!("skipped: python3 not installed");
    true
}

#[test]
fn gnu_go_against_itself_is_refereed_recorded_explained_and_exported() {
    let Some(gnugo) = gnugo() else {
        assert!(!peers_required(), "GNU Go is required here but missing");
        eprintln!("skipped: GNU Go not installed");
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let engine = format!("{} --mode gtp --level 1", gnugo.display());
    let o = play(&data, &engine, &engine, &["--time", "2m"]);
    let stdout = ok(&o);
    let ids = game_ids(&stdout);
    assert_eq!(ids.len(), 1, "{stdout}");
    let id = &ids[0];
    assert!(stdout.contains("wins"), "the summary table: {stdout}");
    // The chain verifies.
    let v = ok(&run(&data, &["verify"]));
    assert!(v.starts_with("ok"), "{v}");
    // The ending is explained with its UEC clause.
    let explain = ok(&run(&data, &["explain", id]));
    // UEC a) 2 makes the programs' agreed count the result: the server
    // declares it and the projection gives the same, so the declaration is
    // never a mismatch; where kifu's own count differs, a MISMATCH line names
    // it beside the result.
    let ending = explain
        .lines()
        .find(|l| l.starts_with("result by the rules:"))
        .unwrap_or("");
    assert!(ending.contains("UEC Cup"), "{explain}");
    assert!(!explain.contains("but the rules give"), "{explain}");
    let j = replay_json(&data, id);
    if let Some(agreed) = j["state"]["result"]["programs_count"]["agreed"].as_object() {
        assert_eq!(
            Some(agreed),
            j["result_computed"]["result"].as_object(),
            "{explain}"
        );
        let kifu = &j["state"]["result"]["programs_count"]["kifu_count"];
        if kifu.as_object() != Some(agreed) {
            assert!(
                explain.contains("kifu's own count of the position gives"),
                "{explain}"
            );
        }
    }
    // Every move is preceded by the server's measurement of it.
    let s = summaries(&data, id);
    let moves = s
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains(" plays ") || l.ends_with(" passes") || l.contains("resigns"))
        .collect::<Vec<_>>();
    assert!(moves.len() >= 2, "{s:?}");
    for (i, m) in moves {
        assert!(
            s[i - 1].starts_with("server: "),
            "{m} follows {:?}",
            s[i - 1]
        );
    }
    // The export is read by GNU Go to the position kifu replays.
    let sgf = t.path().join("game.sgf");
    ok(&run(
        &data,
        &["sgf", "export", id, "--out", sgf.to_str().unwrap()],
    ));
    let board = ok(&run(&data, &["replay", id]));
    // The board as printed: columns A-J without I, row 9 at the top.
    let rows: Vec<&str> = board
        .lines()
        .skip_while(|l| l.trim() != "A B C D E F G H J")
        .skip(1)
        .take(9)
        .collect();
    assert_eq!(rows.len(), 9, "{board}");
    let mut ours = (Vec::new(), Vec::new());
    for row in &rows {
        let mut cells = row.split_whitespace();
        let number = cells.next().unwrap_or("");
        for (x, cell) in cells.enumerate() {
            let v = format!("{}{}", b"ABCDEFGHJ"[x] as char, number);
            match cell {
                "X" => ours.0.push(v),
                "O" => ours.1.push(v),
                _ => {}
            }
        }
    }
    let gtp = format!(
        "loadsgf {}\nlist_stones black\nlist_stones white\nquit\n",
        sgf.display()
    );
    let mut child = std::process::Command::new(&gnugo)
        .args(["--mode", "gtp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(gtp.as_bytes())
        .unwrap();
    let reply = String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).to_string();
    let answers: Vec<&str> = reply.split("\n\n").collect();
    assert!(
        answers[0].starts_with('='),
        "GNU Go loads the file: {reply}"
    );
    for (i, mine) in [(1, &mut ours.0), (2, &mut ours.1)] {
        let mut theirs: Vec<String> = answers[i]
            .trim_start_matches('=')
            .split_whitespace()
            .map(str::to_string)
            .collect();
        theirs.sort();
        mine.sort();
        assert_eq!(&theirs, mine, "stones as GNU Go reads the export");
    }
    // GNU Go's standard error is kept beside the record.
    assert!(data.join("match-logs").read_dir().unwrap().count() >= 2);
}

#[test]
fn time_is_counted_in_tenths_against_the_wall_clock_and_shown_move_by_move() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let slow = format!("{} --slow 0.35 --moves 3", fake());
    let started = Instant::now();
    let o = play(&data, &slow, &fake(), &["--time", "60s"]);
    let wall_ms = started.elapsed().as_millis() as u64;
    let stdout = ok(&o);
    let id = &game_ids(&stdout)[0];
    let mut black = Vec::new();
    for s in summaries(&data, id) {
        if let Some(ms) = s.strip_prefix("server: Black used ") {
            black.push(words_ms(ms));
        }
    }
    // Four genmoves (three stones and a pass), each slept 350 ms.
    assert_eq!(black.len(), 4, "{black:?}");
    let total: u64 = black.iter().sum();
    assert!(
        black.iter().all(|ms| ms % 100 == 0),
        "whole tenths: {black:?}"
    );
    // Tolerance: the charge is at least the sleep less the tenth that the
    // count may still hold back, and at most the sleep plus 400 ms per move
    // for the answer to travel on a loaded machine; never more than the wall
    // time of the whole run.
    assert!(total + 100 >= 4 * 350, "{total} ms for 4 x 350 ms");
    assert!(total <= 4 * (350 + 400), "{total} ms for 4 x 350 ms");
    assert!(
        total <= wall_ms,
        "{total} ms charged in {wall_ms} ms of wall time"
    );
    let j = replay_json(&data, id);
    assert_eq!(
        j["state"]["clock"]["server_used_ms"][0].as_u64(),
        Some(total)
    );
    // `kifu replay --at` each of Black's moves shows the server's count
    // growing by that move's measurement.
    let mut running = 0;
    let mut shown = 0;
    for e in events(&data, id) {
        let summary = e["summary"].as_str().unwrap_or("");
        let Some(ms) = summary.strip_prefix("server: Black used ") else {
            continue;
        };
        running += words_ms(ms);
        let seq = e["seq"].as_u64().unwrap().to_string();
        let text = ok(&run(&data, &["replay", id, "--at", &seq]));
        let want = format!(
            "time used by the server's count: Black 0:{:02}.{}",
            running / 1000,
            (running % 1000) / 100
        );
        if running > 0 {
            assert!(text.contains(&want), "{want} at event {seq}: {text}");
            shown += 1;
        }
    }
    assert!(shown >= 3, "the count is shown move by move");
}

#[test]
fn d_a_program_past_its_time_loses_and_is_stopped_at_the_flag() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    // 3 s each; Black answers at once twice, then thinks for ten minutes.
    let slow = format!("{} --stall-at 3 --moves 5", fake());
    let started = Instant::now();
    let o = play(&data, &slow, &fake(), &["--time", "3s"]);
    let stdout = ok(&o);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the server does not wait for the stalled program"
    );
    let id = &game_ids(&stdout)[0];
    assert!(stdout.contains("W+T"), "{stdout}");
    let s = summaries(&data, id);
    let black_stones = s.iter().filter(|l| l.starts_with("Black plays")).count();
    assert_eq!(black_stones, 2, "no answer after the flag: {s:?}");
    let used: u64 = s
        .iter()
        .filter_map(|l| l.strip_prefix("server: Black used "))
        .map(words_ms)
        .sum();
    assert_eq!(used, 3000, "the whole limit, counted to the tenth");
    assert_eq!(computed(&data, id)["outcome"]["win"], "white");
    let explain = ok(&run(&data, &["explain", id]));
    assert!(
        explain.contains("d) One player exceed the time limit"),
        "{explain}"
    );
}

#[test]
fn f_an_illegal_move_is_recorded_and_loses() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let cheat = format!("{} --illegal-at 2", fake());
    let o = play(&data, &fake(), &cheat, &["--time", "60s"]);
    let stdout = ok(&o);
    let id = &game_ids(&stdout)[0];
    assert!(
        stdout.contains("f) When illegal moves are played"),
        "{stdout}"
    );
    let s = summaries(&data, id);
    assert!(s.iter().any(|l| l.contains("illegal")), "{s:?}");
    let j = replay_json(&data, id);
    let declared = &j["state"]["result"]["declared"][0]["result"];
    assert_eq!(declared["outcome"]["win"], "black", "{declared}");
    assert_eq!(declared["by"], "illegal_move", "{declared}");
}

/// The chain's genesis overrides as (key, value) pairs.
fn overrides(data: &Path, id: &str) -> Vec<(String, String)> {
    replay_json(data, id)["state"]["genesis"]["overrides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn h_a_crash_with_40_minutes_left_is_replayed_and_the_second_crash_loses() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let crash = format!("{} --crash-at 2", fake());
    let o = play(&data, &crash, &fake(), &["--time", "30m"]);
    let stdout = ok(&o);
    let ids = game_ids(&stdout);
    assert_eq!(ids.len(), 2, "{stdout}");
    assert!(stdout.contains("a new game follows"), "{stdout}");
    assert!(
        stdout.contains("4: the second abnormal termination of the same program in a match loses"),
        "{stdout}"
    );
    let o2 = overrides(&data, &ids[1]);
    assert!(o2.contains(&("replay_of".into(), ids[0].clone())), "{o2:?}");
    assert!(o2.contains(&("abnormal_terminations".into(), "black".into())));
    let j = replay_json(&data, &ids[1]);
    assert_eq!(
        j["state"]["genesis"]["time_control"]["sudden_death"]["main_ms"],
        1_200_000
    );
    assert_eq!(computed(&data, &ids[1])["outcome"]["win"], "white");
    let explain = ok(&run(&data, &["explain", &ids[0]]));
    assert!(
        explain.contains("h) Abnormal termination of programs"),
        "{explain}"
    );
    // Its standard error is kept beside the record.
    let logs: Vec<String> = std::fs::read_dir(data.join("match-logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        logs.iter().any(|l| l.contains("fake_gtp: crashing")),
        "{logs:?}"
    );
}

#[test]
fn h_a_crash_with_under_40_minutes_left_loses_at_once() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let crash = format!("{} --crash-at 2", fake());
    let o = play(&data, &fake(), &crash, &["--time", "19m"]);
    let stdout = ok(&o);
    let ids = game_ids(&stdout);
    assert_eq!(ids.len(), 1, "{stdout}");
    assert!(stdout.contains("B+"), "{stdout}");
    assert!(
        stdout.contains("h) Abnormal termination of programs, 1"),
        "{stdout}"
    );
    assert_eq!(computed(&data, &ids[0])["outcome"]["win"], "black");
}

#[test]
fn h_the_other_program_crashing_in_the_new_game_gives_another_new_game() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let once_b = t.path().join("black-crashed");
    let once_w = t.path().join("white-crashed");
    let black = format!("{} --crash-at 2 --crash-once {}", fake(), once_b.display());
    // Each program crashes once: White at its first move of the first
    // game, Black at its second move of the new game.
    let white = format!("{} --crash-at 1 --crash-once {}", fake(), once_w.display());
    let o = play(&data, &black, &white, &["--time", "30m"]);
    let stdout = ok(&o);
    let ids = game_ids(&stdout);
    // White crashes first (its first genmove), then Black in the new game:
    // each program once, so a third game is played to its end.
    assert_eq!(ids.len(), 3, "{stdout}");
    let o3 = overrides(&data, &ids[2]);
    assert!(o3.contains(&("replay_of".into(), ids[0].clone())), "{o3:?}");
    assert!(o3.contains(&("abnormal_terminations".into(), "white,black".into())));
    assert!(
        stdout.contains("a) Both programs pass consecutively, 2"),
        "{stdout}"
    );
}

#[test]
fn h_malformed_gtp_is_an_abnormal_termination() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let bad = format!("{} --malformed-at 1", fake());
    let o = play(&data, &fake(), &bad, &["--time", "10m"]);
    let stdout = ok(&o);
    let id = &game_ids(&stdout)[0];
    let s = summaries(&data, id);
    assert!(
        s.iter()
            .any(|l| l.contains("terminated abnormally") && l.contains("broken GTP")),
        "{s:?}"
    );
    assert_eq!(computed(&data, id)["outcome"]["win"], "black");
}

#[test]
fn h_text_printed_when_no_answer_was_due_is_broken_gtp() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let chatty = format!("{} --chatter-at 1", fake());
    let o = play(&data, &chatty, &fake(), &["--time", "10m"]);
    let stdout = ok(&o);
    let id = &game_ids(&stdout)[0];
    let s = summaries(&data, id);
    assert!(
        // Caught before the next command, or (had it come later) as the
        // start of the next answer: broken GTP either way.
        s.iter()
            .any(|l| l.contains("terminated abnormally") && l.contains("broken GTP")),
        "{s:?}"
    );
    assert_eq!(computed(&data, id)["outcome"]["win"], "white");
}

#[test]
fn h_a_program_that_never_answers_does_not_hang_the_server() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let silent = format!("{} --silent", fake());
    let started = Instant::now();
    // 5 s: long enough for the well-behaved program to start on a loaded
    // machine, short enough for the test.
    let o = play(
        &data,
        &fake(),
        &silent,
        &["--time", "30m", "--gtp-timeout", "5s"],
    );
    let stdout = ok(&o);
    let ids = game_ids(&stdout);
    // Silent in the first game (a new game follows) and again in it (loses).
    assert_eq!(ids.len(), 2, "{stdout}");
    assert!(stdout.contains("no answer within 5.0 s"), "{stdout}");
    assert_eq!(computed(&data, &ids[1])["outcome"]["win"], "black");
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "bounded by the exchange limit"
    );
}

#[test]
fn a3_programs_that_disagree_on_dead_stones_leave_the_game_to_the_referee() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let other = format!("{} --dead A9 --score B+10.5", fake());
    let o = play(&data, &fake(), &other, &["--time", "60s"]);
    let stdout = ok(&o);
    let id = &game_ids(&stdout)[0];
    assert!(stdout.contains("in the referee's hands"), "{stdout}");
    let explain = ok(&run(&data, &["explain", id]));
    assert!(
        explain.contains("the programs' dead stones differ")
            && explain.contains("a) Both programs pass consecutively, 3"),
        "{explain}"
    );
    assert!(
        explain.contains("answered `final_score`: B+10.5"),
        "{explain}"
    );
    let j = replay_json(&data, id);
    assert!(j["state"]["result"]["declared"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn ctrl_c_records_the_game_as_interrupted_and_exits_cleanly() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let pid_file = t.path().join("engine.pid");
    let slow = format!("{} --slow 30 --pid-file {}", fake(), pid_file.display());
    // kifu in a process group of its own, as a shell runs a job: the
    // Ctrl-C goes to the whole group, as from a terminal.
    use std::os::unix::process::CommandExt;
    let child = kifu()
        .arg("--data")
        .arg(&data)
        .args(["match", "--black", &slow, "--white", &fake(), "--size", "9"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    // Wait (bounded) until the slow program is thinking.
    let until = Instant::now() + Duration::from_secs(20);
    while !pid_file.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let sent = std::process::Command::new("kill")
        .args(["-INT", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", err(&o));
    assert!(err(&o).contains("interrupted"), "{}", err(&o));
    let stdout = out(&o);
    let id = &game_ids(&stdout)[0];
    let s = summaries(&data, id);
    assert!(
        s.last().unwrap().contains("interrupted"),
        "the last fact: {:?}",
        s.last()
    );
    assert!(ok(&run(&data, &["verify"])).starts_with("ok"));
    // The program was stopped with the server.
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let alive = std::process::Command::new("kill")
        .args(["-0", pid.trim()])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(!alive, "the program {pid} is stopped");
    // By the server, not by the terminal's Ctrl-C: the programs run in their
    // own process group.
    for e in std::fs::read_dir(data.join("match-logs")).unwrap() {
        let log = std::fs::read_to_string(e.unwrap().path()).unwrap();
        assert!(!log.contains("KeyboardInterrupt"), "{log}");
    }
}

#[test]
fn a_series_alternates_colours_and_prints_the_summary() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let o = play(
        &data,
        &fake(),
        &format!("{} --moves 2", fake()),
        &[
            "--time",
            "60s",
            "--games",
            "2",
            "--black-name",
            "one",
            "--white-name",
            "two",
        ],
    );
    let stdout = ok(&o);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let first_black = lines[0].contains("one (B)");
    assert_eq!(
        lines[1].contains("one (B)"),
        !first_black,
        "colours alternate"
    );
    assert!(
        stdout.contains("avg s/move") && stdout.contains("abnormal"),
        "{stdout}"
    );
    assert!(err(&o).contains("nigiri"), "{}", err(&o));
}

#[test]
fn operators_with_keys_hold_the_seats_and_sign_the_result_sheet() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let op = t.path().join("op-black");
    ok(&run(&data, &["keygen", op.to_str().unwrap()]));
    let key = format!("{}.key", op.display());
    let o = play(
        &data,
        &fake(),
        &fake(),
        &[
            "--time",
            "60s",
            "--black-operator",
            &key,
            "--black-name",
            "alpha",
        ],
    );
    let stdout = ok(&o);
    let id = &game_ids(&stdout)[0];
    let text = ok(&run(&data, &["replay", id]));
    assert!(text.contains("sheet signed at event"), "{text}");
    assert!(
        text.contains("by alpha"),
        "the operator signs as the program's seat: {text}"
    );
    let roster = replay_json(&data, id)["state"]["genesis"]["roster"].clone();
    let roles: Vec<&str> = roster
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["black", "white", "recorder", "referee", "director"]);
}

/// `kifu match --server URL`: the server's store holds the match as it is
/// played (the live feed and the replay page read it there), verified.
#[test]
fn a_match_records_through_a_running_server() {
    if skip_without_python() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let served = t.path().join("served");
    let server = Served::start(&served, &[]);
    let url = server.url.clone();
    let client = t.path().join("client");
    let slow = format!("{} --moves 3", fake());
    let o = play(
        &client,
        &slow,
        &fake(),
        &["--time", "60s", "--server", &url],
    );
    let stdout = ok(&o);
    let id = game_ids(&stdout)[0].clone();
    let listed = ok(&kifu()
        .args(["--server", &url, "games", "--json"])
        .output()
        .unwrap());
    assert!(listed.contains(&id), "the server holds the match: {listed}");
    let verified = kifu().args(["--server", &url, "verify"]).output().unwrap();
    assert!(verified.status.success(), "{}", err(&verified));
    // Nothing was written beside the client: its data directory holds keys
    // and logs only, no store.
    assert!(!client.join("db").exists());
    server.stop();
}

#[test]
fn the_defaults_shown_are_the_uec_cup_s() {
    // "The handicap (komi) is 6.5 points." "Time limit for each player is
    // 30 minutes." Taken from kifu-match, shown as the flags' defaults.
    let t = tempfile::tempdir().unwrap();
    let help = ok(&run(t.path(), &["match", "--help"]));
    for default in ["[default: uec-cup]", "[default: 30m]", "[default: 6.5]"] {
        assert!(help.contains(default), "{default} missing:\n{help}");
    }
}
