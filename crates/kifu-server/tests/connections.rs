//! Connection limits: a client that dribbles a request head is
//! disconnected, and no more than the bound of connections is served at
//! once.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use kifu_server::ConnLimits;

mod common;
use common::{read_to_close, start};

#[test]
fn a_client_dribbling_its_headers_is_disconnected() {
    let server = start(
        None,
        ConnLimits {
            max_connections: 64,
            header_read_timeout: Duration::from_millis(300),
            ..ConnLimits::default()
        },
    );
    let mut s = TcpStream::connect(server.addr).unwrap();
    // Half a request head, then nothing more.
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\nX-Slow: ")
        .unwrap();
    // The bound of this read is a bound on the test, not a timing assert:
    // without the deadline the read never ends and the test fails here.
    let got = read_to_close(&mut s, Duration::from_secs(20))
        .expect("the server closes a connection whose head never completes");
    let text = String::from_utf8_lossy(&got);
    assert!(!text.contains("200 OK"), "answered anyway: {text}");

    // An idle kept-alive connection is closed too, after its answer.
    let mut k = TcpStream::connect(server.addr).unwrap();
    k.write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\n\r\n")
        .unwrap();
    let got = read_to_close(&mut k, Duration::from_secs(20)).expect("an idle connection is closed");
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
    assert!(text.contains("\"status\":\"ok\""), "{text}");
}

#[test]
fn at_the_bound_an_idle_connection_makes_room_and_busy_ones_are_answered_503_at_once() {
    let server = start(
        None,
        ConnLimits {
            max_connections: 2,
            // Long: what closes an idle connection here is the newcomer.
            header_read_timeout: Duration::from_secs(60),
            ..ConnLimits::default()
        },
    );
    // Two connections that send nothing take both places.
    let mut idle: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    // A third is served at once: the oldest idle one gives way.
    let mut third = TcpStream::connect(server.addr).unwrap();
    third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\nConnection: close\r\n\r\n")
        .unwrap();
    let got = read_to_close(&mut third, Duration::from_secs(20)).unwrap();
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200 OK"));
    let oldest = read_to_close(&mut idle[0], Duration::from_secs(20))
        .expect("the oldest idle connection was closed");
    assert!(oldest.is_empty());

    // Two busy connections (feed streams) hold both places: a third is
    // refused at once with 503 and Retry-After, never left waiting.
    drop(idle);
    std::thread::sleep(Duration::from_millis(200));
    let mut busy: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            s.write_all(b"GET /feed/stream HTTP/1.1\r\nHost: kifu\r\n\r\n")
                .unwrap();
            s
        })
        .collect();
    for s in &mut busy {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut b = [0u8; 15];
        s.read_exact(&mut b).unwrap();
        assert_eq!(&b, b"HTTP/1.1 200 OK");
    }
    let mut fourth = TcpStream::connect(server.addr).unwrap();
    fourth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\n\r\n")
        .unwrap();
    let got = read_to_close(&mut fourth, Duration::from_secs(20)).unwrap();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("Retry-After: "), "{text}");
}

/// The scheduling policy of each of this process's threads named `name`
/// (Linux: `/proc/self/task/*/stat`, field 41; 5 is `SCHED_IDLE`).
#[cfg(target_os = "linux")]
fn policy_of_threads(name: &str) -> Vec<i64> {
    let mut out = Vec::new();
    for t in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
        if comm.trim() != name {
            continue;
        }
        let stat = std::fs::read_to_string(t.path().join("stat")).unwrap_or_default();
        // After the command's closing parenthesis: field 3 on.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if let Some(n) = fields.get(38).and_then(|f| f.parse().ok()) {
            out.push(n);
        }
    }
    out
}

#[test]
#[cfg(target_os = "linux")]
fn a_follower_of_the_whole_feed_is_served_by_threads_of_lower_priority() {
    let server = start(None, ConnLimits::default());
    let metric = |name: &str| -> u64 {
        let mut m = TcpStream::connect(server.addr).unwrap();
        m.write_all(b"GET /metrics HTTP/1.1\r\nHost: kifu\r\nConnection: close\r\n\r\n")
            .unwrap();
        let text =
            String::from_utf8_lossy(&read_to_close(&mut m, Duration::from_secs(20)).unwrap())
                .into_owned();
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} missing from /metrics: {text}"))
    };
    let open = |target: &str| {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.write_all(format!("GET {target} HTTP/1.1\r\nHost: kifu\r\n\r\n").as_bytes())
            .unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut b = [0u8; 15];
        s.read_exact(&mut b).unwrap();
        assert_eq!(&b, b"HTTP/1.1 200 OK", "{target}");
        s
    };
    assert_eq!(metric("kifu_connections_followers"), 0);
    // A game's own feed (what a board's tablet follows) stays with the
    // appends; the venue's whole feed does not.
    let game = open(&format!("/feed/stream?game={}", "ab".repeat(32)));
    assert_eq!(metric("kifu_connections_followers"), 0);
    let whole = open("/feed/stream?after=0");
    assert_eq!(metric("kifu_connections_followers"), 1);
    // Scheduled only when no other thread wants the CPU.
    let workers = policy_of_threads("kifu-follow");
    assert!(!workers.is_empty(), "no follower threads");
    assert!(
        workers.iter().all(|&p| p == 5),
        "follower threads' policies {workers:?}, not SCHED_IDLE (5)"
    );
    drop(whole);
    drop(game);
    // The connection ends once the server notices the close.
    let mut ended = false;
    for _ in 0..200 {
        if metric("kifu_connections_followers") == 0 {
            ended = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(ended, "the follower's connection is still counted");
}
