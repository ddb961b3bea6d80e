//! Connection limits: a client that dribbles a request head is
//! disconnected, and no more than the bound of connections is served at
//! once.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use kifu_server::ConnLimits;

mod common;
use common::start;

/// Reads until the peer closes (bounded by `limit`); what was read.
fn read_to_close(s: &mut TcpStream, limit: Duration) -> Result<Vec<u8>, std::io::Error> {
    s.set_read_timeout(Some(limit))?;
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return Ok(out),
            Err(e) => return Err(e),
        }
    }
}

#[test]
fn a_client_dribbling_its_headers_is_disconnected() {
    let server = start(
        None,
        ConnLimits {
            max_connections: 64,
            header_read_timeout: Duration::from_millis(300),
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
fn no_more_connections_than_the_bound_are_served_at_once() {
    let server = start(
        None,
        ConnLimits {
            max_connections: 2,
            header_read_timeout: Duration::from_millis(500),
        },
    );
    // Two connections that send nothing take both slots.
    let mut idle: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(50));
    // A third is accepted by the kernel, but served only once a slot is
    // free.
    let mut third = TcpStream::connect(server.addr).unwrap();
    third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\nConnection: close\r\n\r\n")
        .unwrap();
    let got = read_to_close(&mut third, Duration::from_secs(20)).unwrap();
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200 OK"));
    // Served only once a slot was free: at least one of the idle ones had
    // been closed by then (the other may follow a moment later; its
    // deadline started when it was accepted).
    let closed = idle
        .iter_mut()
        .map(|s| {
            s.set_nonblocking(true).unwrap();
            let mut b = [0u8; 16];
            match s.read(&mut b) {
                Ok(0) => true,
                Err(e) if e.kind() == ErrorKind::ConnectionReset => true,
                _ => false,
            }
        })
        .filter(|closed| *closed)
        .count();
    assert!(
        closed >= 1,
        "the third connection was served while both idle ones held the two slots"
    );
}
