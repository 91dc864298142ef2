//! Monte Carlo tree search: UCT with RAVE (all-moves-as-first) values and heuristic priors, one
//! playout per iteration. Several threads each grow their own tree from their own seeded RNG (root
//! parallelism) and their root statistics are summed in thread order, so a search bounded by a
//! playout count is deterministic for a seed and thread count. A search may start from trees kept
//! from an earlier one (see `reuse`): it then continues from their statistics.

use std::time::Instant;

use rand::SeedableRng;

use super::super::board::{Board, Color, Pt, EMPTY};
use super::playout::{self, Move, Policy};
use super::{count, pattern};
use rand::rngs::SmallRng;

/// How a search behaves (`normal` and `hard` differ here).
#[derive(Clone, Copy, Debug)]
pub(super) struct Config {
    pub policy: Policy,
    /// Use the 3×3 patterns in the priors of new tree nodes.
    pub pattern_priors: bool,
    /// RAVE equivalence: around this many real visits, RAVE and real values weigh the same.
    pub rave_equivalence: f32,
    /// Real visits a leaf needs before it is expanded.
    pub expand_at: u32,
    /// UCT exploration constant (small: priors and RAVE do most of the exploring).
    pub explore: f32,
}

/// What to search: the position, who moves, the rules around it.
pub(super) struct Root<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    pub komi: f32,
    /// Passes in a row that led here (1 when the opponent just passed).
    pub passes: u32,
    /// Hashes a root move may not recreate (positional superko), empty when the rule is off.
    pub banned_hashes: &'a [u64],
}

/// When to stop.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub deadline: Instant,
    pub max_playouts: u64,
}

/// One move's statistics at the root, summed over the threads.
#[derive(Clone, Debug)]
pub(super) struct RootChild {
    pub play: Option<Pt>,
    pub visits: u32,
    /// Win rate for the side to move at the root: observed, or the prior before any visit.
    pub win_rate: f32,
}

/// A finished search.
pub(super) struct Outcome {
    /// Each thread's tree, for reuse after the move.
    pub trees: Vec<Tree>,
    /// Playouts the trees held before this search (kept from an earlier one), summed.
    pub reused: u64,
    pub children: Vec<RootChild>,
    pub playouts: u64,
    /// Moves after the most visited root move, from the first thread's tree.
    pub pv: Vec<Option<Pt>>,
    /// Per on-board point (row-major from the bottom left): share of playouts Black owned it.
    pub ownership: Vec<f32>,
}

/// Padded index 0 is a border point, so it stands for "pass" in a node.
const PASS: u16 = 0;
/// Stop adding nodes past this many: a tree stays under about 32 MB (32 bytes a node).
const MAX_NODES: usize = 1_000_000;
/// Weight of a prior, in virtual visits.
const PRIOR_VISITS: f32 = 20.0;
/// Playouts between two looks at the clock.
const CLOCK_EVERY: u64 = 64;

/// A finished playout, for Black: the value the search steers by and whether Black won.
#[derive(Clone, Copy, Debug)]
struct PlayoutResult {
    value: f32,
    win: f32,
}

#[derive(Clone, Debug)]
struct Node {
    mv: u16,
    /// Visits and summed value (for the player who made `mv`, see `playout::value`), priors
    /// included: what selection reads.
    n: f32,
    w: f32,
    rave_n: f32,
    rave_w: f32,
    real: u32,
    /// Wins of the real visits only (no prior, no margin): the reported win rate.
    real_w: f32,
    first_child: u32,
    children: u16,
}

const _: () = assert!(
    std::mem::size_of::<Node>() <= 32,
    "MAX_NODES assumes 32-byte nodes"
);

/// One thread's search tree: node 0 is the root, the children of a node are consecutive.
pub(super) struct Tree {
    nodes: Vec<Node>,
}

/// Runs the search on `threads` threads and merges their root statistics. `kept` holds one
/// tree per thread rooted at this position (from an earlier search), or nothing for a fresh
/// search.
pub(super) fn search(
    root: &Root,
    cfg: Config,
    limits: Limits,
    seed: u64,
    threads: usize,
    kept: Option<Vec<Tree>>,
) -> Outcome {
    let threads = threads.max(1);
    let share = |i: usize| {
        let t = threads as u64;
        limits.max_playouts / t + u64::from((i as u64) < limits.max_playouts % t)
    };
    let mut kept: Vec<Option<Tree>> = match kept {
        Some(trees) if trees.len() == threads => trees.into_iter().map(Some).collect(),
        _ => (0..threads).map(|_| None).collect(),
    };
    let reused = kept.iter().flatten().map(|t| u64::from(t.playouts())).sum();
    let results: Vec<(Tree, u64, Vec<u32>)> = if threads == 1 {
        vec![grow(root, cfg, limits, seed, kept[0].take())]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = kept
                .iter_mut()
                .enumerate()
                .map(|(i, tree)| {
                    let limits = Limits {
                        max_playouts: share(i),
                        ..limits
                    };
                    let seed = seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    let tree = tree.take();
                    scope.spawn(move || grow(root, cfg, limits, seed, tree))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("search thread panicked"))
                .collect()
        })
    };
    let mut outcome = merge(root, &results);
    outcome.reused = reused;
    outcome.trees = results.into_iter().map(|(tree, _, _)| tree).collect();
    outcome
}

fn merge(root: &Root, results: &[(Tree, u64, Vec<u32>)]) -> Outcome {
    let first = &results[0].0;
    let kids = first.child_range(0);
    let mut children: Vec<RootChild> = Vec::with_capacity(kids.len());
    for (k, i) in kids.clone().enumerate() {
        let (mut n, mut w, mut real, mut real_w) = (0.0, 0.0, 0, 0.0);
        for (tree, _, _) in results {
            let node = &tree.nodes[tree.child_range(0).start + k];
            debug_assert_eq!(node.mv, first.nodes[i].mv, "threads expand the root alike");
            n += node.n;
            w += node.w;
            real += node.real;
            real_w += node.real_w;
        }
        let mv = first.nodes[i].mv;
        // The observed win rate once the move has been tried, else the prior's guess.
        let win_rate = if real > 0 {
            real_w / real as f32
        } else {
            w / n
        };
        children.push(RootChild {
            play: (mv != PASS).then_some(Pt(mv)),
            visits: real,
            win_rate,
        });
    }
    let playouts: u64 = results.iter().map(|r| r.1).sum();
    let size = root.board.size();
    let mut ownership = vec![0.0f32; size * size];
    for (_, _, owned) in results {
        for (o, &c) in ownership.iter_mut().zip(owned) {
            *o += c as f32;
        }
    }
    for o in &mut ownership {
        *o /= playouts.max(1) as f32;
    }
    let best = children
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (c.visits, std::cmp::Reverse(*i)));
    let pv = match best {
        Some((k, _)) => first.principal_variation(first.child_range(0).start + k),
        None => Vec::new(),
    };
    Outcome {
        trees: Vec::new(),
        reused: 0,
        children,
        playouts,
        pv,
        ownership,
    }
}

/// One thread's search, growing `kept` (a tree rooted at this position) or a fresh tree:
/// returns the tree, the playouts of this search and their ownership counts.
fn grow(
    root: &Root,
    cfg: Config,
    limits: Limits,
    seed: u64,
    kept: Option<Tree>,
) -> (Tree, u64, Vec<u32>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tree = kept.unwrap_or_default();
    if tree.nodes[0].children > 0 {
        // Grown below the root of an earlier search, without the superko filter.
        tree.drop_root_children(root.board, root.to_move, root.banned_hashes);
    } else {
        tree = Tree::default();
        tree.expand(0, root.board, root.to_move, cfg, Some(root.banned_hashes));
    }
    let size = root.board.size();
    let mut owned = vec![0u32; size * size];
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut moves: Vec<Move> = Vec::with_capacity(4 * size * size);
    let mut mark = vec![0u8; root.board.cells.len()];
    let mut playouts = 0u64;
    let mut board = root.board.clone();
    while playouts < limits.max_playouts {
        if playouts.is_multiple_of(CLOCK_EVERY) && Instant::now() >= limits.deadline && playouts > 0
        {
            break;
        }
        path.clear();
        moves.clear();
        board.copy_from(root.board);
        let mut color = root.to_move;
        let mut passes = root.passes;
        let mut node = 0usize;
        path.push(0);
        // Descend.
        while passes < 2 {
            if tree.nodes[node].children == 0 {
                if node != 0
                    && tree.nodes[node].real >= cfg.expand_at
                    && tree.nodes.len() < MAX_NODES
                {
                    tree.expand(node, &board, color, cfg, None);
                }
                if tree.nodes[node].children == 0 {
                    break;
                }
            }
            node = tree.select(node, cfg);
            let mv = tree.nodes[node].mv;
            if mv == PASS {
                board.pass();
                passes += 1;
                moves.push((None, color));
            } else {
                board.play_unchecked(color, Pt(mv));
                passes = 0;
                moves.push((Some(Pt(mv)), color));
            }
            path.push(node as u32);
            color = color.opponent();
        }
        let tree_moves = moves.len();
        if passes < 2 {
            playout::run(
                &mut board,
                color,
                passes,
                cfg.policy,
                &mut rng,
                Some(&mut moves),
            );
        }
        let quick_score = playout::tally(&board, &mut owned);
        let margin = if passes >= 2 {
            // The game ended inside the tree: the real count, not the playout's quick one.
            count::area_margin(&board) as f32 - root.komi
        } else {
            quick_score as f32 - root.komi
        };
        let result = PlayoutResult {
            value: playout::value(margin, size),
            win: playout::outcome(margin),
        };
        tree.backup(&path, &moves, tree_moves, root.to_move, result, &mut mark);
        playouts += 1;
    }
    (tree, playouts, owned)
}

impl Default for Tree {
    /// A tree of one unexpanded root without statistics.
    fn default() -> Tree {
        let root = Node {
            n: 0.0,
            w: 0.0,
            rave_n: 0.0,
            rave_w: 0.0,
            ..Node::with_prior(PASS, 0.0)
        };
        Tree { nodes: vec![root] }
    }
}

impl Tree {
    /// The playouts this tree holds: the root's real visits once it is expanded (a search
    /// starts over from an unexpanded root).
    pub(super) fn playouts(&self) -> u32 {
        let root = &self.nodes[0];
        if root.children > 0 {
            root.real
        } else {
            0
        }
    }

    /// The root child for `play` (None: pass), if the root was expanded with it.
    pub(super) fn root_child(&self, play: Option<Pt>) -> Option<usize> {
        let mv = play.map_or(PASS, |p| p.0);
        self.child_range(0).find(|&i| self.nodes[i].mv == mv)
    }

    /// The moves of the root's children, in order (None: pass).
    pub(super) fn root_moves(&self) -> impl Iterator<Item = Option<Pt>> + '_ {
        self.child_range(0).map(|i| {
            let mv = self.nodes[i].mv;
            (mv != PASS).then_some(Pt(mv))
        })
    }

    /// The subtree below `node` as a tree of its own (`node` becomes the root), the rest
    /// dropped: what is kept of a search after its move is played.
    pub(super) fn subtree(&self, node: usize) -> Tree {
        let mut nodes = vec![self.nodes[node].clone()];
        // Copy breadth first, so each node's children stay consecutive: `queue[k]` is the old
        // index of new node `k`.
        let mut queue = vec![node];
        let mut k = 0;
        while k < queue.len() {
            let old = queue[k];
            let first = nodes.len();
            for c in self.child_range(old) {
                nodes.push(self.nodes[c].clone());
                queue.push(c);
            }
            nodes[k].first_child = first as u32;
            k += 1;
        }
        nodes.shrink_to_fit(); // kept trees are counted by their length
        Tree { nodes }
    }

    /// Nodes held (memory: 32 bytes each).
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Removes the root's children that the superko rule bans (a tree grown below an earlier
    /// root was expanded without it); the others keep their order and statistics.
    fn drop_root_children(&mut self, board: &Board, color: Color, banned: &[u64]) {
        if banned.is_empty() {
            return;
        }
        let range = self.child_range(0);
        let mut kept = range.start;
        for i in range {
            let mv = self.nodes[i].mv;
            let allowed = mv == PASS
                || board
                    .hash_after(color, Pt(mv))
                    .is_none_or(|h| !banned.contains(&h));
            if allowed {
                self.nodes[kept] = self.nodes[i].clone();
                kept += 1;
            }
        }
        self.nodes[0].children = (kept - self.nodes[0].first_child as usize) as u16;
    }

    fn child_range(&self, node: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[node];
        let start = n.first_child as usize;
        start..start + n.children as usize
    }

    /// Adds the children of `node`: every legal move of `color` that does not fill its own eye,
    /// and the pass, each with a heuristic prior.
    fn expand(
        &mut self,
        node: usize,
        board: &Board,
        color: Color,
        cfg: Config,
        banned: Option<&[u64]>,
    ) {
        let first = self.nodes.len();
        let last = board.last_move();
        let mut stones = 0;
        for p in board.points() {
            if board.cells[p.idx()] != EMPTY {
                stones += 1;
                continue;
            }
            if board.is_eyeish(color, p) || !playout::playable(board, color, p) {
                continue;
            }
            if let Some(banned) = banned {
                if !banned.is_empty()
                    && board
                        .hash_after(color, p)
                        .is_some_and(|h| banned.contains(&h))
                {
                    continue;
                }
            }
            let value = prior(board, color, p, last, cfg.pattern_priors);
            self.nodes.push(Node::with_prior(p.0, value));
        }
        // Passing is weak while much of the board is open; near the end it is a real option.
        let filled = stones as f32 / (board.size() * board.size()) as f32;
        let pass_value = if first == self.nodes.len() {
            0.5
        } else {
            (0.1 + 0.4 * filled).min(0.45)
        };
        self.nodes.push(Node::with_prior(PASS, pass_value));
        let count = self.nodes.len() - first;
        let parent = &mut self.nodes[node];
        parent.first_child = first as u32;
        parent.children = count as u16;
    }

    /// The child with the best RAVE-blended value (first one on ties, for determinism).
    fn select(&self, node: usize, cfg: Config) -> usize {
        let parent_n = self.nodes[node].real.max(1) as f32;
        let log_n = parent_n.ln();
        let mut best = usize::MAX;
        let mut best_value = f32::NEG_INFINITY;
        for i in self.child_range(node) {
            let c = &self.nodes[i];
            let q = c.w / c.n;
            let value = if c.rave_n > 0.0 {
                let beta = c.rave_n / (c.rave_n + c.n + c.rave_n * c.n / cfg.rave_equivalence);
                (1.0 - beta) * q + beta * (c.rave_w / c.rave_n)
            } else {
                q
            } + cfg.explore * (log_n / c.n).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    /// Updates the path's real statistics and the RAVE statistics of every child along it whose
    /// move the same colour played first later in the playout.
    fn backup(
        &mut self,
        path: &[u32],
        moves: &[Move],
        tree_moves: usize,
        to_move: Color,
        black: PlayoutResult,
        mark: &mut [u8],
    ) {
        let for_colour = |c: Color, x: f32| if c == Color::Black { x } else { 1.0 - x };
        let score = |c: Color| for_colour(c, black.value);
        let win = |c: Color| for_colour(c, black.win);
        // path[k] (k >= 1) was reached by moves[k - 1].
        self.nodes[0].real += 1;
        for (k, &idx) in path.iter().enumerate().skip(1) {
            let color = moves[k - 1].1;
            let node = &mut self.nodes[idx as usize];
            node.n += 1.0;
            node.w += score(color);
            node.real += 1;
            node.real_w += win(color);
        }
        mark.fill(0);
        let mut next = moves.len();
        debug_assert!(tree_moves + 1 >= path.len());
        for k in (0..path.len()).rev() {
            while next > k {
                next -= 1;
                if let (Some(p), c) = moves[next] {
                    mark[p.idx()] = c.cell();
                }
            }
            let node = path[k] as usize;
            if self.nodes[node].children == 0 {
                continue;
            }
            let color = if k % 2 == 0 {
                to_move
            } else {
                to_move.opponent()
            };
            let value = score(color);
            for i in self.child_range(node) {
                let c = &mut self.nodes[i];
                if c.mv != PASS && mark[c.mv as usize] == color.cell() {
                    c.rave_n += 1.0;
                    c.rave_w += value;
                }
            }
        }
    }

    /// The most visited line below root child `start`, including it.
    fn principal_variation(&self, start: usize) -> Vec<Option<Pt>> {
        let mut pv = Vec::new();
        let mut node = start;
        loop {
            let mv = self.nodes[node].mv;
            pv.push((mv != PASS).then_some(Pt(mv)));
            let best = self
                .child_range(node)
                .max_by_key(|&i| (self.nodes[i].real, std::cmp::Reverse(i)));
            match best {
                Some(i) if self.nodes[i].real > 0 && pv.len() < 20 => node = i,
                _ => return pv,
            }
        }
    }
}

impl Node {
    fn with_prior(mv: u16, value: f32) -> Node {
        Node {
            mv,
            n: PRIOR_VISITS,
            w: PRIOR_VISITS * value,
            rave_n: PRIOR_VISITS,
            rave_w: PRIOR_VISITS * value,
            real: 0,
            real_w: 0.0,
            first_child: 0,
            children: 0,
        }
    }
}

/// A heuristic guess of how good `p` is for `color`, in 0..1 (0.5 neutral).
fn prior(board: &Board, color: Color, p: Pt, last: Option<Pt>, patterns: bool) -> f32 {
    let own = color.cell();
    let enemy = color.opponent().cell();
    let mut value: f32 = 0.5;
    let mut near_stones = false;
    for n in board.neighbors(p) {
        let cell = board.cells[n.idx()];
        if cell == enemy && board.liberties(n) == 1 {
            value += 0.2 + 0.02 * board.chain_len(n).min(10) as f32; // captures
        }
        if cell == own && board.liberties(n) == 1 {
            value += 0.15; // gives an own chain in atari a way out
        }
        near_stones |= cell == own || cell == enemy;
    }
    if playout::is_self_atari(board, color, p) {
        let joins = board
            .neighbors(p)
            .iter()
            .any(|q| board.cells[q.idx()] == own);
        value -= if joins { 0.35 } else { 0.15 };
    }
    if patterns && pattern::matches(board, p) {
        value += 0.1;
    }
    for d in board.diagonals(p) {
        let cell = board.cells[d.idx()];
        near_stones |= cell == own || cell == enemy;
    }
    let (col, row) = board.col_row(p);
    let size = board.size();
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row);
    if size >= 9 && !near_stones {
        value += match line {
            0 => -0.15,
            1 => -0.05,
            2 | 3 => 0.05,
            _ => 0.0,
        };
    }
    if let Some(last) = last {
        let (lc, lr) = board.col_row(last);
        if col.abs_diff(lc) + row.abs_diff(lr) <= 2 {
            value += 0.05;
        }
    }
    value.clamp(0.05, 0.95)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searched(board: &Board, playouts: u64) -> Tree {
        let root = Root {
            board,
            to_move: Color::Black,
            komi: 0.5,
            passes: 0,
            banned_hashes: &[],
        };
        let cfg = Config {
            policy: Policy { patterns: true },
            pattern_priors: true,
            rave_equivalence: 3000.0,
            expand_at: 2,
            explore: 0.05,
        };
        let limits = Limits {
            deadline: Instant::now() + std::time::Duration::from_secs(60),
            max_playouts: playouts,
        };
        let mut out = search(&root, cfg, limits, 5, 1, None);
        out.trees.pop().expect("one tree")
    }

    /// Moves and real visits of the whole tree below `node`, depth first.
    fn shape(tree: &Tree, node: usize) -> Vec<(u16, u32, usize)> {
        let mut out = vec![(tree.nodes[node].mv, tree.nodes[node].real, 0)];
        for c in tree.child_range(node) {
            out.extend(shape(tree, c).into_iter().map(|(m, r, d)| (m, r, d + 1)));
        }
        out
    }

    #[test]
    fn a_subtree_keeps_every_node_below_its_root() {
        let tree = searched(&Board::new(5), 400);
        let child = tree
            .child_range(0)
            .max_by_key(|&i| tree.nodes[i].real)
            .expect("children");
        let sub = tree.subtree(child);
        assert!(sub.len() > 1 && sub.len() < tree.len());
        assert_eq!(sub.playouts(), tree.nodes[child].real);
        assert_eq!(shape(&sub, 0), shape(&tree, child));
    }

    #[test]
    fn a_kept_root_loses_the_moves_superko_bans() {
        let board = Board::new(5);
        let mut tree = searched(&board, 100);
        let before: Vec<Option<Pt>> = tree.root_moves().collect();
        let banned_move = before[3].expect("a stone");
        let banned = [board.hash_after(Color::Black, banned_move).unwrap()];
        tree.drop_root_children(&board, Color::Black, &banned);
        let after: Vec<Option<Pt>> = tree.root_moves().collect();
        let mut want = before.clone();
        want.remove(3);
        assert_eq!(after, want);
    }
}
