//! Tree reuse between moves. The server keeps no state between requests, so after a search the
//! subtree below the chosen move is kept here, in a small process-wide cache; when the next
//! request is for a position one opponent reply further down the same game (same rules, same
//! history), the search starts from the reply's subtree and continues from its statistics
//! instead of from nothing. Anything else (another game, a taken-back move, an evicted entry)
//! gets a fresh search.
//!
//! A search that starts from a kept tree adds its playouts to those of the earlier search, so its
//! answer depends on what was kept: only a search without a kept tree (on one thread) is a
//! function of the request alone (seed, playout count). Reuse is therefore asked for per request
//! (`GoAiRequest::reuse_tree`), by the game server and not by tests of exact answers.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};

use super::super::board::{Board, Color, Pt};
use super::search::Tree;
use crate::AiLevel;

/// Searches kept at once (several games may be played at the same time).
const ENTRIES: usize = 4;
/// Nodes kept at once over all entries: at 32 bytes a node, about 128 MB, near what one search
/// may grow (`search::MAX_NODES`), so a big kept tree is not evicted at once.
const MAX_NODES: usize = 4_000_000;

/// Everything besides the position that the kept statistics depend on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rules {
    pub komi: f32,
    pub level: AiLevel,
    pub superko: bool,
    pub dead_stones_removed: bool,
}

/// The tree of one search, rooted at the position after its move.
pub(super) struct Kept {
    rules: Rules,
    /// The side that searched, to move again after the opponent's reply.
    color: Color,
    /// The request's history: the next request's must start with it.
    history: Vec<u64>,
    /// The position after the chosen move (the opponent to move).
    after: Board,
    /// Rooted at `after`.
    tree: Tree,
    /// How many searches in a row, this one included, saw the game as lost (see `choose`'s
    /// resignation).
    pub lost_searches: u32,
}

impl Kept {
    /// The subtree below `play` (None: pass) of a search of `board` by `color`, kept for the
    /// search after the opponent's reply.
    pub(super) fn new(
        rules: Rules,
        board: &Board,
        color: Color,
        history: &[u64],
        play: Option<Pt>,
        tree: &Tree,
        lost_searches: u32,
    ) -> Option<Kept> {
        let tree = tree.subtree(tree.root_child(play)?);
        let mut after = board.clone();
        match play {
            Some(p) => {
                after.play(color, p).ok()?;
            }
            None => after.pass(),
        }
        Some(Kept {
            rules,
            color,
            history: history.to_vec(),
            after,
            tree,
            lost_searches,
        })
    }

    /// The tree re-rooted at the opponent's `reply`, if it holds playouts there.
    pub(super) fn after_reply(&self, reply: Option<Pt>) -> Option<Tree> {
        let tree = self.tree.subtree(self.tree.root_child(reply)?);
        (tree.playouts() > 0).then_some(tree)
    }

    fn nodes(&self) -> usize {
        self.tree.len()
    }
}

/// Kept searches, oldest first.
pub(super) struct Cache(VecDeque<Kept>);

/// The cache of the server process.
pub(super) static SHARED: Mutex<Cache> = Mutex::new(Cache(VecDeque::new()));

/// Locks `cache`. A panic elsewhere while it was locked leaves it consistent: every change is
/// one push or removal. (Trees are copied outside the lock.)
pub(super) fn lock(cache: &Mutex<Cache>) -> MutexGuard<'_, Cache> {
    cache.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cache {
    #[cfg(test)]
    pub(super) fn new() -> Cache {
        Cache(VecDeque::new())
    }

    /// The playouts the newest entry holds below the opponent's `reply`.
    #[cfg(test)]
    pub(super) fn visits_after(&self, reply: Option<Pt>) -> u32 {
        let tree = &self.0.back().expect("a kept search").tree;
        tree.root_child(reply)
            .map_or(0, |c| tree.subtree(c).playouts())
    }

    /// Adds `kept`; older entries make room (oldest first).
    pub(super) fn keep(&mut self, kept: Kept) {
        let entries = &mut self.0;
        entries.push_back(kept);
        while entries.len() > ENTRIES || entries.iter().map(Kept::nodes).sum::<usize>() > MAX_NODES
        {
            entries.pop_front();
        }
    }

    /// Takes out the kept search that `board` (with `color` to move) follows by one opponent
    /// move (a pass when `opponent_passed`), with that move.
    pub(super) fn take(
        &mut self,
        rules: Rules,
        board: &Board,
        color: Color,
        history: &[u64],
        opponent_passed: bool,
    ) -> Option<(Kept, Option<Pt>)> {
        let (index, reply) = self.0.iter().enumerate().find_map(|(i, kept)| {
            let same_game = kept.rules == rules
                && kept.color == color
                && history.starts_with(&kept.history)
                && history.len() <= kept.history.len() + 2; // our move and the reply
            if !same_game {
                return None;
            }
            reply_to(kept, board)
                .filter(|reply| reply.is_none() == opponent_passed)
                .map(|reply| (i, reply))
        })?;
        Some((self.0.remove(index)?, reply))
    }
}

/// The opponent's move that leads from the kept position to `board`, if one does (found among
/// the kept tree's root moves: the stones' hash first, then the whole board).
fn reply_to(kept: &Kept, board: &Board) -> Option<Option<Pt>> {
    let opponent = kept.color.opponent();
    kept.tree.root_moves().find(|&reply| {
        let hash = match reply {
            Some(p) => kept.after.hash_after(opponent, p),
            None => Some(kept.after.hash()),
        };
        if hash != Some(board.hash()) {
            return false;
        }
        let mut next = kept.after.clone();
        match reply {
            Some(p) => next.play(opponent, p).is_ok() && next == *board,
            None => {
                next.pass();
                next == *board
            }
        }
    })
}
