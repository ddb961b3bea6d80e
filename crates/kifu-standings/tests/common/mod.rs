//! The worked example of `fixtures/tournament/tiebreak-example.json`
//! as a [`Tournament`].
#![allow(dead_code)]

use kifu_standings::{Game, GameResult, Player, Settings, Tournament};
use serde_json::Value as Json;

pub fn fixture() -> Json {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/tournament/tiebreak-example.json"
    );
    let text = std::fs::read_to_string(path).expect("fixture present");
    serde_json::from_str(&text).expect("fixture is JSON")
}

pub fn worked_example() -> Tournament {
    let f = fixture();
    let mut t = Tournament::new(Settings::mcmahon(3));
    for p in f["players"].as_array().expect("players") {
        let mut player = Player::new(
            p["id"].as_str().expect("id"),
            p["surname"].as_str().expect("surname"),
            p["given"].as_str().expect("given"),
            p["rank"].as_str().expect("rank").parse().expect("rank"),
        );
        player.country = p["country"].as_str().unwrap_or("").to_string();
        player.club = p["club"].as_str().unwrap_or("").to_string();
        player.aga_id = p["temp_aga_id"].to_string();
        t.players.push(player);
    }
    let mut board = std::collections::BTreeMap::new();
    for g in f["games"].as_array().expect("games") {
        let round = g["round"].as_u64().expect("round") as u32;
        let b = board.entry(round).or_insert(0u32);
        *b += 1;
        t.games.push(Game {
            round,
            board: *b,
            white: g["white"].as_str().expect("white").to_string(),
            black: g["black"].as_str().expect("black").to_string(),
            handicap: g["handicap"].as_u64().expect("handicap") as u8,
            result: match g["result"].as_str().expect("result") {
                "W+" => GameResult::WhiteWins,
                "B+" => GameResult::BlackWins,
                "jigo" => GameResult::Jigo,
                other => panic!("unexpected result {other}"),
            },
            by_default: g["forfeit"].as_bool().expect("forfeit"),
            colours_known: true,
        });
    }
    for (round, p) in f["byes"].as_object().expect("byes") {
        t.byes.insert((
            round.parse().expect("round"),
            p.as_str().expect("id").to_string(),
        ));
    }
    for (round, ps) in f["absent"].as_object().expect("absent") {
        for p in ps.as_array().expect("list") {
            t.absences.insert((
                round.parse().expect("round"),
                p.as_str().expect("id").to_string(),
            ));
        }
    }
    t
}
