//! The child-process edge: answers, silence, broken GTP and exits, each
//! within its bound.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kifu_match::gtp::Reply;
use kifu_match::process::ProcessEngine;
use kifu_match::{Engine, EngineFailure};

fn start(script: &str) -> (ProcessEngine, tempfile::TempDir, Arc<AtomicBool>) {
    let dir = tempfile::tempdir().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let e = ProcessEngine::start(
        &format!("sh -c '{script}'"),
        &dir.path().join("stderr.log"),
        stop.clone(),
    )
    .expect("starts");
    (e, dir, stop)
}

const LONG: Duration = Duration::from_secs(20);

#[test]
fn an_answer_is_read_and_silence_is_bounded() {
    let (mut e, dir, _) = start("read l; echo \"= ok\"; echo; echo said >&2; exec sleep 100");
    assert_eq!(e.exchange("name", LONG), Ok(Reply::Success("ok".into())));
    let t = Instant::now();
    assert_eq!(
        e.exchange("genmove b", Duration::from_millis(300)),
        Err(EngineFailure::TimedOut(Duration::from_millis(300)))
    );
    assert!(t.elapsed() < LONG);
    let pid = e.id();
    e.stop();
    let alive = std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(!alive, "stopped");
    let log = std::fs::read_to_string(dir.path().join("stderr.log")).unwrap();
    assert_eq!(log, "said\n", "standard error is kept");
}

#[test]
fn text_that_is_not_gtp_is_broken() {
    let (mut e, _d, _) = start("read l; echo hello; echo; exec sleep 100");
    assert!(matches!(
        e.exchange("name", LONG),
        Err(EngineFailure::Broken(_))
    ));
}

#[test]
fn an_exit_is_reported_with_its_status() {
    let (mut e, _d, _) = start("read l; exit 3");
    assert_eq!(
        e.exchange("genmove b", LONG),
        Err(EngineFailure::Exited("exit status 3".into()))
    );
}

#[test]
fn the_interrupt_flag_ends_a_wait() {
    let (mut e, _d, stop) = start("exec sleep 100");
    let flag = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::SeqCst);
    });
    assert_eq!(
        e.exchange("genmove b", LONG),
        Err(EngineFailure::Interrupted)
    );
    e.stop();
}
