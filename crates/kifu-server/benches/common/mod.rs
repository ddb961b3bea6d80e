//! What the benches that speak HTTP/1.1 by hand share.

use std::io::{Read, Write};
use std::net::TcpStream;

/// One request on a kept-alive connection: the status and the answer's
/// length, after the whole answer is read (its length from
/// `content-length`). A 5xx answer's body is printed.
pub fn exchange(s: &mut TcpStream, head: &str, body: &[u8]) -> (u16, usize) {
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut buf = Vec::new();
    let mut b = [0u8; 16384];
    loop {
        let n = s.read(&mut b).unwrap();
        assert!(n > 0, "closed");
        buf.extend_from_slice(&b[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            while buf.len() < end + 4 + len {
                let n = s.read(&mut b).unwrap();
                assert!(n > 0, "closed");
                buf.extend_from_slice(&b[..n]);
            }
            let status = head[9..12].parse().unwrap_or(0);
            if status >= 500 {
                eprintln!("{}", String::from_utf8_lossy(&buf[end..]));
            }
            return (status, len);
        }
    }
}
