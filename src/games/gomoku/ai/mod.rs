// TEMPORARY compile scaffold until the real search lands from the engine work; never committed.
use super::{Gomoku, Point};
use crate::games::AiLevel;
use serde::Serialize;
use std::time::Duration;
pub mod easy;
pub struct Decision {
    pub point: Point,
    pub analysis: Analysis,
}
#[derive(Serialize)]
pub struct Analysis {
    pub level: AiLevel,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub principal_variation: Vec<Point>,
}
pub fn choose_move(
    game: &Gomoku,
    level: AiLevel,
    _budget: Duration,
    rng: &mut impl rand::Rng,
) -> Option<Decision> {
    let (point, score, nodes) = easy::choose(game, rng)?;
    Some(Decision {
        point,
        analysis: Analysis {
            level,
            score,
            depth: 0,
            nodes,
            elapsed_ms: 0,
            principal_variation: vec![],
        },
    })
}
