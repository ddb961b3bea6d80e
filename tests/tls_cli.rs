//! `kifu serve` over HTTPS, checked by the real OpenSSL and curl: the
//! self-signed certificate's fingerprint printed by the server is the one
//! `openssl x509 -fingerprint -sha256` reads from what the server serves; a
//! client that trusts the certificate appends over HTTPS, one that does not
//! is refused by its own TLS; the certificate is kept across restarts; a
//! venue's own certificate (made here by `openssl req`) is served as given.
//! Without openssl or curl the tests say so and pass, unless
//! `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::*;

use std::path::Path;
use std::process::{Command, Stdio};

use kifu_ledger::testkit::{Cast, ChainBuilder};

fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !found {
        assert!(
            !peers_required(),
            "{tool} is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!("skipped: {tool} is not installed");
    }
    found
}

/// `host:port` of an `https://` URL.
fn host_port(url: &str) -> &str {
    url.strip_prefix("https://").expect("an https URL")
}

/// The SHA-256 fingerprint of the certificate the server at `addr` serves,
/// as OpenSSL reads it from the handshake.
fn served_fingerprint(addr: &str) -> String {
    let s_client = Command::new("openssl")
        .args(["s_client", "-connect", addr, "-servername", "localhost"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("openssl s_client runs");
    let pem = String::from_utf8_lossy(&s_client.stdout).into_owned();
    assert!(pem.contains("BEGIN CERTIFICATE"), "s_client: {pem}");
    file_fingerprint_of(pem.as_bytes())
}

/// `openssl x509 -fingerprint -sha256` of PEM text, the part after `=`.
fn file_fingerprint_of(pem: &[u8]) -> String {
    let mut x509 = Command::new("openssl")
        .args(["x509", "-noout", "-fingerprint", "-sha256"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("openssl x509 runs");
    std::io::Write::write_all(x509.stdin.as_mut().unwrap(), pem).unwrap();
    let out = x509.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.trim()
        .split_once('=')
        .map(|(_, f)| f.to_string())
        .unwrap_or_else(|| panic!("openssl x509: {text}"))
}

/// The fingerprint `kifu serve` printed.
fn printed_fingerprint(server: &Served) -> String {
    server
        .stdout()
        .lines()
        .find_map(|l| l.strip_prefix("certificate SHA-256 fingerprint "))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no fingerprint printed: {}", server.stdout()))
}

/// curl with a bounded time; its exit code and output.
fn curl(args: &[&str]) -> (i32, String) {
    let o = Command::new("curl")
        .args(["-sS", "--max-time", "20"])
        .args(args)
        .output()
        .expect("curl runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

fn genesis_file(dir: &Path) -> std::path::PathBuf {
    let cast = Cast::new();
    let g = ChainBuilder::start(&cast.referee, cast.genesis("board 1"), 0);
    let f = dir.join("genesis.bin");
    std::fs::write(&f, g.records[0].to_stored()).unwrap();
    f
}

#[test]
fn a_self_signed_server_prints_the_fingerprint_it_serves_and_a_trusting_client_appends() {
    if !have("openssl") || !have("curl") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let server = Served::start(&data, &["--tls-self-signed"]);
    assert!(
        server.url.starts_with("https://127.0.0.1:"),
        "{}",
        server.url
    );
    let printed = printed_fingerprint(&server);
    let addr = host_port(&server.url).to_string();
    assert_eq!(
        printed.to_uppercase(),
        served_fingerprint(&addr).to_uppercase()
    );
    let cert = data.join("tls").join("self-signed.pem");
    assert!(cert.exists());
    // A client that trusts the certificate (it names 127.0.0.1 and
    // localhost) appends over HTTPS.
    let record = genesis_file(t.path());
    let (code, out) = curl(&[
        "--cacert",
        cert.to_str().unwrap(),
        "-H",
        "Content-Type: application/octet-stream",
        "--data-binary",
        &format!("@{}", record.display()),
        &format!("{}/records", server.url),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"accepted\":1"), "{out}");
    let (code, out) = curl(&[
        "--cacert",
        cert.to_str().unwrap(),
        &format!(
            "https://localhost:{}/games",
            addr.rsplit(':').next().unwrap()
        ),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("board 1"), "{out}");
    // One that does not trust it is stopped by its own TLS.
    let (code, _) = curl(&[&format!("{}/healthz", server.url)]);
    assert_eq!(code, 60, "curl's code for a certificate it cannot verify");
    // Plain HTTP on the HTTPS port (an address typed as http://) is sent
    // to the https:// one.
    let (code, out) = curl(&[
        "-o",
        "/dev/null",
        "-w",
        "%{http_code} %{redirect_url}",
        &format!("http://{addr}/games?round=1"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out, format!("308 https://{addr}/games?round=1"));
    let (code, out) = curl(&[
        "-L",
        "--cacert",
        cert.to_str().unwrap(),
        &format!("http://{addr}/healthz"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"status\":\"ok\""), "{out}");
    // kifu itself trusts it with KIFU_CACERT; without, it says why not.
    let client = t.path().join("client");
    let o = kifu()
        .args([
            "--data",
            client.to_str().unwrap(),
            "--server",
            &server.url,
            "games",
            "--json",
        ])
        .env("KIFU_CACERT", &cert)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", err(&o));
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(said.contains("\"events\":1"), "{said}");
    let o = kifu()
        .args([
            "--data",
            client.to_str().unwrap(),
            "--server",
            &server.url,
            "games",
        ])
        .env_remove("KIFU_CACERT")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(err(&o).contains("cannot reach the server"), "{}", err(&o));
    let o = kifu()
        .args([
            "--data",
            client.to_str().unwrap(),
            "--server",
            &server.url,
            "games",
        ])
        .env("KIFU_CACERT", t.path().join("nothing.pem"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(err(&o).contains("KIFU_CACERT"), "{}", err(&o));
    server.stop();

    // Started again: the same certificate, so a tablet that trusted it once
    // goes on trusting it.
    let again = Served::start(&data, &["--tls-self-signed"]);
    assert!(
        again.stdout().contains("using the self-signed"),
        "{}",
        again.stdout()
    );
    assert_eq!(printed_fingerprint(&again), printed);
    again.stop();
}

#[test]
fn a_venues_certificate_is_served_as_given() {
    if !have("openssl") || !have("curl") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let cert = t.path().join("venue.pem");
    let key = t.path().join("venue.key");
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-nodes", "-days", "30", "-subj", "/CN=kifu.venue.test"])
        .args(["-addext", "subjectAltName=DNS:kifu.venue.test,IP:127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(made.success());
    let data = t.path().join("d");
    let server = Served::start(
        &data,
        &[
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let want = file_fingerprint_of(&std::fs::read(&cert).unwrap());
    assert_eq!(
        printed_fingerprint(&server).to_uppercase(),
        want.to_uppercase()
    );
    assert_eq!(
        served_fingerprint(host_port(&server.url)).to_uppercase(),
        want.to_uppercase()
    );
    let (code, out) = curl(&[
        "--cacert",
        cert.to_str().unwrap(),
        &format!("{}/healthz", server.url),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok"), "{out}");
    server.stop();
    // A key that is not a key: one clear line, nothing served.
    std::fs::write(&key, "nothing").unwrap();
    let o = run(
        &data,
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("venue.key"), "{}", err(&o));
}

#[test]
fn a_refused_connection_on_the_https_port_reads_its_429_over_tls() {
    if !have("openssl") || !have("curl") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let server = Served::start(
        &data,
        &["--tls-self-signed", "--max-connections-per-client", "1"],
    );
    let cert = data.join("tls").join("self-signed.pem");
    // This client's one connection, held open (not yet a TLS client).
    let held = std::net::TcpStream::connect(host_port(&server.url)).unwrap();
    let (code, out) = curl(&[
        "--cacert",
        cert.to_str().unwrap(),
        "-i",
        &format!("{}/healthz", server.url),
    ]);
    assert_eq!(code, 0, "curl read an answer over TLS: {out}");
    assert!(out.starts_with("HTTP/1.1 429"), "{out}");
    assert!(out.to_ascii_lowercase().contains("retry-after: "), "{out}");
    assert!(out.contains("too_many_connections"), "{out}");
    // Once the held connection is gone, the same request is served.
    drop(held);
    let mut served = String::new();
    for _ in 0..100 {
        let (code, out) = curl(&[
            "--cacert",
            cert.to_str().unwrap(),
            &format!("{}/healthz", server.url),
        ]);
        if code == 0 && out.contains("next_cursor") {
            served = out;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(served.contains("next_cursor"), "{served}");
}
