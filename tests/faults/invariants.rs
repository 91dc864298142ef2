//! What must hold after any fault, checked through the API: gapless logs, states that are the
//! replay of their logs, and every acknowledged change in the log where its 200 said.

use std::collections::HashMap;

use serde_json::Value;

use super::load::{http_client, moves_of, read_game, Ack, GameRef, Record};
use super::SIZE;

/// Replays a move log into the move list it must produce; checks seats and occupancy on the way.
pub fn replay(log: &[Value], game: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for entry in log {
        let action = &entry["move"];
        if let Some(p) = action["move"].as_str() {
            let p = p.to_ascii_lowercase();
            assert_eq!(
                entry["seat"].as_u64(),
                Some((moves.len() % 2) as u64),
                "game {game}: log entry {entry} was played by the seat not to move"
            );
            assert!(
                !moves.contains(&p),
                "game {game}: log entry {entry} places a stone on an occupied point"
            );
            moves.push(p);
        } else if action["action"] == "undo" {
            assert!(
                moves.pop().is_some(),
                "game {game}: log entry {entry} undoes an empty board"
            );
        } else {
            panic!("game {game}: unexpected log entry {entry}");
        }
    }
    moves
}

/// Through `base`: each game's log is gapless (seq 1..=version), its state is the replay of its log
/// (moves and board), every acknowledged change is the log entry at the version its 200 named (so
/// none was lost and none counted twice), and each 200's moves were the replay of the log up to it.
/// Returns the versions.
pub async fn verify_games(base: &str, games: &[GameRef], acks: &[Ack]) -> Vec<i64> {
    let http = http_client();
    let mut versions = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let state = read_game(&http, base, &game.id).await;
        let log_reply = http
            .get(format!("{base}/v1/gomoku/games/{}/moves", game.id))
            .send()
            .await
            .unwrap();
        assert_eq!(log_reply.status(), 200);
        let log: Vec<Value> = log_reply.json().await.unwrap();
        let version = state["version"].as_i64().expect("version");
        let seqs: Vec<i64> = log.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(
            seqs,
            (1..=log.len() as i64).collect::<Vec<_>>(),
            "game {g}: the move log is not gapless"
        );
        assert_eq!(version, log.len() as i64, "game {g}: version != log length");
        let moves = moves_of(&state);
        assert_eq!(
            replay(&log, g),
            moves,
            "game {g}: the state is not the replay of its log"
        );
        // The board shows exactly those stones, black first.
        let rows: Vec<&str> = state["state"]["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let stones = rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c != '.')
            .count();
        assert_eq!(
            stones,
            moves.len(),
            "game {g}: board and move list disagree"
        );
        for (k, m) in moves.iter().enumerate() {
            let col = m.as_bytes()[0] - b'a';
            let row: usize = m[1..].parse().unwrap();
            let symbol = rows[SIZE as usize - row].as_bytes()[col as usize];
            assert_eq!(
                symbol,
                if k % 2 == 0 { b'X' } else { b'O' },
                "game {g}: board and move list disagree at {m}"
            );
        }

        let mut seen = HashMap::new();
        for ack in acks.iter().filter(|a| a.game == g) {
            if let Some(other) = seen.insert(ack.version, ack.action.clone()) {
                panic!(
                    "game {g}: two changes were both acknowledged as version {}: {other} and {} (a lost update)",
                    ack.version, ack.action
                );
            }
            assert!(
                ack.version >= 1 && ack.version <= version,
                "game {g}: acknowledged version {} is beyond the stored version {version}: an acknowledged move was lost ({})",
                ack.version,
                ack.action
            );
            let logged = &log[ack.version as usize - 1]["move"];
            assert_eq!(
                logged, &ack.action,
                "game {g}: the change acknowledged as version {} is not the logged one (lost or replaced)",
                ack.version
            );
            assert_eq!(
                replay(&log[..ack.version as usize], g),
                ack.moves,
                "game {g}: the 200 for version {} showed a state that is not the replay of the log up to it",
                ack.version
            );
        }
        versions.push(version);
    }
    versions
}

pub fn acks_of(records: &[Record]) -> Vec<Ack> {
    records.iter().filter_map(|r| r.ack.clone()).collect()
}
