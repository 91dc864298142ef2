//! Monte Carlo tree search: UCT with RAVE (all-moves-as-first) values and heuristic priors, one
//! playout per iteration. All threads grow one shared tree without a lock (tree parallelism):
//! node statistics are atomics, and a thread claims a leaf before expanding it. A thread counts
//! its visit of a node when it chooses the node and the win only when it backs up, so until then
//! the visit is a virtual loss and the other threads tend to choose other paths. A search on one
//! thread bounded by a playout count is deterministic for a seed; on several threads it depends
//! on how they interleave. A search may start from a tree kept from an earlier one (see
//! `reuse`): it then continues from its statistics.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicUsize};
use std::sync::OnceLock;
use std::time::Instant;

use rand::SeedableRng;

use super::super::board::{Board, Color, Pt, EMPTY};
use super::playout::{self, Move, Policy};
use super::{count, ladder, shape};
use rand::rngs::SmallRng;

/// How a search behaves (`normal` and `hard` differ here).
#[derive(Clone, Copy, Debug)]
pub(super) struct Config {
    pub policy: Policy,
    /// Blend the move weights learned from GNU Go's games (`shape`) into the priors of new
    /// tree nodes.
    pub learned_priors: bool,
    /// RAVE equivalence: around this many real visits, RAVE and real values weigh the same.
    pub rave_equivalence: f32,
    /// Real visits a leaf needs before it is expanded.
    pub expand_at: u32,
    /// UCT exploration constant (small: priors and RAVE do most of the exploring).
    pub explore: f32,
    /// Progressive bias: a child's prior, less 0.5, times this over its real visits plus one is
    /// added to its value, so heuristics steer a wide node until its playouts speak.
    pub prior_bias: f32,
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
    /// The game is scored with dead stones taken off (GTP's convention), not by counting every
    /// stone (Parlor's): a game that ends in the tree is counted without the stones the
    /// playouts see die.
    pub dead_stones_removed: bool,
}

/// When to stop.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub deadline: Instant,
    pub max_playouts: u64,
}

/// One move's statistics at the root.
#[derive(Clone, Debug)]
pub(super) struct RootChild {
    pub play: Option<Pt>,
    pub visits: u32,
    /// Win rate for the side to move at the root: observed, or the prior before any visit.
    pub win_rate: f32,
}

/// A finished search.
pub(super) struct Outcome {
    /// The search tree, for reuse after the move.
    pub tree: Tree,
    /// Playouts the tree held before this search (kept from an earlier one).
    pub reused: u64,
    pub children: Vec<RootChild>,
    pub playouts: u64,
    /// Moves after the most visited root move.
    pub pv: Vec<Option<Pt>>,
    /// Per on-board point (row-major from the bottom left): share of playouts Black owned it.
    pub ownership: Vec<f32>,
}

/// Padded index 0 is a border point, so it stands for "pass" in a node.
const PASS: u16 = 0;
/// Nodes in one chunk of a tree's arena (512 KB).
const CHUNK: usize = 1 << 14;
/// Stop adding nodes past this many: a tree stays within 128 MiB (32 bytes a node). A node's
/// children take a slot each, so a 9×9 search adds about 18 nodes a playout early in a game: this
/// holds a second's search on a fast core with the kept tree, and a full tree still plays its
/// playouts from the leaves it has, only no deeper.
const MAX_NODES: usize = 256 * CHUNK;
/// `Node::children` while a thread is adding the children.
const EXPANDING: u16 = u16::MAX;
/// Bits of a node's `mv` that hold the move: padded indices of a 25×25 board stay below 1024.
const MOVE_BITS: u32 = 10;
/// The prior is kept in the six bits above the move, as a multiple of 1/63.
const PRIOR_GRADES: f32 = 63.0;
const _: () = assert!((Board::MAX_SIZE + 2) * (Board::MAX_SIZE + 2) <= 1 << MOVE_BITS);
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

/// An f32 stored in an `AtomicU32`.
#[derive(Debug, Default)]
struct AtomicF32(AtomicU32);

impl AtomicF32 {
    fn get(&self) -> f32 {
        f32::from_bits(self.0.load(Relaxed))
    }

    fn set(&self, value: f32) {
        self.0.store(value.to_bits(), Relaxed);
    }

    /// Adds `value` atomically (a compare-and-swap loop).
    fn add(&self, value: f32) {
        let _ = self.0.fetch_update(Relaxed, Relaxed, |bits| {
            Some((f32::from_bits(bits) + value).to_bits())
        });
    }

    /// Adds `value` with a plain load and store: another thread's add at the same moment may be
    /// lost.
    fn add_racy(&self, value: f32) {
        self.set(self.get() + value);
    }
}

/// A tree node, shared by the search threads. Real statistics and the children change by atomic
/// read-modify-writes, so they add up exactly. The RAVE statistics, updated for dozens of
/// children after every playout, change by `AtomicF32::add_racy`: a locked instruction for each
/// would slow a single thread down, and an update lost now and then is noise.
#[derive(Debug, Default)]
struct Node {
    /// The move (a padded index below `1 << MOVE_BITS`) with the prior in the bits above it: both
    /// are set once, when the node is made.
    mv: AtomicU16,
    /// 0 for a leaf, `EXPANDING` while a thread adds the children, else how many children there
    /// are from `first_child` on (stored with Release once they are written).
    children: AtomicU16,
    first_child: AtomicU32,
    /// Visits and summed value (for the player who made `mv`, see `playout::value`), priors
    /// included: what selection reads. A visit counts from the moment a thread chooses the node,
    /// its value once the thread backs up: in between it is a virtual loss.
    n: AtomicF32,
    w: AtomicF32,
    rave_n: AtomicF32,
    rave_w: AtomicF32,
    /// Backed-up visits, and their wins only (no prior, no margin): the reported win rate.
    real: AtomicU32,
    real_w: AtomicF32,
}

const _: () = assert!(
    std::mem::size_of::<Node>() <= 32,
    "MAX_NODES assumes 32-byte nodes"
);

/// The search tree, one for all threads: node 0 is the root, the children of a node are
/// consecutive within one chunk. Threads add nodes without a lock, claiming slots by an atomic
/// count; nodes never move. Chunks are allocated as the tree grows, so a short search does not
/// pay for the whole arena.
pub(super) struct Tree {
    chunks: [OnceLock<Box<[Node]>>; MAX_NODES / CHUNK],
    /// Slots claimed so far (those skipped at the end of a chunk included).
    len: AtomicUsize,
}

/// Runs the search on `threads` threads, all growing one tree: `kept` (rooted at this position,
/// from an earlier search) or a fresh one.
pub(super) fn search(
    root: &Root,
    cfg: Config,
    limits: Limits,
    seed: u64,
    threads: usize,
    kept: Option<Tree>,
) -> Outcome {
    let threads = threads.max(1);
    let mut tree = kept.unwrap_or_default();
    let reused = u64::from(tree.playouts());
    if tree.is_expanded(0) {
        // Grown below the root of an earlier search, without the superko filter.
        tree.drop_root_children(root.board, root.to_move, root.banned_hashes);
    } else {
        tree = Tree::default();
        let mut fresh = Vec::new();
        tree.expand(
            0,
            root.board,
            root.to_move,
            cfg,
            Some(root.banned_hashes),
            &mut fresh,
        );
    }
    // Playouts started, over all threads: the search stops at `max_playouts` exactly.
    let started = AtomicU64::new(0);
    let grown: Vec<Grown> = if threads == 1 {
        vec![grow(&tree, root, cfg, limits, seed, &started)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|i| {
                    let seed = seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    let (tree, started) = (&tree, &started);
                    scope.spawn(move || grow(tree, root, cfg, limits, seed, started))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("search thread panicked"))
                .collect()
        })
    };
    summary(root, tree, reused, &grown)
}

/// What one thread's playouts added up to.
struct Grown {
    playouts: u64,
    /// The playouts whose end positions `owned` counts: all of them, but for games that ended
    /// in the tree when dead stones come off (their end positions would only repeat which
    /// stones the counts already see alive).
    tallied: u64,
    /// Per on-board point, how many of those Black owned.
    owned: Vec<u32>,
}

/// The outcome of a search from its tree and each thread's playouts and ownership counts.
fn summary(root: &Root, tree: Tree, reused: u64, grown: &[Grown]) -> Outcome {
    let (first, kids) = tree.children(0);
    let children: Vec<RootChild> = kids
        .iter()
        .map(|c| {
            let mv = c.mv();
            let real = c.real.load(Relaxed);
            // The observed win rate once the move has been tried, else the prior's guess.
            let win_rate = if real > 0 {
                c.real_w.get() / real as f32
            } else {
                c.w.get() / c.n.get()
            };
            RootChild {
                play: (mv != PASS).then_some(Pt(mv)),
                visits: real,
                win_rate,
            }
        })
        .collect();
    let playouts: u64 = grown.iter().map(|g| g.playouts).sum();
    let tallied: u64 = grown.iter().map(|g| g.tallied).sum();
    let size = root.board.size();
    let mut ownership = vec![0.0f32; size * size];
    for g in grown {
        for (o, &c) in ownership.iter_mut().zip(&g.owned) {
            *o += c as f32;
        }
    }
    for o in &mut ownership {
        *o /= tallied.max(1) as f32;
    }
    let best = children
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (c.visits, std::cmp::Reverse(*i)));
    let pv = match best {
        Some((k, _)) => tree.principal_variation(first + k),
        None => Vec::new(),
    };
    Outcome {
        tree,
        reused,
        children,
        playouts,
        pv,
        ownership,
    }
}

/// One thread's part of the search: playouts into `tree` until the clock or the playout count
/// over all threads (`started`) says stop.
fn grow(
    tree: &Tree,
    root: &Root,
    cfg: Config,
    limits: Limits,
    seed: u64,
    started: &AtomicU64,
) -> Grown {
    let mut rng = SmallRng::seed_from_u64(seed);
    let size = root.board.size();
    let mut owned = vec![0u32; size * size];
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut moves: Vec<Move> = Vec::with_capacity(4 * size * size);
    let mut mark = vec![0u8; root.board.cells.len()];
    let mut fresh = Vec::with_capacity(size * size + 1);
    let mut playouts = 0u64;
    let mut tallied = 0u64;
    let mut target = Target::default();
    let mut board = root.board.clone();
    loop {
        if playouts.is_multiple_of(CLOCK_EVERY) && Instant::now() >= limits.deadline && playouts > 0
        {
            break;
        }
        if started.fetch_add(1, Relaxed) >= limits.max_playouts {
            break;
        }
        path.clear();
        moves.clear();
        board.copy_from(root.board);
        let mut color = root.to_move;
        let mut passes = root.passes;
        let mut node = 0usize;
        path.push(0);
        // Descend, a virtual loss on each node chosen (see `Node::n`).
        while passes < 2 {
            if !tree.is_expanded(node) {
                if node != 0 && tree.node(node).real.load(Relaxed) >= cfg.expand_at {
                    tree.try_expand(node, &board, color, cfg, &mut fresh);
                }
                if !tree.is_expanded(node) {
                    break;
                }
            }
            node = tree.select(node, cfg);
            let chosen = tree.node(node);
            chosen.n.add(1.0);
            let mv = chosen.mv();
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
        let black_area = if passes >= 2 && root.dead_stones_removed {
            // The game ended inside the tree, counted without the stones this thread's
            // playouts see die.
            let share = |i: usize| match tallied {
                0 => 0.5,
                n => owned[i] as f32 / n as f32,
            };
            count::area_margin_without_dead(&board, share)
        } else {
            let quick_score = playout::tally(&board, &mut owned);
            tallied += 1;
            if passes >= 2 {
                // The game ended inside the tree: the real count, not the playout's quick one.
                count::area_margin(&board)
            } else {
                quick_score
            }
        };
        let margin = black_area as f32 - root.komi;
        let result = PlayoutResult {
            value: playout::value(margin - target.black_margin(root.to_move), size),
            win: playout::outcome(margin),
        };
        target.add(margin, result.win);
        tree.backup(&path, &moves, tree_moves, root.to_move, result, &mut mark);
        playouts += 1;
    }
    Grown {
        playouts,
        tallied,
        owned,
    }
}

/// Dynamic komi for a lost position. Once a thread's playouts show the side to move at the root
/// winning under `LOST_SHARE` of them, it judges its further playouts against the margin they
/// reach on average rather than against zero: every move loses, but the search still tells a
/// move that loses by less (a group saved, a boundary held) from one that gives up more.
/// Won positions keep plain win or loss: playing for a bigger margin there risks the win.
#[derive(Default)]
struct Target {
    playouts: u32,
    /// Black's margins summed, and Black's wins.
    margins: f32,
    black_wins: f32,
}

/// Playouts a thread sees before it judges the position lost or not.
const TARGET_AFTER: u32 = 256;
/// A position is lost below this share of won playouts.
const LOST_SHARE: f32 = 0.15;

impl Target {
    /// Counts a playout that Black won by `black_margin`, `black_win` its outcome.
    fn add(&mut self, black_margin: f32, black_win: f32) {
        self.playouts += 1;
        self.margins += black_margin;
        self.black_wins += black_win;
    }

    /// The margin Black must beat for a playout to count as a win: 0, or the average margin
    /// while the root's side is lost.
    fn black_margin(&self, to_move: Color) -> f32 {
        if self.playouts < TARGET_AFTER {
            return 0.0;
        }
        let n = self.playouts as f32;
        let black_share = self.black_wins / n;
        let share = if to_move == Color::Black {
            black_share
        } else {
            1.0 - black_share
        };
        if share < LOST_SHARE {
            self.margins / n
        } else {
            0.0
        }
    }
}

impl Default for Tree {
    /// A tree of one unexpanded root without statistics.
    fn default() -> Tree {
        let tree = Tree {
            chunks: std::array::from_fn(|_| OnceLock::new()),
            len: AtomicUsize::new(0),
        };
        tree.alloc(1).expect("room for the root");
        tree
    }
}

impl Tree {
    /// The playouts this tree holds: the root's real visits once it is expanded (a search
    /// starts over from an unexpanded root).
    pub(super) fn playouts(&self) -> u32 {
        if self.is_expanded(0) {
            self.node(0).real.load(Relaxed)
        } else {
            0
        }
    }

    /// The root child for `play` (None: pass), if the root was expanded with it.
    pub(super) fn root_child(&self, play: Option<Pt>) -> Option<usize> {
        let mv = play.map_or(PASS, |p| p.0);
        let (first, kids) = self.children(0);
        let k = kids.iter().position(|c| c.mv() == mv)?;
        Some(first + k)
    }

    /// The moves of the root's children, in order (None: pass).
    pub(super) fn root_moves(&self) -> impl Iterator<Item = Option<Pt>> + '_ {
        self.children(0).1.iter().map(|c| {
            let mv = c.mv();
            (mv != PASS).then_some(Pt(mv))
        })
    }

    /// The subtree below `node` as a tree of its own (`node` becomes the root), the rest
    /// dropped: what is kept of a search after its move is played.
    pub(super) fn subtree(&self, node: usize) -> Tree {
        let tree = Tree::default();
        tree.node(0).copy_stats(self.node(node));
        // Breadth first: each entry is a node's index here and in the new tree.
        let mut queue = std::collections::VecDeque::from([(node, 0)]);
        while let Some((old, new)) = queue.pop_front() {
            let (first, kids) = self.children(old);
            if kids.is_empty() {
                continue;
            }
            let Some(to) = tree.alloc(kids.len()) else {
                break; // cannot happen: the subtree is smaller than the tree
            };
            for (k, c) in kids.iter().enumerate() {
                tree.node(to + k).copy_stats(c);
                queue.push_back((first + k, to + k));
            }
            let parent = tree.node(new);
            parent.first_child.store(to as u32, Relaxed);
            parent.children.store(kids.len() as u16, Relaxed);
        }
        tree
    }

    /// Node slots claimed (memory: 32 bytes each).
    pub(super) fn len(&self) -> usize {
        self.len.load(Relaxed).min(MAX_NODES)
    }

    /// Removes the root's children that the superko rule bans (a tree grown below an earlier
    /// root was expanded without it); the others keep their order and statistics.
    fn drop_root_children(&mut self, board: &Board, color: Color, banned: &[u64]) {
        if banned.is_empty() {
            return;
        }
        let kids = self.children(0).1;
        let mut kept = 0;
        for from in kids {
            let mv = from.mv();
            let allowed = mv == PASS
                || board
                    .hash_after(color, Pt(mv))
                    .is_none_or(|h| !banned.contains(&h));
            if allowed {
                let to = &kids[kept];
                to.copy_stats(from);
                let grandchild = from.first_child.load(Relaxed);
                to.first_child.store(grandchild, Relaxed);
                to.children.store(from.children.load(Relaxed), Relaxed);
                kept += 1;
            }
        }
        self.node(0).children.store(kept as u16, Relaxed);
    }

    fn node(&self, i: usize) -> &Node {
        &self.chunks[i / CHUNK].get().expect("a claimed slot")[i % CHUNK]
    }

    /// Whether `node` has children (another thread may be adding them).
    fn is_expanded(&self, node: usize) -> bool {
        let n = self.node(node).children.load(Acquire);
        n != 0 && n != EXPANDING
    }

    /// The index of the first child of `node` and its children (none while it is a leaf).
    fn children(&self, node: usize) -> (usize, &[Node]) {
        let n = self.node(node);
        let count = n.children.load(Acquire);
        if count == 0 || count == EXPANDING {
            return (0, &[]);
        }
        let first = n.first_child.load(Relaxed) as usize;
        (first, self.slots(first, usize::from(count)))
    }

    /// `count` claimed slots from `first` on, within one chunk.
    fn slots(&self, first: usize, count: usize) -> &[Node] {
        let chunk = self.chunks[first / CHUNK].get().expect("claimed slots");
        &chunk[first % CHUNK..][..count]
    }

    /// Claims `count` consecutive slots within one chunk; None once the tree is full.
    fn alloc(&self, count: usize) -> Option<usize> {
        let mut start = 0;
        let _ = self.len.fetch_update(Relaxed, Relaxed, |len| {
            start = if len % CHUNK + count > CHUNK {
                len.next_multiple_of(CHUNK)
            } else {
                len
            };
            Some((start + count).min(MAX_NODES))
        });
        if start + count > MAX_NODES {
            return None;
        }
        self.chunks[start / CHUNK].get_or_init(|| (0..CHUNK).map(|_| Node::default()).collect());
        Some(start)
    }

    /// Expands leaf `node` unless the tree is full or another thread already claimed it.
    fn try_expand(
        &self,
        node: usize,
        board: &Board,
        color: Color,
        cfg: Config,
        fresh: &mut Vec<(u16, f32, f32)>,
    ) {
        let claimed = self.len.load(Relaxed) < MAX_NODES
            && self
                .node(node)
                .children
                .compare_exchange(0, EXPANDING, Acquire, Relaxed)
                .is_ok();
        if claimed {
            self.expand(node, board, color, cfg, None, fresh);
        }
    }

    /// Adds the children of `node` (claimed by this thread, or the root before the search): every
    /// legal move of `color` that does not fill its own eye, and the pass, each with a heuristic
    /// prior. `node` stays a leaf if the tree is full. `fresh` is room for the new moves.
    fn expand(
        &self,
        node: usize,
        board: &Board,
        color: Color,
        cfg: Config,
        banned: Option<&[u64]>,
        fresh: &mut Vec<(u16, f32, f32)>,
    ) {
        fresh.clear();
        let last = board.last_move();
        let weights = shape::weights();
        let mut stones = 0;
        for p in board.points() {
            if board.cells[p.idx()] != EMPTY {
                stones += 1;
                continue;
            }
            if !shape::is_candidate(board, color, p) {
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
            let hand = prior(board, color, p, last);
            let strength = if cfg.learned_priors {
                weights.strength(&shape::features(board, color, p, last))
            } else {
                0.0
            };
            fresh.push((p.0, hand, strength));
        }
        if cfg.learned_priors {
            blend_learned(fresh);
        }
        // Passing is weak while much of the board is open; near the end it is a real option.
        let filled = stones as f32 / (board.size() * board.size()) as f32;
        let pass_value = if fresh.is_empty() {
            0.5
        } else {
            (0.1 + 0.4 * filled).min(0.45)
        };
        fresh.push((PASS, pass_value, 0.0));
        let parent = self.node(node);
        let Some(first) = self.alloc(fresh.len()) else {
            parent.children.store(0, Release);
            return;
        };
        for (&(mv, value, _), child) in fresh.iter().zip(self.slots(first, fresh.len())) {
            child.init(mv, value);
        }
        parent.first_child.store(first as u32, Relaxed);
        parent.children.store(fresh.len() as u16, Release);
    }

    /// The child with the best RAVE-blended value (first one on ties, for determinism).
    fn select(&self, node: usize, cfg: Config) -> usize {
        let parent_n = self.node(node).real.load(Relaxed).max(1) as f32;
        let log_n = parent_n.ln();
        let per_equivalence = 1.0 / cfg.rave_equivalence;
        let (first, kids) = self.children(node);
        let mut best = 0;
        let mut best_value = f32::NEG_INFINITY;
        for (k, c) in kids.iter().enumerate() {
            let (n, w) = (c.n.get(), c.w.get());
            let (rave_n, rave_w) = (c.rave_n.get(), c.rave_w.get());
            // (1 - β)·w/n + β·rave_w/rave_n with β = rave_n / (rave_n + n + rave_n·n/equivalence),
            // over one division (n > 0: a node starts with its prior's visits); plain w/n before
            // any RAVE sample.
            let share = rave_n * per_equivalence;
            let mixed = (w * (1.0 + share) + rave_w) / (n + rave_n + share * n);
            let value = mixed
                + cfg.explore * (log_n / n).sqrt()
                + cfg.prior_bias * (c.prior() - 0.5) / (c.real.load(Relaxed) + 1) as f32;
            if value > best_value {
                best_value = value;
                best = k;
            }
        }
        first + best
    }

    /// Adds a finished playout to the path (the win of each node's visit, which turns its virtual
    /// loss into a real visit) and to the RAVE statistics of every child along it whose move the same colour played
    /// first later in the playout.
    fn backup(
        &self,
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
        self.node(0).real.fetch_add(1, Relaxed);
        for (k, &idx) in path.iter().enumerate().skip(1) {
            let color = moves[k - 1].1;
            let node = self.node(idx as usize);
            node.w.add(score(color));
            node.real.fetch_add(1, Relaxed);
            node.real_w.add(win(color));
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
            let color = if k % 2 == 0 {
                to_move
            } else {
                to_move.opponent()
            };
            let value = score(color);
            for c in self.children(path[k] as usize).1 {
                let mv = c.mv();
                if mv != PASS && mark[usize::from(mv)] == color.cell() {
                    c.rave_n.add_racy(1.0);
                    c.rave_w.add_racy(value);
                }
            }
        }
    }

    /// The most visited line below root child `start`, including it.
    fn principal_variation(&self, start: usize) -> Vec<Option<Pt>> {
        let mut pv = Vec::new();
        let mut node = start;
        loop {
            let mv = self.node(node).mv();
            pv.push((mv != PASS).then_some(Pt(mv)));
            let (first, kids) = self.children(node);
            let best = kids
                .iter()
                .enumerate()
                .max_by_key(|&(k, c)| (c.real.load(Relaxed), std::cmp::Reverse(k)));
            match best {
                Some((k, c)) if c.real.load(Relaxed) > 0 && pv.len() < 20 => node = first + k,
                _ => return pv,
            }
        }
    }
}

impl Node {
    /// The move: a padded board index, or `PASS`.
    fn mv(&self) -> u16 {
        self.mv.load(Relaxed) & ((1 << MOVE_BITS) - 1)
    }

    /// The heuristic prior the node was made with, to within 1/63.
    fn prior(&self) -> f32 {
        f32::from(self.mv.load(Relaxed) >> MOVE_BITS) / PRIOR_GRADES
    }

    /// Makes this unused slot a move with a prior and no visits.
    fn init(&self, mv: u16, value: f32) {
        debug_assert!(mv < 1 << MOVE_BITS);
        let grade = (value.clamp(0.0, 1.0) * PRIOR_GRADES).round() as u16;
        self.mv.store(mv | grade << MOVE_BITS, Relaxed);
        self.n.set(PRIOR_VISITS);
        self.w.set(PRIOR_VISITS * value);
        self.rave_n.set(PRIOR_VISITS);
        self.rave_w.set(PRIOR_VISITS * value);
    }

    /// Copies the move and statistics of `from` (not its children).
    fn copy_stats(&self, from: &Node) {
        self.mv.store(from.mv.load(Relaxed), Relaxed); // with its prior
        self.n.set(from.n.get());
        self.w.set(from.w.get());
        self.rave_n.set(from.rave_n.get());
        self.rave_w.set(from.rave_w.get());
        self.real.store(from.real.load(Relaxed), Relaxed);
        self.real_w.set(from.real_w.get());
    }
}

/// Share of the hand-made prior in `hard`'s blend; the rest is the learned one. The hand-made
/// prior knows what GNU Go's games rarely show: a big chain in atari is worth a lot.
const HAND_SHARE: f32 = 0.5;
/// How far the learned prior moves from 0.5 per unit of log relative strength.
const LEARNED_SLOPE: f32 = 0.15;

/// Turns the learned strengths of new children (their third field) into priors blended into
/// the hand-made ones (their second): a move as strong as the average candidate counts as 0.5.
fn blend_learned(fresh: &mut [(u16, f32, f32)]) {
    if fresh.is_empty() {
        return;
    }
    let uniform = fresh.len() as f32 / fresh.iter().map(|f| f.2).sum::<f32>();
    for (_, value, strength) in fresh.iter_mut() {
        let relative = (*strength * uniform).max(1e-6);
        let learned = 0.5 + 0.5 * (LEARNED_SLOPE * relative.ln()).tanh();
        *value = (HAND_SHARE * *value + (1.0 - HAND_SHARE) * learned).clamp(0.05, 0.95);
    }
}

/// A heuristic guess of how good `p` is for `color`, in 0..1 (0.5 neutral).
fn prior(board: &Board, color: Color, p: Pt, last: Option<Pt>) -> f32 {
    let own = color.cell();
    let enemy = color.opponent().cell();
    let mut value: f32 = 0.5;
    let mut near_stones = false;
    let mut extends = false;
    let mut ladder_bonus: f32 = 0.0;
    for n in board.neighbors(p) {
        let cell = board.cells[n.idx()];
        if cell == enemy && board.liberties(n) == 1 {
            value += 0.2 + 0.02 * board.chain_len(n).min(10) as f32; // captures
        }
        if cell == enemy && board.liberties(n) == 2 && ladder::captures(board, color, p, n) {
            // Gives atari, and the ladder that follows captures the chain.
            ladder_bonus = ladder_bonus.max(0.15 + 0.02 * board.chain_len(n).min(10) as f32);
        }
        if cell == own && board.liberties(n) == 1 {
            value += 0.15; // gives an own chain in atari a way out
            extends = true;
        }
        near_stones |= cell == own || cell == enemy;
    }
    value += ladder_bonus;
    if playout::is_self_atari(board, color, p) {
        let joins = board.stones_next_to(color, p) != 0;
        // A lone stone in atari may be a throw-in; several are a blunder unless they are a
        // small sacrifice that spoils the opponent's eye.
        let blunder =
            joins && !playout::sacrifice_in_eye_space(board, color, p, board.empty_neighbours(p));
        value -= if blunder { 0.35 } else { 0.15 };
    } else if extends && ladder::caught_after(board, color, p) {
        // The way out runs into a ladder that captures the chain anyway, one stone bigger:
        // it only feeds the opponent.
        value -= 0.5;
    }
    for d in board.diagonals(p) {
        let cell = board.cells[d.idx()];
        near_stones |= cell == own || cell == enemy;
    }
    let (col, row) = board.col_row(p);
    let size = board.size();
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row);
    if size >= 9 && !near_stones {
        // On a big board the open third and fourth lines are where the points are; the first two
        // lines are small until the end.
        let big = size >= 13;
        value += match line {
            0 => -0.15 - if big { 0.1 } else { 0.0 },
            1 => -0.05 - if big { 0.05 } else { 0.0 },
            2 | 3 => 0.05 + if big { 0.05 } else { 0.0 },
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

    #[test]
    fn the_prior_spares_a_sacrifice_in_the_opponents_eye_space() {
        // Black's d4 joins c4 and e4 into a chain whose last liberty is c3. Inside White's
        // eye space that is a throw-in the playouts make; with c2 open it only loses stones.
        let eye_space = [
            ".......", "..OOO..", ".OOOOO.", ".OX.XO.", ".O.OOO.", "..O....", ".......",
        ];
        let mut open = eye_space;
        open[5] = ".......";
        let priors = [eye_space, open].map(|rows| {
            let b = Board::from_rows(&rows);
            let p = b.pt(3, 3);
            assert!(playout::is_self_atari(&b, Color::Black, p), "{b:?}");
            prior(&b, Color::Black, p, None)
        });
        assert!(priors[0] > priors[1] + 0.1, "{priors:?}");
    }

    #[test]
    fn a_lost_side_plays_against_its_average_margin() {
        // Black loses 90 % of the playouts, by 20 points on average.
        let mut target = Target::default();
        for k in 0..TARGET_AFTER {
            let margin = if k % 10 == 0 { 10.0 } else { -23.3333 };
            target.add(margin, playout::outcome(margin));
        }
        let average = target.margins / TARGET_AFTER as f32;
        assert!((average + 20.0).abs() < 0.2, "{average}");
        assert_eq!(
            target.black_margin(Color::Black),
            average,
            "lost: play for points"
        );
        assert_eq!(target.black_margin(Color::White), 0.0, "won: play to win");
        // Too few playouts to judge yet.
        let mut early = Target::default();
        early.add(-20.0, 0.0);
        assert_eq!(early.black_margin(Color::Black), 0.0);
        // A close game keeps plain wins and losses.
        let mut close = Target::default();
        for k in 0..TARGET_AFTER {
            let margin = if k % 3 == 0 { 5.0 } else { -5.0 };
            close.add(margin, playout::outcome(margin));
        }
        assert_eq!(close.black_margin(Color::Black), 0.0);
        assert_eq!(close.black_margin(Color::White), 0.0);
    }

    fn searched(board: &Board, playouts: u64, threads: usize) -> Outcome {
        let root = Root {
            board,
            to_move: Color::Black,
            komi: 0.5,
            passes: 0,
            banned_hashes: &[],
            dead_stones_removed: false,
        };
        let cfg = Config {
            policy: Policy { patterns: true },
            learned_priors: true,
            rave_equivalence: 3000.0,
            expand_at: 2,
            explore: 0.05,
            prior_bias: 0.2,
        };
        let limits = Limits {
            deadline: Instant::now() + std::time::Duration::from_secs(60),
            max_playouts: playouts,
        };
        search(&root, cfg, limits, 5, threads, None)
    }

    /// The indices of the children of `node`.
    fn kids(tree: &Tree, node: usize) -> std::ops::Range<usize> {
        let (first, kids) = tree.children(node);
        first..first + kids.len()
    }

    /// Moves and real visits of the whole tree below `node`, depth first.
    fn shape(tree: &Tree, node: usize) -> Vec<(u16, u32, usize)> {
        let n = tree.node(node);
        let mut out = vec![(n.mv(), n.real.load(Relaxed), 0)];
        for c in kids(tree, node) {
            out.extend(shape(tree, c).into_iter().map(|(m, r, d)| (m, r, d + 1)));
        }
        out
    }

    /// Every node below `node`, depth first, with its depth.
    fn walk(tree: &Tree, node: usize, depth: usize, out: &mut Vec<(usize, usize)>) {
        out.push((node, depth));
        for c in kids(tree, node) {
            walk(tree, c, depth + 1, out);
        }
    }

    #[test]
    fn a_subtree_keeps_every_node_below_its_root() {
        let tree = searched(&Board::new(5), 400, 1).tree;
        let child = kids(&tree, 0)
            .max_by_key(|&i| tree.node(i).real.load(Relaxed))
            .expect("children");
        let sub = tree.subtree(child);
        assert!(sub.len() > 1 && sub.len() < tree.len());
        assert_eq!(sub.playouts(), tree.node(child).real.load(Relaxed));
        assert_eq!(shape(&sub, 0), shape(&tree, child));
    }

    #[test]
    fn the_priors_read_ladders() {
        // 13×13: Black's d10 is in atari at e10, where White's ladder catches it (it runs down
        // and to the right, through j4); Black's stone at j4 in the second position breaks it.
        let rows = |j4: char| {
            [
                ".............",
                ".............",
                "...OO........",
                "..OX.........",
                "...O.........",
                ".............",
                ".............",
                ".............",
                ".............",
                &format!(".........{j4}..."),
                ".............",
                ".............",
                ".............",
            ]
            .map(str::to_string)
        };
        let prior_at = |rows: &[String; 13], color: Color, point: (usize, usize)| {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let b = Board::from_rows(&rows);
            prior(&b, color, b.pt(point.0, point.1), None)
        };
        let (e10, d5, f10) = ((4, 9), (3, 4), (5, 9));
        let caught = rows('.');
        let breaker = rows('X');
        // The ladder-dead extension ranks below a quiet move; with the breaker it is the best.
        assert!(prior_at(&caught, Color::Black, e10) < prior_at(&caught, Color::Black, d5) - 0.2);
        assert!(prior_at(&breaker, Color::Black, e10) > prior_at(&breaker, Color::Black, d5));
        // White: after Black's extension, the atari at f10 captures in the ladder only without
        // the breaker.
        let extended = |mut rows: [String; 13]| {
            rows[3] = "..OXX........".to_string();
            rows
        };
        let with_ladder = prior_at(&extended(caught), Color::White, f10);
        let without = prior_at(&extended(breaker), Color::White, f10);
        assert!(with_ladder > without + 0.1, "{with_ladder} {without}");
    }

    #[test]
    fn a_kept_root_loses_the_moves_superko_bans() {
        let board = Board::new(5);
        let mut tree = searched(&board, 100, 1).tree;
        let before: Vec<Option<Pt>> = tree.root_moves().collect();
        let banned_move = before[3].expect("a stone");
        let banned = [board.hash_after(Color::Black, banned_move).unwrap()];
        tree.drop_root_children(&board, Color::Black, &banned);
        let after: Vec<Option<Pt>> = tree.root_moves().collect();
        let mut want = before.clone();
        want.remove(3);
        assert_eq!(after, want);
    }

    #[test]
    fn a_second_of_big_board_search_fits_in_the_tree() {
        // About what a fast core plays in a second on the empty 19×19 board: its tree outgrows
        // the 2^20 nodes that once capped it (and stopped it deepening) and still fits.
        let out = searched(&Board::new(19), 18_000, 1);
        let nodes = out.tree.len();
        assert!(nodes > 1 << 20 && nodes < MAX_NODES, "{nodes} nodes");
    }

    #[test]
    fn two_threads_grow_one_tree() {
        let mut board = Board::new(9);
        board.play(Color::Black, board.pt(4, 4)).unwrap();
        let out = searched(&board, 4000, 2);
        let tree = &out.tree;
        assert_eq!(out.playouts, 4000);
        // Both threads' playouts are in the one tree, each once.
        assert_eq!(u64::from(tree.playouts()), out.playouts);
        let below_root: u32 = kids(tree, 0).map(|c| tree.node(c).real.load(Relaxed)).sum();
        assert_eq!(u64::from(below_root), out.playouts);
        let visits: u32 = out.children.iter().map(|c| c.visits).sum();
        assert_eq!(u64::from(visits), out.playouts);
        let mut nodes = Vec::new();
        walk(tree, 0, 0, &mut nodes);
        for &(node, _) in &nodes {
            let below: u32 = kids(tree, node)
                .map(|c| tree.node(c).real.load(Relaxed))
                .sum();
            assert!(below <= tree.node(node).real.load(Relaxed));
        }
        let depth = nodes.iter().map(|&(_, d)| d).max().unwrap_or(0);
        assert!(depth >= 4, "a tree of depth {depth}");
    }

    #[test]
    fn a_search_leaves_no_virtual_loss_and_no_claimed_leaf() {
        for threads in [1, 2, 4] {
            let out = searched(&Board::new(7), 3000, threads);
            let mut nodes = Vec::new();
            walk(&out.tree, 0, 0, &mut nodes);
            assert!(nodes.len() > 100, "{} nodes", nodes.len());
            for (node, _) in nodes.into_iter().skip(1) {
                // Every visit counted in `n` has been backed up (the root is never chosen).
                let n = out.tree.node(node);
                let real = n.real.load(Relaxed) as f32;
                assert_eq!(n.n.get(), PRIOR_VISITS + real, "{threads} threads");
                assert_ne!(n.children.load(Relaxed), EXPANDING, "{threads} threads");
            }
        }
    }
}
