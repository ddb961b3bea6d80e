//! The EGD `.h9` and AGA files of the worked example, compared with the
//! fixture's texts and read back by small readers written from the published
//! layouts (EGF "Comments on submitting tournament results"; usgo.org "AGA
//! Document Formats").

mod common;

use kifu_standings::{aga, h9, EventInfo};

fn info() -> EventInfo {
    EventInfo {
        name: "Worked Example Open".into(),
        country: "DE".into(),
        city: "Berlin".into(),
        location: "Berlin, Germany".into(),
        start: "2026-05-01".into(),
        finish: "2026-05-02".into(),
        class: "A".into(),
        komi: "7".into(),
        adjusted_time_minutes: 75,
        overtime: "Canadian byo-yomi".into(),
        handicap_reduction: 0,
        rules: "AGA".into(),
    }
}

/// (opponent row, result symbol, by default, colour, handicap); row 0 is a
/// round without a game.
type Entry = (usize, char, bool, Option<char>, Option<u32>);

/// One line of an EGD table as its parser sees it.
#[derive(Debug)]
struct H9Line {
    place: u32,
    surname: String,
    given: String,
    rank: String,
    country: String,
    club: String,
    /// (opponent row, result symbol, by default, colour, handicap); row 0
    /// is a round without a game.
    rounds: Vec<Entry>,
}

/// `<row><+|-|=|?>[</|!><w|b|?><h>]`.
fn round_entry(tok: &str) -> Option<Entry> {
    let digits: String = tok.chars().take_while(|c| c.is_ascii_digit()).collect();
    let row: usize = digits.parse().ok()?;
    let mut rest = tok[digits.len()..].chars();
    let res = rest.next().filter(|c| "+-=?".contains(*c))?;
    let tail: String = rest.collect();
    if tail.is_empty() {
        return Some((row, res, false, None, None));
    }
    let mut t = tail.chars();
    let kind = t.next().filter(|c| *c == '/' || *c == '!')?;
    let colour = t.next().filter(|c| "wb?".contains(*c))?;
    let h: String = t.collect();
    let h = if h.is_empty() { 0 } else { h.parse().ok()? };
    Some((row, res, kind == '!', Some(colour), Some(h)))
}

/// Reads the player table: comments after `;` and empty lines ignored; the
/// place is the first four columns (blank: same as the line before); every
/// line has the same number of round entries, found at its end.
fn read_h9(text: &str) -> Vec<H9Line> {
    let mut out: Vec<H9Line> = Vec::new();
    for raw in text.lines() {
        let line = raw.split(';').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let head: String = line.chars().take(4).collect();
        let place = match head.trim() {
            "" => out
                .last()
                .map(|l| l.place)
                .expect("a blank place follows a place"),
            p => p.parse().expect("place"),
        };
        let rest: String = line.chars().skip(4).collect();
        let toks: Vec<&str> = rest.split_whitespace().collect();
        let n_rounds = toks
            .iter()
            .rev()
            .take_while(|t| round_entry(t).is_some())
            .count();
        let rounds = toks[toks.len() - n_rounds..]
            .iter()
            .map(|t| round_entry(t).expect("round"))
            .collect();
        out.push(H9Line {
            place,
            surname: toks[0].into(),
            given: toks[1].into(),
            rank: toks[2].into(),
            country: toks[3].into(),
            club: toks[4].into(),
            rounds,
        });
    }
    let n = out.first().map(|l| l.rounds.len()).unwrap_or(0);
    assert!(
        out.iter().all(|l| l.rounds.len() == n),
        "same number of rounds on every line"
    );
    out
}

#[test]
fn h9_of_the_worked_example_matches_the_fixture_text() {
    let f = common::fixture();
    let t = common::worked_example();
    let text = h9::write(&t, &info(), 3, true).expect("h9");
    // The fixture was typed by hand with one more blank before the rank than
    // OpenGotha writes (its rank column sits under the header's `Rk`); the
    // words, their order and every other column agree.
    let words = |s: &str| -> Vec<Vec<String>> {
        s.lines()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect()
    };
    let fixture = f["exports"]["egf_h9_text"].as_str().expect("text");
    assert_eq!(words(&text), words(fixture));
    assert_eq!(text.lines().count(), fixture.lines().count());
    let header = text.lines().nth(8).expect("header");
    let first = text.lines().nth(9).expect("first player");
    assert_eq!(header.find("Rk"), first.find("2d"), "rank under Rk");
}

#[test]
fn h9_reads_back_the_same_players_places_and_results() {
    let f = common::fixture();
    let t = common::worked_example();
    let text = h9::write(&t, &info(), 3, true).expect("h9");
    let lines = read_h9(&text);
    let ids: Vec<String> = lines
        .iter()
        .map(|l| {
            let p = t
                .players
                .iter()
                .find(|p| p.surname == l.surname && p.given == l.given)
                .expect("player known");
            assert_eq!(p.rank.to_string(), l.rank);
            assert_eq!(p.country, l.country);
            assert_eq!(p.club, l.club);
            p.id.clone()
        })
        .collect();
    let expected: Vec<&str> = f["meta"]["orders"]["mcmahon_MMS_SOSM_SOSOSM"]
        .as_array()
        .expect("order")
        .iter()
        .map(|v| v.as_str().expect("id"))
        .collect();
    assert_eq!(ids, expected);
    assert_eq!(
        lines.iter().map(|l| l.place).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    // Every game of the fixture appears on both players' lines, right way round.
    for g in f["games"].as_array().expect("games") {
        let round = g["round"].as_u64().expect("round") as usize - 1;
        let (w, b) = (
            g["white"].as_str().expect("w"),
            g["black"].as_str().expect("b"),
        );
        let row = |id: &str| ids.iter().position(|x| x == id).expect("row");
        let (ew, eb) = match g["result"].as_str().expect("result") {
            "W+" => ('+', '-'),
            "B+" => ('-', '+'),
            _ => ('=', '='),
        };
        let forfeit = g["forfeit"].as_bool().expect("forfeit");
        let wl = lines[row(w)].rounds[round];
        let bl = lines[row(b)].rounds[round];
        assert_eq!(
            wl,
            (row(b) + 1, ew, forfeit, Some('w'), Some(0)),
            "{w} round {}",
            round + 1
        );
        assert_eq!(
            bl,
            (row(w) + 1, eb, forfeit, Some('b'), Some(0)),
            "{b} round {}",
            round + 1
        );
    }
    // The bye (a free point) and the absence (½ MMS, written `0=`).
    let row = |id: &str| ids.iter().position(|x| x == id).expect("row");
    assert_eq!(lines[row("P5")].rounds[2], (0, '+', false, None, None));
    assert_eq!(lines[row("P6")].rounds[2], (0, '=', false, None, None));
}

#[test]
fn h9_can_drop_results_by_default() {
    let t = common::worked_example();
    let text = h9::write(&t, &info(), 3, false).expect("h9");
    let lines = read_h9(&text);
    assert!(lines.iter().all(|l| l.rounds.iter().all(|r| !r.2)));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.rounds[1] == (0, '=', false, None, None))
            .count(),
        2
    );
}

#[test]
fn aga_of_the_worked_example_is_the_fixture_text() {
    let f = common::fixture();
    let t = common::worked_example();
    let text = aga::write(&t, &info(), 3).expect("aga");
    let expected: String = f["exports"]["aga_text"]
        .as_str()
        .expect("text")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(text, expected);
}

#[test]
fn aga_reads_back_the_same_players_ranks_and_results() {
    let f = common::fixture();
    let t = common::worked_example();
    let text = aga::write(&t, &info(), 3).expect("aga");
    let mut players = Vec::new();
    let mut games = Vec::new();
    let mut section = "";
    let mut round = 0u32;
    for line in text.lines() {
        if line.starts_with("TOURNEY") || line.starts_with('\t') {
            continue;
        }
        if line == "PLAYERS" || line == "END" {
            section = line;
            continue;
        }
        if let Some(r) = line.strip_prefix("GAMES ") {
            section = "GAMES";
            round = r.parse().expect("round");
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        match section {
            "PLAYERS" => {
                let (surname, given) = cols[1].split_once(", ").expect("Surname, Given");
                players.push((
                    cols[0].to_string(),
                    surname.to_string(),
                    given.to_string(),
                    cols[2].to_string(),
                ));
            }
            "GAMES" => games.push((
                round,
                cols[0].to_string(),
                cols[1].to_string(),
                cols[2].to_string(),
                cols[3].to_string(),
                cols[4].to_string(),
            )),
            _ => panic!("line outside a section: {line}"),
        }
    }
    assert_eq!(players.len(), 6);
    for p in &t.players {
        assert!(players.iter().any(|(id, s, g, r)| *id == p.aga_id
            && *s == p.surname
            && *g == p.given
            && *r == p.rank.to_string()));
    }
    // Every decisive game played over the board, and nothing else.
    let aga_of = |id: &str| t.player(id).expect("player").aga_id.clone();
    let mut expected = Vec::new();
    for g in f["games"].as_array().expect("games") {
        let result = g["result"].as_str().expect("result");
        if g["forfeit"].as_bool().expect("forfeit") || result == "jigo" {
            continue;
        }
        expected.push((
            g["round"].as_u64().expect("round") as u32,
            aga_of(g["white"].as_str().expect("w")),
            aga_of(g["black"].as_str().expect("b")),
            result[..1].to_string(),
            "0".to_string(),
            "7".to_string(),
        ));
    }
    assert_eq!(games, expected);
}

#[test]
fn aga_gives_temporary_ids_and_handicap_komi() {
    let mut t = common::worked_example();
    for p in &mut t.players {
        p.aga_id.clear();
    }
    t.players[1].aga_id = "99998".into();
    t.games[0].handicap = 1;
    t.games[1].handicap = 3;
    let text = aga::write(&t, &info(), 1).expect("aga");
    assert!(text.contains("99999\tAlpha, Ana\t2d\n"), "{text}");
    assert!(text.contains("99998\tBeta, Ben\t2d\n"));
    assert!(text.contains("99997\tGamma, Cho\t1d\n"));
    assert!(
        text.contains("99999\t99998\tW\t0\t0\n"),
        "handicap 1: no stones, komi 0"
    );
    assert!(text.contains("99997\t99996\tB\t3\t0\n"));
}
