//! The check the replica crowd bench (`crates/kifu-cli/benches/
//! replica_crowd.rs`) makes of each follower: a follower that received
//! every record once and in order passes; one that lost, repeated or
//! reordered a record, or stopped short, fails and says how. And the wire
//! it reads: a chunked event stream cut anywhere gives the same fields.

#[path = "../crates/kifu-cli/benches/replica_crowd/check.rs"]
mod check;

use check::{field, Dechunk, EventBody, Fault, Field, Tally};

fn tally(start: u64, seen: &[u64]) -> Tally {
    let mut t = Tally::new(start);
    for c in seen {
        t.see(*c);
    }
    t
}

#[test]
fn every_record_once_in_order_is_complete() {
    assert_eq!(tally(10, &[10, 11, 12, 13]).verdict(14), Ok(()));
    // Nothing due, nothing received.
    assert_eq!(tally(10, &[]).verdict(10), Ok(()));
}

#[test]
fn a_lost_record_is_missing() {
    let f = tally(10, &[10, 12, 13]).verdict(14).unwrap_err();
    assert_eq!(
        f,
        Fault {
            missing: 1,
            ..Fault::default()
        }
    );
    // The first one lost, and the last two.
    assert_eq!(tally(10, &[11]).verdict(14).unwrap_err().missing, 3);
    assert_eq!(tally(10, &[]).verdict(14).unwrap_err().missing, 4);
}

#[test]
fn a_repeated_record_or_one_out_of_order_is_counted() {
    let f = tally(10, &[10, 11, 11, 12]).verdict(13).unwrap_err();
    assert_eq!(
        f,
        Fault {
            backwards: 1,
            ..Fault::default()
        }
    );
    // 12 before 11: 11 counts as skipped when 12 comes, then backwards.
    let f = tally(10, &[10, 12, 11]).verdict(13).unwrap_err();
    assert_eq!((f.missing, f.backwards), (1, 1));
    // A record from before the follower's start.
    assert_eq!(tally(10, &[9, 10]).verdict(11).unwrap_err().backwards, 1);
}

#[test]
fn a_record_past_the_end_is_counted() {
    let f = tally(10, &[10, 11, 12]).verdict(12).unwrap_err();
    assert_eq!(
        f,
        Fault {
            beyond: 1,
            ..Fault::default()
        }
    );
    assert!(f.to_string().contains("1 past the end"), "{f}");
}

#[test]
fn the_lines_of_an_event_stream_are_read() {
    assert_eq!(field(b"id: 41"), Field::Id(41));
    assert_eq!(
        field(br#"data: {"cursor":41,"venue_cursor":7,"game":"ab"}"#),
        Field::Record { venue_cursor: 7 }
    );
    assert_eq!(
        field(br#"data: {"cursor":41,"game":"ab"}"#),
        Field::DataWithoutVenueCursor
    );
    assert_eq!(field(b"event: resume"), Field::Resume);
    assert_eq!(field(b"retry: 1000"), Field::Other);
    assert_eq!(field(b""), Field::Other);
}

/// Two events and the end of a chunked body, as a server writes them.
fn chunked_stream() -> Vec<u8> {
    let events = [
        "id: 5\ndata: {\"cursor\":5,\"venue_cursor\":105}\n\n",
        "id: 6\ndata: {\"cursor\":6,\"venue_cursor\":106}\n\n",
    ];
    let mut wire = Vec::new();
    for e in events {
        wire.extend_from_slice(format!("{:x}\r\n{e}\r\n", e.len()).as_bytes());
    }
    wire.extend_from_slice(b"0\r\n\r\n");
    wire
}

#[test]
fn a_chunked_stream_cut_anywhere_gives_the_same_fields() {
    let wire = chunked_stream();
    let want = vec![
        Field::Id(5),
        Field::Record { venue_cursor: 105 },
        Field::Other,
        Field::Id(6),
        Field::Record { venue_cursor: 106 },
        Field::Other,
    ];
    for step in 1..=wire.len() {
        let mut body = EventBody::new(true);
        let mut got = Vec::new();
        for piece in wire.chunks(step) {
            body.push(piece, |f| got.push(f)).unwrap();
        }
        assert_eq!(got, want, "pieces of {step} bytes");
        assert!(body.ended(), "pieces of {step} bytes");
    }
}

#[test]
fn a_body_that_is_not_chunked_is_refused() {
    let mut d = Dechunk::default();
    let mut out = Vec::new();
    assert!(d.push(b"zz\r\nhello\r\n", &mut out).is_err());
}
