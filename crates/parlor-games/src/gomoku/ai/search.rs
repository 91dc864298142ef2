//! `normal` and `hard`: iterative-deepening principal-variation search (negamax alpha-beta) with
//! a transposition table, threat-driven move generation, late-move reductions and fours past the
//! horizon, after VCF and VCT searches at the root. `hard` also drops the root moves the opponent
//! refutes by force, and deepens on several threads (lazy SMP over a shared table).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::patterns::class;
use super::position::Position;
use super::table::{Bound, Entry, Table};
use super::vcf::Vcf;
use super::vct::Vct;

/// A won position's score; a win in `n` plies from the root scores `WIN - n`.
pub(crate) const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search.
const WIN_THRESHOLD: i32 = WIN - 10_000;
const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 96;
const CLOCK_INTERVAL: u64 = 255;
/// The opponent's threat searches after each root candidate (see [`Searcher::refute`]).
const REFUTE_VCF_FOURS: u8 = 16;
const REFUTE_VCF_NODES: u64 = 2_000;
const REFUTE_VCT_THREATS: u8 = 6;
const REFUTE_VCT_NODES: u64 = 4_000;
/// Moves searched at full depth before late-move reductions start.
const LATE_MOVES: usize = 4;
/// Most fours played past the horizon.
const QUIESCENCE_FOURS: u32 = 6;

/// How hard to think.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Deepest nominal depth of the iterative deepening.
    pub max_depth: i32,
    /// Stop starting new iterations after the deepening has run this long (the root threat
    /// searches before it do not count: they are bounded on their own).
    pub soft: Duration,
    /// Abandon the search in progress after this long.
    pub hard: Duration,
    /// Longest VCF (in own fours) tried at the root.
    pub root_vcf_fours: u8,
    /// Node budget of the root VCF.
    pub root_vcf_nodes: u64,
    /// Longest VCT (in own threats) tried at the root, after the VCF; 0 turns it off.
    pub root_vct_threats: u8,
    pub root_vct_nodes: u64,
    /// Candidate moves kept at the root and below it.
    pub root_width: usize,
    pub width: usize,
}

/// The search's answer, in board indices of [`Position`].
pub(crate) struct Found {
    pub best: usize,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<usize>,
}

/// Slots of the transposition table (as a power of two): 4 MiB, more than a second's search
/// fills.
const TABLE_BITS: u32 = 18;

/// Finds a move for the side to move of `pos` within `limits` from `start`, on `threads`
/// threads. The position must have an empty point.
pub(crate) fn search(pos: Position, limits: Limits, start: Instant, threads: usize) -> Found {
    let table = Table::new(TABLE_BITS);
    let stop = AtomicBool::new(false);
    Searcher::new(pos, limits, start, &table, &stop).run(threads.max(1))
}

/// One thread's search. Threads share the transposition table and the stop flag.
pub(crate) struct Searcher<'a> {
    pos: Position,
    limits: Limits,
    start: Instant,
    deadline: Instant,
    nodes: u64,
    aborted: bool,
    tt: &'a Table,
    /// Set when the search is over, by the clock or by the thread whose answer counts.
    stop: &'a AtomicBool,
    vcf: Vcf,
    vct: Vct,
    pv: Vec<[u16; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    move_buffers: Vec<Vec<(i32, usize)>>,
    /// The best root score of the iteration in progress (`-INFINITY` until a root move is done).
    root_score: i32,
    /// Root moves the opponent answers with a forced win (see [`Searcher::refute`]).
    refuted: Vec<usize>,
}

/// Mate scores are stored relative to the node so that they stay right wherever the position
/// recurs in the tree.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Searcher<'a> {
    fn new(
        pos: Position,
        limits: Limits,
        start: Instant,
        tt: &'a Table,
        stop: &'a AtomicBool,
    ) -> Self {
        let deadline = start + limits.hard;
        Searcher {
            pos,
            limits,
            start,
            deadline,
            nodes: 0,
            aborted: false,
            tt,
            stop,
            vcf: Vcf::new(),
            vct: Vct::new(),
            pv: vec![[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            move_buffers: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            root_score: -INFINITY,
            refuted: Vec::new(),
        }
    }

    /// Finds the root candidates after which the opponent wins by force, by fours or by a short
    /// run of threats: the main search is too shallow to see such a line, which is how strong
    /// engines win. They are left out of the search, unless every candidate is lost. Only
    /// for the levels that search threats at the root (`hard`).
    fn refute(&mut self, moves: &[(i32, usize)]) {
        let deadline = self.start + self.limits.hard / 4;
        let mut refuted = Vec::new();
        for &(_, mv) in moves {
            self.pos.play(mv);
            let lost = self
                .vcf
                .solve(&mut self.pos, REFUTE_VCF_FOURS, REFUTE_VCF_NODES, deadline)
                .is_some()
                || self
                    .vct
                    .solve(
                        &mut self.pos,
                        REFUTE_VCT_THREATS,
                        REFUTE_VCT_NODES,
                        deadline,
                    )
                    .is_some();
            self.pos.undo();
            if lost {
                refuted.push(mv);
            }
        }
        if refuted.len() < moves.len() {
            self.refuted = refuted;
        }
    }

    fn total_nodes(&self) -> u64 {
        self.nodes + self.vcf.nodes() + self.vct.nodes()
    }

    /// Finds a move for the side to move on `threads` threads. The position must have an
    /// empty point.
    fn run(mut self, threads: usize) -> Found {
        let me = self.pos.to_move();
        let them = 1 - me;

        if self.pos.move_count() == 0 {
            // The centre is the strongest first move on an empty board.
            let centre = self.pos.size() / 2;
            let best = self
                .pos
                .index(super::super::Point::new(centre as u8, centre as u8));
            return self.found(best, 0, 0, vec![best]);
        }
        if self.pos.count(me, class::FIVE) > 0 {
            let best = self.pos.find_class(me, class::FIVE);
            return self.found(best, WIN - 1, 1, vec![best]);
        }
        let their_fives = self.pos.count(them, class::FIVE);
        if their_fives == 0 {
            if let Some(best) = self.pos.find_allowed(me, class::FLEX4) {
                return self.found(best, WIN - 3, 1, vec![best]);
            }
        }

        // A forced win by fours ends the thinking at once.
        if Vcf::has_fours(&self.pos) {
            let (fours, nodes) = (self.limits.root_vcf_fours, self.limits.root_vcf_nodes);
            // Leave most of the time to the main search when the VCF finds nothing.
            let deadline = self.start + self.limits.hard / 8;
            if let Some(line) = self.vcf.solve(&mut self.pos, fours, nodes, deadline) {
                let score = WIN - line.len() as i32;
                return self.found(line[0], score, line.len() as u32, line);
            }
        }

        // Then a forced win by fours and threes, on a shorter leash: its tree is much wider.
        if self.limits.root_vct_threats > 0 && their_fives == 0 {
            let (threats, nodes) = (self.limits.root_vct_threats, self.limits.root_vct_nodes);
            let deadline = Instant::now() + self.limits.hard / 6;
            if let Some(line) = self.vct.solve(&mut self.pos, threats, nodes, deadline) {
                let score = WIN - line.len() as i32;
                return self.found(line[0], score, line.len() as u32, line);
            }
        }

        // Fallback before any iteration completes: the best-ordered candidate.
        let mut moves = Vec::new();
        self.generate(&mut moves, None, self.limits.root_width);
        if moves.is_empty() {
            // Renju: the only block is forbidden to black. Lost; any allowed point will do.
            let pos = &self.pos;
            let any = (pos.board().iter().copied())
                .find(|&i| pos.is_empty(i) && pos.allowed(me, i))
                .expect("a game in progress leaves black an allowed point");
            return self.found(any, -(WIN - 2), 0, vec![any]);
        }
        if moves.len() == 1 {
            // A single sensible reply (blocking a five): no need to think.
            let score = self.evaluate();
            return self.found(moves[0].1, score, 0, vec![moves[0].1]);
        }
        if self.limits.root_vct_threats > 0 {
            self.refute(&moves);
        }
        let best = moves
            .iter()
            .map(|&(_, mv)| mv)
            .find(|mv| !self.refuted.contains(mv))
            .unwrap_or(moves[0].1);
        // Lazy SMP: helpers deepen the same position, half of them a ply ahead, and share
        // what they learn through the table; the answer is this thread's.
        let helpers: Vec<Searcher> = (1..threads)
            .map(|_| Searcher {
                refuted: self.refuted.clone(),
                ..Searcher::new(
                    self.pos.clone(),
                    self.limits,
                    self.start,
                    self.tt,
                    self.stop,
                )
            })
            .collect();
        let (found, helper_nodes) = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .into_iter()
                .enumerate()
                .map(|(k, mut helper)| {
                    scope.spawn(move || {
                        helper.deepen(1 + (k as i32 + 1) % 2, best);
                        helper.nodes
                    })
                })
                .collect();
            let found = self.deepen(1, best);
            self.stop.store(true, Ordering::Relaxed);
            let helper_nodes: u64 = running
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .sum();
            (found, helper_nodes)
        });
        Found {
            nodes: found.nodes + helper_nodes,
            ..found
        }
    }

    /// Iterative deepening from `first_depth`; `best` stands until an iteration names a move.
    fn deepen(&mut self, first_depth: i32, mut best: usize) -> Found {
        let mut score = 0;
        let mut depth = 0;
        let mut pv = vec![best];
        let deepening = Instant::now();
        for iteration in first_depth..=self.limits.max_depth {
            self.root_score = -INFINITY;
            let value = self.negamax(iteration, -INFINITY, INFINITY, 0);
            if self.aborted {
                // Root moves whose search finished in the abandoned iteration were searched
                // deeper than the last complete one: keep the best of them.
                if self.pv_len[0] > 0 && self.root_score > -INFINITY {
                    best = usize::from(self.pv[0][0]);
                    score = self.root_score;
                    pv = self.pv[0][..self.pv_len[0]]
                        .iter()
                        .map(|&m| usize::from(m))
                        .collect();
                }
                break;
            }
            if self.pv_len[0] == 0 {
                // Decided before any move was tried (two five points to block: lost anyway).
                score = value;
                break;
            }
            best = usize::from(self.pv[0][0]);
            score = value;
            depth = iteration as u32;
            pv = self.pv[0][..self.pv_len[0]]
                .iter()
                .map(|&m| usize::from(m))
                .collect();
            if value.abs() > WIN_THRESHOLD || deepening.elapsed() >= self.limits.soft {
                break;
            }
        }
        self.found(best, score, depth, pv)
    }

    fn found(&self, best: usize, score: i32, depth: u32, pv: Vec<usize>) -> Found {
        debug_assert!(self.pos.is_empty(best) && self.pos.board().contains(&best));
        Found {
            best,
            score,
            depth,
            nodes: self.total_nodes(),
            pv,
        }
    }

    fn time_is_up(&mut self) -> bool {
        if !self.aborted
            && self.nodes & CLOCK_INTERVAL == 0
            && (Instant::now() >= self.deadline || self.stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Static evaluation from the side to move's point of view.
    fn evaluate(&self) -> i32 {
        let me = self.pos.to_move();
        // The side to move gets to use its threats first, so they weigh more.
        self.pos.value_sum(me) * 6 / 5 - self.pos.value_sum(1 - me)
    }

    /// How promising a candidate looks before searching it: its value for the side to move
    /// (attack) plus its value for the opponent (the threat it takes away).
    fn order_score(&self, i: usize) -> i32 {
        let me = self.pos.to_move();
        self.pos.value(me, i) * 4 + self.pos.value(1 - me, i) * 3
    }

    /// Candidate moves for the side to move, best first:
    /// - the opponent threatens five: only the blocks;
    /// - the opponent threatens an open four (or double four): only the points on the threat
    ///   lines, plus own fours, which gain a tempo;
    /// - otherwise the `width` best points near stones.
    fn generate(&self, out: &mut Vec<(i32, usize)>, hint: Option<usize>, width: usize) {
        out.clear();
        let pos = &self.pos;
        let me = pos.to_move();
        let them = 1 - me;
        if pos.count(them, class::FIVE) > 0 {
            out.extend(
                pos.board()
                    .iter()
                    .filter(|&&i| {
                        pos.is_empty(i) && pos.class(them, i) == class::FIVE && pos.allowed(me, i)
                    })
                    .map(|&i| (0, i)),
            );
            return;
        }
        let defending = pos.has_allowed(them, class::FLEX4);
        for &i in pos.board() {
            if !pos.is_empty(i) || !pos.allowed(me, i) {
                continue;
            }
            let keep = if defending {
                pos.class(them, i) >= class::BLOCK4 || pos.class(me, i) >= class::BLOCK4
            } else {
                pos.has_neighbour(i)
            };
            if keep {
                let bonus = if Some(i) == hint { 1 << 30 } else { 0 };
                out.push((self.order_score(i).saturating_add(bonus), i));
            }
        }
        out.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
        if !defending {
            out.truncate(width);
        }
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.time_is_up() {
            return 0;
        }
        let me = self.pos.to_move();
        let them = 1 - me;
        let ply_score = ply as i32;
        if self.pos.count(me, class::FIVE) > 0 {
            return WIN - ply_score - 1;
        }
        if self.pos.is_full() {
            return 0;
        }
        let their_fives = self.pos.count(them, class::FIVE);
        if their_fives == 0 && self.pos.has_allowed(me, class::FLEX4) {
            return WIN - ply_score - 3;
        }
        if their_fives > 1 {
            // Two different five points: one block cannot stop both.
            return -(WIN - ply_score - 2);
        }
        if ply > 0
            && their_fives == 0
            && self.pos.four_points(them) == 0
            && (self.pos.has_allowed(me, class::FOUR_THREE)
                || self.pos.has_allowed(me, class::DOUBLE_THREE))
        {
            // The opponent cannot make a four, so nothing interrupts a four-three (block the
            // four, then the three opens) or a double three (one stone stops one three): the
            // win takes five plies. Not at the root, which must name the move.
            return WIN - ply_score - 5;
        }
        if ply + 1 >= MAX_PLY {
            return self.evaluate();
        }
        if depth <= 0 && their_fives == 0 {
            return self.quiesce(alpha, beta, ply, QUIESCENCE_FOURS);
        }

        let key = self.pos.hash();
        let mut hint = None;
        if let Some(entry) = self.tt.probe(key) {
            hint = Some(usize::from(entry.best));
            if i32::from(entry.depth) >= depth && ply > 0 {
                let score = from_tt(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        let width = if ply == 0 {
            self.limits.root_width
        } else {
            self.limits.width
        };
        self.generate(&mut moves, hint, width);
        if ply == 0 && !self.refuted.is_empty() {
            moves.retain(|(_, mv)| !self.refuted.contains(mv));
        }
        if moves.is_empty() {
            // Renju: black's only block is forbidden.
            self.move_buffers[ply] = moves;
            return -(WIN - ply_score - 2);
        }
        // Answering a four costs no depth: the reply is forced.
        let child_depth = if their_fives > 0 { depth } else { depth - 1 };
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = moves.first().map_or(0, |m| m.1);
        for (n, &(_, mv)) in moves.iter().enumerate() {
            // Late moves that neither threaten nor stop a threat are searched a ply shallower
            // first: move ordering puts the good ones early, and a reduced search that still
            // beats alpha is searched again at full depth.
            let reduction = i32::from(
                depth >= 3
                    && n >= LATE_MOVES
                    && their_fives == 0
                    && self.pos.class(me, mv) < class::FLEX3
                    && self.pos.class(them, mv) < class::FLEX3,
            );
            self.pos.play(mv);
            let score = if n == 0 {
                -self.negamax(child_depth, -beta, -alpha, ply + 1)
            } else {
                let mut probe = -self.negamax(child_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if reduction > 0 && probe > alpha && !self.aborted {
                    probe = -self.negamax(child_depth, -alpha - 1, -alpha, ply + 1);
                }
                if probe > alpha && probe < beta {
                    -self.negamax(child_depth, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            self.pos.undo();
            if self.aborted {
                self.move_buffers[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_score = score;
                    }
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.move_buffers[ply] = moves;

        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(
            key,
            Entry {
                score: to_tt(best_score, ply),
                best: best_move as u16,
                depth: depth.clamp(i8::MIN.into(), i8::MAX.into()) as i8,
                bound,
            },
        );
        best_score
    }

    /// The horizon: the static evaluation, unless playing fours (each answered by its forced
    /// block) does better. A four just past the horizon often decides a position that looks
    /// quiet, and its tree is narrow.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, fours_left: u32) -> i32 {
        let stand = self.evaluate();
        if stand >= beta || fours_left == 0 || ply + 3 >= MAX_PLY {
            return stand;
        }
        let me = self.pos.to_move();
        let them = 1 - me;
        if self.pos.four_points(me) == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut fours = std::mem::take(&mut self.move_buffers[ply]);
        fours.clear();
        fours.extend(
            self.pos
                .board()
                .iter()
                .copied()
                .filter(|&i| {
                    self.pos.is_empty(i)
                        && self.pos.class(me, i) >= class::BLOCK4
                        && self.pos.allowed(me, i)
                })
                .map(|i| (self.pos.value(me, i), i)),
        );
        fours.sort_unstable_by_key(|&(value, _)| std::cmp::Reverse(value));
        for &(_, four) in &fours {
            self.nodes += 1;
            if self.time_is_up() {
                break;
            }
            self.pos.play(four);
            // The five point is the only answer, unless the opponent has a five of their own.
            let score = if self.pos.count(them, class::FIVE) > 0 {
                None
            } else {
                self.pos.five_point_near(four, me).map(|block| {
                    if !self.pos.allowed(them, block) {
                        // Renju: black may not block there.
                        return WIN - ply as i32 - 3;
                    }
                    self.pos.play(block);
                    let score = self.quiesce_after_block(alpha, beta, ply + 2, fours_left - 1);
                    self.pos.undo();
                    score
                })
            };
            self.pos.undo();
            let Some(score) = score else { continue };
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.move_buffers[ply] = fours;
        best
    }

    /// [`Searcher::quiesce`] after the opponent blocked a four: a five of theirs, or several,
    /// must be answered first.
    fn quiesce_after_block(&mut self, alpha: i32, beta: i32, ply: usize, fours_left: u32) -> i32 {
        let me = self.pos.to_move();
        let them = 1 - me;
        if self.pos.count(me, class::FIVE) > 0 {
            return WIN - ply as i32 - 1;
        }
        let their_fives = self.pos.count(them, class::FIVE);
        if their_fives == 0 {
            if self.pos.has_allowed(me, class::FLEX4) {
                return WIN - ply as i32 - 3;
            }
            return self.quiesce(alpha, beta, ply, fours_left);
        }
        if their_fives > 1 {
            return -(WIN - ply as i32 - 2);
        }
        // The block made a four: answering it ends the quiet search here.
        let block = self.pos.find_class(them, class::FIVE);
        if !self.pos.allowed(me, block) {
            return -(WIN - ply as i32 - 2);
        }
        self.pos.play(block);
        let score = -self.evaluate();
        self.pos.undo();
        score
    }

    fn update_pv(&mut self, ply: usize, mv: usize) {
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = mv as u16;
        let copy = child_len.min(MAX_PLY - 1);
        row[1..=copy].copy_from_slice(&tail[0][..copy]);
        self.pv_len[ply] = copy + 1;
    }
}
