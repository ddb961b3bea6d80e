//! A local store and a `kifu serve` in front of another store, behind the
//! one [`Backend`] interface, answer alike: the same heads, records, feed,
//! standing, the same place for an appended record, the same retries and
//! the same refusals.

use kifu_client::{Backend, Client, ClientError};
use kifu_ledger::testkit::{moves_game, Cast};
use kifu_ledger::{Body, Color};
use kifu_store::{Expect, Store, StoreError};

/// The server tests' harness: a server on 127.0.0.1 port 0 in its own
/// runtime, over a store of its own, stopped when dropped.
#[path = "../../kifu-server/tests/common/mod.rs"]
mod common;

struct Running {
    url: String,
    _server: common::Running,
}

fn serve() -> Running {
    let server = common::start(None, kifu_server::ConnLimits::default());
    Running {
        url: format!("http://{}", server.addr),
        _server: server,
    }
}

/// Which kind of refusal an append met, whichever backend gave it.
fn stale(e: &StoreError) -> bool {
    matches!(e, StoreError::Stale { .. })
}

/// Everything the backend says of one game, after the same appends.
fn exercise(b: &Backend) -> Vec<String> {
    let cast = Cast::new();
    let chain = moves_game(&cast, "backends", 6);
    let game = chain.game;
    let mut said = Vec::new();
    let appended = b.append_batch(chain.records.clone()).unwrap();
    said.push(format!(
        "appended {:?}",
        appended.iter().map(|a| (a.seq, a.new)).collect::<Vec<_>>()
    ));
    let head = b.head(&game).unwrap().unwrap();
    assert_eq!(head.hash, chain.head.hash);
    said.push(format!("head {} {}", head.seq, hex::encode(head.hash)));
    assert_eq!(b.resolve(&hex::encode(&game[..4])).unwrap(), game);
    assert_eq!(b.games().unwrap(), vec![game]);
    assert_eq!(b.genesis(&game).unwrap().title, "backends");
    assert_eq!(b.read(&game, 2, Some(4)).unwrap(), chain.records[2..=4]);
    assert_eq!(b.all_records().unwrap(), chain.records);
    let feed = b.feed(None, 100).unwrap();
    said.push(format!(
        "feed {:?}",
        feed.iter()
            .map(|f| (f.seq, f.record.hash()))
            .collect::<Vec<_>>()
    ));
    let (at, standing) = b.standing(&game).unwrap();
    assert_eq!(at, head);
    said.push(format!(
        "standing {:?}",
        standing.roster().iter().map(|p| p.role).collect::<Vec<_>>()
    ));

    // The next press where the client expects it, then its retry (a lost
    // answer): the same place, not written twice.
    let press = Body::ClockPressed {
        player: Color::Black,
    };
    let next = head.seq + 1;
    let first = b
        .append_expecting(&game, Expect::Seq(next), &cast.black, 99_000, press.clone())
        .unwrap();
    let again = b
        .append_expecting(&game, Expect::Seq(next), &cast.black, 99_000, press.clone())
        .unwrap();
    assert_eq!((first.seq, first.hash), (again.seq, again.hash));
    said.push(format!(
        "expecting {} {} then {}",
        first.seq, first.new, again.new
    ));
    // After a hash no longer at the head: the place after it, taken.
    let taken = b.append_expecting(&game, Expect::After(head.hash), &cast.white, 99_000, press);
    said.push(format!(
        "after an old head: stale {}",
        stale(&taken.unwrap_err())
    ));
    // Beyond the end.
    let beyond = b.append_expecting(
        &game,
        Expect::Seq(next + 5),
        &cast.white,
        99_000,
        Body::ClockPressed {
            player: Color::White,
        },
    );
    said.push(format!(
        "beyond the end: stale {}",
        stale(&beyond.unwrap_err())
    ));
    // A record whose predecessor is not the head is refused, nothing written.
    let forked = chain.next(
        &cast.white,
        Body::ClockPressed {
            player: Color::White,
        },
    );
    assert!(b.append(forked).is_err());
    assert_eq!(b.head(&game).unwrap().unwrap().seq, first.seq);
    said
}

#[test]
fn a_local_store_and_a_server_answer_alike() {
    let dir = tempfile::tempdir().unwrap();
    let local = exercise(&Backend::Local(Store::open(dir.path()).unwrap()));
    let running = serve();
    let remote = exercise(&Backend::Remote(Client::new(&running.url)));
    assert_eq!(local, remote);
    assert!(
        local.iter().any(|l| l == "expecting 14 true then false"),
        "{local:#?}"
    );
    assert!(local.contains(&"after an old head: stale true".to_string()));
    assert!(local.contains(&"beyond the end: stale true".to_string()));
}

#[test]
fn a_server_that_does_not_answer_is_said_in_one_line() {
    // A port nothing listens on: taken, then freed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let c = Client::new(&format!("http://127.0.0.1:{port}"));
    let e = c.head("00").unwrap_err();
    assert!(matches!(e, ClientError::Unreachable { .. }), "{e:?}");
    assert!(e.to_string().starts_with(&format!(
        "cannot reach the server at http://127.0.0.1:{port}: "
    )));
}

#[test]
fn a_server_refusal_is_given_in_the_servers_words() {
    let running = serve();
    let c = Client::new(&running.url);
    let e = c.get_json("/games/ffff/head").unwrap_err();
    assert!(matches!(e, ClientError::Refused(_)), "{e:?}");
    assert!(e.to_string().starts_with("server: "), "{e}");
    // A game it does not hold has no head.
    assert_eq!(c.head(&"ab".repeat(32)).unwrap(), None);
}
