//! The answers hyper gives by itself, in the server's words.
//!
//! A request hyper cannot read (a malformed request line, a target too
//! long, a head too large) never reaches the router: hyper answers it with
//! a bare status line (`400`, `414`, `431`) and closes the connection. A
//! client then learns nothing, and the answer lacks the security headers
//! every other answer carries. [`Worded`] sits between hyper and the
//! connection and replaces such an answer, recognised by what only hyper's
//! own answers lack (the `x-content-type-options` header the router puts on
//! every answer), with the same status in the API's error shape, its words
//! and the security headers.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose bare error answers from hyper are put in words.
pub struct Worded<I> {
    inner: I,
    /// An answer being written in place of hyper's: its bytes, how many
    /// are written, and how many of hyper's bytes it stands for.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl<I> Worded<I> {
    /// Wraps `inner`.
    pub fn new(inner: I) -> Worded<I> {
        Worded {
            inner,
            replacing: None,
        }
    }
}

/// The answer in words for hyper's own answer `head`, when it is one: an
/// HTTP/1.1 4xx or 5xx whose head lacks the router's security headers.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let text = std::str::from_utf8(&head[..end]).ok()?;
    let status: u16 = text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()?;
    if status < 400 || text.to_ascii_lowercase().contains("x-content-type-options") {
        return None;
    }
    let (code, message) = match status {
        400 => ("bad_request", "the request could not be read as HTTP/1.1: check its request line (METHOD /path HTTP/1.1) and its headers"),
        414 => ("uri_too_long", "the request's target is longer than this server reads"),
        431 => ("headers_too_large", "the request's headers are larger than this server reads"),
        _ => ("bad_request", "the request could not be read"),
    };
    let reason = text.lines().next()?.get(13..).unwrap_or("Bad Request");
    let body = serde_json::json!({"error": {"code": code, "status": status, "message": message}})
        .to_string();
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n",
        body.len()
    );
    for (k, v) in crate::headers::SECURITY_HEADERS {
        out.push_str(k);
        out.push_str(": ");
        out.push_str(v);
        out.push_str("\r\n");
    }
    out.push_str("\r\n");
    out.push_str(&body);
    Some(out.into_bytes())
}

impl<I: AsyncRead + Unpin> AsyncRead for Worded<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> Worded<I> {
    /// Writes the replacement under way; `Ready(n)` with hyper's byte
    /// count once it is all written.
    fn drive(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let Some((bytes, at, claimed)) = &mut self.replacing else {
            return Poll::Ready(Ok(0));
        };
        while *at < bytes.len() {
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*at..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *at += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        let claimed = *claimed;
        self.replacing = None;
        Poll::Ready(Ok(claimed))
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Worded<I> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacing.is_none() {
            if let Some(r) = buf
                .starts_with(b"HTTP/1.1 ")
                .then(|| replacement(buf))
                .flatten()
            {
                this.replacing = Some((r, 0, buf.len()));
            }
        }
        if this.replacing.is_some() {
            return this.drive(cx);
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacing.is_none() {
            if let Some(first) = bufs.iter().find(|b| !b.is_empty()) {
                if first.starts_with(b"HTTP/1.1 ") {
                    if let Some(r) = replacement(first) {
                        let all = bufs.iter().map(|b| b.len()).sum();
                        this.replacing = Some((r, 0, all));
                    }
                }
            }
        }
        if this.replacing.is_some() {
            return this.drive(cx);
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.replacing.is_some() {
            match self.drive(cx) {
                Poll::Ready(Ok(_)) => {}
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hyper_s_own_bare_answers_are_replaced() {
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: Mon, 07 Dec 2026 05:00:00 GMT\r\n\r\n";
        let worded = String::from_utf8(replacement(bare).unwrap()).unwrap();
        assert!(
            worded.starts_with("HTTP/1.1 400 Bad Request\r\n"),
            "{worded}"
        );
        assert!(worded.contains("\"code\":\"bad_request\""), "{worded}");
        assert!(
            worded.contains("x-content-type-options: nosniff"),
            "{worded}"
        );
        let long = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\n";
        assert!(String::from_utf8(replacement(long).unwrap())
            .unwrap()
            .contains("uri_too_long"));
        // The router's answers carry the security headers: left alone.
        let ours = b"HTTP/1.1 404 Not Found\r\nx-content-type-options: nosniff\r\ncontent-length: 2\r\n\r\n{}";
        assert!(replacement(ours).is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
