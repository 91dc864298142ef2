//! Computer Go players (pure: no I/O).
//!
//! - `easy`: instant heuristics, as the issue asks: capture when possible, else save an own chain
//!   in atari (capture the attacker or extend), never fill an own eye, else a random legal move;
//!   pass when nothing is left.
//! - `normal`: Monte Carlo tree search (UCT + RAVE, priors, playouts with capture/atari/eye rules
//!   and 3×3 patterns) on one thread with half the time budget, with hand-made priors only.
//! - `hard`: the same search with learned priors (`shape`: move weights fitted to GNU Go's choices,
//!   blended half and half with the hand-made priors), the whole budget and every worker thread
//!   (tree parallelism: the threads grow one shared tree, with virtual losses to spread them out).
//!
//! Both searches read ladders (`ladder`): a new tree node's prior is low for extending a chain
//! in atari that a ladder captures anyway and high for an atari that captures in a ladder, and
//! the playouts do not extend a chain in atari into a ladder (reading one line of it).
//!
//! A search on one thread bounded by `max_playouts` (and not by the clock) is deterministic for a
//! seed, unless it reuses a tree: with `reuse_tree` the subtree below the chosen move is kept (see
//! `reuse`), and the search after the opponent's reply continues from it, adding its playouts to
//! those of the earlier search. On several threads a search plays exactly `max_playouts`
//! playouts, but which moves they visit depends on how the threads interleave.
//!
//! The AI passes when the game is decided (the plain count already agrees with the
//! playouts' ownership everywhere and a search of the opponent's free move shows passing costs
//! nothing) or when passing is its best move, so it does not fill its own territory; it plays on
//! to capture dead stones, so the seed's count without `dead=` is right; after the opponent's pass
//! it passes as soon as that count wins. For a game scored with dead stones taken off (GTP's
//! convention, `dead_stones_removed`) the count, here and where a game ends in the tree, leaves
//! out the stones its playouts see die. When every move loses it plays on rather than pass (and
//! resigns only when `resign_allowed`, after several searches in a row saw the game as lost).
//! A playout's value carries a small share of its margin (`playout::value`), and in a lost
//! position the search plays against its average margin rather than against zero (dynamic komi,
//! `search::Target`): it still defends what can be defended instead of throwing stones away.

mod count;
mod easy;
mod ladder;
mod pattern;
mod playout;
mod reuse;
mod search;
pub mod shape;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
#[cfg(feature = "serde")]
use serde::{Serialize, Serializer};

use super::board::{Board, Color, Pt, BLACK, EMPTY, WHITE};
use crate::AiLevel;
use playout::Policy;
use rand::rngs::SmallRng;
use search::{Config, Limits, Root};

/// Everything the AI needs to choose a move.
#[derive(Clone, Debug)]
pub struct GoAiRequest<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    pub komi: f32,
    /// Positional hashes of earlier positions, for superko (may be empty).
    pub history_hashes: &'a [u64],
    /// Avoid root moves that recreate a position in `history_hashes`.
    pub superko: bool,
    pub level: AiLevel,
    /// Thinking time; the search stops at the first clock check after it.
    pub budget: Duration,
    pub seed: u64,
    /// Worker threads the AI may use (`hard` only).
    pub threads: usize,
    /// Stop after this many playouts (summed over threads) even with time left.
    pub max_playouts: Option<u64>,
    /// May answer `resign` when several searches in a row saw the game as lost (off by
    /// default). The searches are counted through the kept trees, so it needs `reuse_tree`.
    pub resign_allowed: bool,
    /// The opponent's last move was a pass: passing now ends the game.
    pub opponent_passed: bool,
    /// The game will be scored with dead stones taken off, as GTP referees and most servers
    /// do, rather than by Parlor's rules, which count every stone on the board: the AI then
    /// judges a game-ending pass by which stones its playouts see die, so it does not pass
    /// with a dead group of its own on the board.
    pub dead_stones_removed: bool,
    /// Keep the search tree after the move, and start from a kept one when this position follows
    /// a kept search by one opponent move (the answer then depends on that earlier search too).
    pub reuse_tree: bool,
}

impl<'a> GoAiRequest<'a> {
    /// A request with the defaults: no history, no superko, seed 0, one thread, no playout cap,
    /// no resigning, the opponent did not just pass, Parlor's count of every stone, no tree reuse.
    pub fn new(
        board: &'a Board,
        to_move: Color,
        komi: f32,
        level: AiLevel,
        budget: Duration,
    ) -> Self {
        GoAiRequest {
            board,
            to_move,
            komi,
            history_hashes: &[],
            superko: false,
            level,
            budget,
            seed: 0,
            threads: 1,
            max_playouts: None,
            resign_allowed: false,
            opponent_passed: false,
            dead_stones_removed: false,
            reuse_tree: false,
        }
    }
}

/// The AI's answer.
#[derive(Clone, Debug)]
pub struct GoAiMove {
    /// The stone to play; None is a pass (or goes with `resign`).
    pub play: Option<Pt>,
    pub resign: bool,
    pub analysis: Analysis,
}

/// What the search saw. Points are padded board indices (`Pt.0`); the caller names them.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Analysis {
    /// Estimated chance that the side to move wins (0.5 for `easy`, which does not estimate).
    pub win_rate: f32,
    /// Playouts of this search.
    pub playouts: u64,
    /// Playouts the search started with, from a kept tree (0 for a fresh search).
    pub reused_playouts: u64,
    /// The expected line, starting with the chosen move; it stops at the first pass.
    #[cfg_attr(feature = "serde", serde(serialize_with = "points"))]
    pub pv: Vec<Pt>,
    /// The most visited root moves, best first.
    pub candidates: Vec<Candidate>,
}

#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Candidate {
    /// None is a pass.
    #[cfg_attr(feature = "serde", serde(serialize_with = "point"))]
    pub play: Option<Pt>,
    pub visits: u32,
    pub win_rate: f32,
}

#[cfg(feature = "serde")]
fn points<S: Serializer>(pts: &[Pt], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(pts.iter().map(|p| p.0))
}

#[cfg(feature = "serde")]
fn point<S: Serializer>(p: &Option<Pt>, s: S) -> Result<S::Ok, S::Error> {
    p.map(|p| p.0).serialize(s)
}

/// Progressive bias on 19×19 (see `search::Config::prior_bias`), scaled by the board's side.
const PRIOR_BIAS_19: f32 = 1.0;
/// How many candidates an analysis lists.
const CANDIDATES: usize = 8;
/// A search sees the game as lost below this win rate (after enough playouts to tell).
const LOST_BELOW: f32 = 0.08;
const LOST_MIN_PLAYOUTS: u64 = 2_000;
/// Resign (when allowed) after this many searches in a row saw the game as lost: one bleak
/// search may be a blind spot, several over the opponent's replies are not.
const RESIGN_AFTER_LOST_SEARCHES: u32 = 3;
/// Below this win rate for every move the AI plays on rather than pass.
const HOPELESS: f32 = 0.05;
/// At the end of the game, pass when passing loses at most this much win rate.
const PASS_TOLERANCE: f32 = 0.05;
/// Share of the budget for the main search on an open board, where no pass check follows; the
/// rest covers keeping the tree for the next move.
const MAIN_SEARCH_SHARE: f32 = 0.96;
/// Share of the budget for the main search when a search of the opponent's reply to a pass may
/// follow it.
const MAIN_SEARCH_SHARE_BEFORE_PASS_CHECK: f32 = 0.85;

/// Chooses a move for `req.to_move`.
pub fn choose(req: &GoAiRequest) -> GoAiMove {
    choose_with(req, &reuse::SHARED)
}

/// [`choose`] with the searches kept in `cache` (when `req.reuse_tree`).
fn choose_with(req: &GoAiRequest, cache: &Mutex<reuse::Cache>) -> GoAiMove {
    let banned: &[u64] = if req.superko { req.history_hashes } else { &[] };
    if req.level == AiLevel::Easy {
        let mut rng = ChaCha8Rng::seed_from_u64(req.seed);
        let play = easy::choose(req.board, req.to_move, banned, &mut rng);
        let analysis = Analysis {
            win_rate: 0.5,
            playouts: 0,
            reused_playouts: 0,
            pv: play.into_iter().collect(),
            candidates: Vec::new(),
        };
        return GoAiMove {
            play,
            resign: false,
            analysis,
        };
    }
    let hard = req.level == AiLevel::Hard;
    let cfg = Config {
        policy: Policy { patterns: true },
        learned_priors: hard,
        rave_equivalence: 3000.0,
        expand_at: 2,
        explore: 0.05,
        // The heuristics steer a bigger board's wider nodes harder.
        prior_bias: PRIOR_BIAS_19 * req.board.size() as f32 / 19.0,
    };
    let budget = if hard { req.budget } else { req.budget / 2 };
    let threads = if hard { req.threads.max(1) } else { 1 };
    let start = Instant::now();
    let max_playouts = req.max_playouts.unwrap_or(u64::MAX);
    // While much of the board is still nobody's by the seed's count, passing throws the game away
    // whatever thin visit counts say: on 13×13 and 19×19 a second of search spreads its playouts
    // over hundreds of moves, and a pass that looked as good as any of them lost whole games.
    // Such a board is never `settled` either, so no pass check follows the main search.
    let open_board = unclaimed_points(req.board) > req.board.size();
    // The main search leaves time for the pass check when one may follow, and a little for
    // keeping the tree otherwise.
    let share = if open_board {
        MAIN_SEARCH_SHARE
    } else {
        MAIN_SEARCH_SHARE_BEFORE_PASS_CHECK
    };
    let limits = Limits {
        deadline: start + budget.mul_f32(share),
        max_playouts,
    };
    let root = Root {
        board: req.board,
        to_move: req.to_move,
        komi: req.komi,
        passes: u32::from(req.opponent_passed),
        banned_hashes: banned,
        dead_stones_removed: req.dead_stones_removed,
    };
    let rules = reuse::Rules {
        komi: req.komi,
        level: req.level,
        superko: req.superko,
        dead_stones_removed: req.dead_stones_removed,
    };
    let found = if req.reuse_tree {
        reuse::lock(cache).take(
            rules,
            req.board,
            req.to_move,
            req.history_hashes,
            req.opponent_passed,
        )
    } else {
        None
    };
    let lost_before = found.as_ref().map_or(0, |(kept, _)| kept.lost_searches);
    let kept = found.and_then(|(kept, reply)| kept.after_reply(reply));
    let out = search::search(&root, cfg, limits, req.seed, threads, kept);
    let mut playouts = out.playouts;
    let mut ranked: Vec<&search::RootChild> = out.children.iter().collect();
    ranked.sort_by_key(|c| std::cmp::Reverse(c.visits)); // stable: ties keep board order
    let best = ranked[0];
    let pass_child = out.children.iter().find(|c| c.play.is_none());
    // The margin if the game ended now, by the count it is scored by.
    let our_margin = {
        let m = if req.dead_stones_removed {
            count::area_margin_without_dead(req.board, |i| out.ownership[i])
        } else {
            count::area_margin(req.board)
        };
        let m = m as f32 - req.komi;
        if req.to_move == Color::Black {
            m
        } else {
            -m
        }
    };
    let mut pass_value = pass_child.map_or(0.0, |p| p.win_rate);
    // When every move loses, visit counts are noise: keep playing (the opponent may still err)
    // instead of passing and letting the opponent take the board, unless passing ends the game.
    let best_play = ranked.iter().find(|c| c.play.is_some()).copied();
    let hopeless = best_play.is_some_and(|c| c.win_rate < HOPELESS) && !req.opponent_passed;
    let best = if hopeless {
        best_play.unwrap_or(best)
    } else {
        best
    };
    // After the opponent's pass, ours ends the game: won, when the count says so.
    let pass_ends_won = req.opponent_passed && our_margin > 0.0;
    if pass_ends_won {
        pass_value = 1.0;
    }
    let mut pass = out.children.len() == 1
        || pass_ends_won
        || (!open_board
            && (best.play.is_none()
                || (!hopeless
                    && pass_child.is_some_and(|p| {
                        p.win_rate >= best.win_rate && p.visits * 4 >= best.visits
                    }))));
    let best = if pass || best.play.is_some() {
        best
    } else {
        best_play.unwrap_or(best)
    };
    // After the opponent's pass ours ends the game, so there is no reply to search.
    let settled_now =
        !pass && !open_board && !req.opponent_passed && settled(req.board, &out.ownership);
    if settled_now && our_margin > 0.0 && fills_own_area(req.board, req.to_move, best.play) {
        // The game is decided in our favour and the best move only fills a point the seed's
        // count already gives us: it gains nothing (under territory scoring it costs a point).
        pass = true;
        pass_value = best.win_rate;
    } else if settled_now {
        // The count already matches the playouts: the remaining moves may all be fills of our
        // own area. Passing is right unless the opponent's free move then hurts: search that.
        let mut after = req.board.clone();
        after.pass();
        let reply_root = Root {
            board: &after,
            to_move: req.to_move.opponent(),
            passes: 1,
            ..root
        };
        let reply_limits = Limits {
            deadline: start + budget,
            max_playouts: max_playouts / 4,
        };
        let reply = search::search(&reply_root, cfg, reply_limits, req.seed ^ 1, threads, None);
        playouts += reply.playouts;
        if let Some(their_best) = reply.children.iter().max_by_key(|c| c.visits) {
            pass_value = 1.0 - their_best.win_rate;
            pass = pass_value >= best.win_rate - PASS_TOLERANCE;
        }
    }
    let play = if pass { None } else { best.play };
    let chosen = out.children.iter().find(|c| c.play == play).unwrap_or(best);
    let win_rate = if pass { pass_value } else { chosen.win_rate };
    let lost_searches = if win_rate < LOST_BELOW && playouts >= LOST_MIN_PLAYOUTS {
        lost_before + 1
    } else {
        0
    };
    let resign = req.resign_allowed && lost_searches >= RESIGN_AFTER_LOST_SEARCHES;
    let mut pv: Vec<Pt> = Vec::new();
    if let Some(p) = play {
        pv.push(p);
        if out.pv.first() == Some(&play) {
            pv.extend(out.pv.iter().skip(1).map_while(|m| *m));
        }
    }
    if req.reuse_tree && !resign {
        let kept = reuse::Kept::new(
            rules,
            req.board,
            req.to_move,
            req.history_hashes,
            play,
            &out.tree,
            lost_searches,
        );
        if let Some(kept) = kept {
            reuse::lock(cache).keep(kept);
        }
    }
    let analysis = Analysis {
        win_rate,
        playouts,
        reused_playouts: out.reused,
        pv,
        candidates: ranked
            .iter()
            .take(CANDIDATES)
            .map(|c| Candidate {
                play: c.play,
                visits: c.visits,
                win_rate: c.win_rate,
            })
            .collect(),
    };
    GoAiMove {
        play: if resign { None } else { play },
        resign,
        analysis,
    }
}

/// Empty points the seed's count gives to nobody (regions touching both colours, or none).
fn unclaimed_points(board: &Board) -> usize {
    count::owners(board)
        .into_iter()
        .filter(|o| *o != BLACK && *o != WHITE)
        .count()
}

/// Whether `play` is a stone inside an empty region the seed's count gives to `color`.
fn fills_own_area(board: &Board, color: Color, play: Option<Pt>) -> bool {
    let own = if color == Color::Black { BLACK } else { WHITE };
    play.is_some_and(|p| count::owners(board)[count::index(board, p)] == own)
}

/// Whether the game is decided: every point's plain count (seed 004's regions) agrees with the
/// playouts' ownership, and what the count leaves to nobody is a few dame next to stones.
fn settled(board: &Board, ownership: &[f32]) -> bool {
    let owners = count::owners(board);
    let mut neutral = 0;
    for p in board.points() {
        let i = count::index(board, p);
        let black = ownership[i];
        let agrees = match owners[i] {
            BLACK => black >= 0.8,
            WHITE => black <= 0.2,
            _ => {
                neutral += 1;
                let next_to_stone = board.neighbors(p).iter().any(|n| board.stone(*n).is_some());
                board.cells[p.idx()] == EMPTY && next_to_stone && (0.2..=0.8).contains(&black)
            }
        };
        if !agrees {
            return false;
        }
    }
    neutral <= board.size()
}

/// Monte Carlo ownership: for every on-board point, row-major from the bottom left (index
/// `row * size + col`), the share of `playouts` random games from this position that Black
/// ends up owning it (stone or eye). Deterministic for a seed. Used to guess dead stones.
pub fn ownership(board: &Board, to_move: Color, komi: f32, playouts: u32, seed: u64) -> Vec<f32> {
    let _ = komi; // ownership does not depend on who wins the count
    let size = board.size();
    let mut owned = vec![0u32; size * size];
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut b = board.clone();
    for _ in 0..playouts {
        b.copy_from(board);
        playout::run(
            &mut b,
            to_move,
            0,
            Policy { patterns: true },
            &mut rng,
            None,
        );
        playout::tally(&b, &mut owned);
    }
    let n = playouts.max(1) as f32;
    owned.into_iter().map(|c| c as f32 / n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(rows: &[&str]) -> Board {
        Board::from_rows(rows)
    }

    /// Double walls: Black's area is columns a-d, White's e-g.
    const WALLS: [&str; 7] = [
        "..XXOO.", "..XXOO.", "..XXOO.", "..XXOO.", "..XXOO.", "..XXOO.", "..XXOO.",
    ];

    fn request(board: &Board, to_move: Color, level: AiLevel, playouts: u64) -> GoAiRequest<'_> {
        let mut req = GoAiRequest::new(board, to_move, 0.5, level, Duration::from_secs(60));
        req.max_playouts = Some(playouts);
        req.seed = 11;
        req
    }

    fn visits(answer: &GoAiMove) -> Vec<(Option<Pt>, u32)> {
        let candidates = &answer.analysis.candidates;
        candidates.iter().map(|c| (c.play, c.visits)).collect()
    }

    #[test]
    fn the_search_after_the_opponents_reply_continues_from_the_kept_tree() {
        for threads in [1, 2] {
            let cache = Mutex::new(reuse::Cache::new());
            let mut board = Board::new(7);
            board.play(Color::Black, board.pt(3, 3)).unwrap();
            board.play(Color::White, board.pt(2, 4)).unwrap();
            // Enough playouts that the kept subtree holds far more visits than the root moves
            // left out of the listed candidates do (the check at the end compares the two).
            let mut req = request(&board, Color::Black, AiLevel::Hard, 3000);
            req.threads = threads;
            req.reuse_tree = true;
            let first = choose_with(&req, &cache);
            assert_eq!(first.analysis.reused_playouts, 0, "nothing kept yet");
            // The opponent answers with the reply the search expected, our move's most visited
            // child: the kept tree holds that many playouts below it.
            let ours = first.play.expect("a stone this early");
            let reply = first.analysis.pv[1];
            let kept_visits = reuse::lock(&cache).visits_after(Some(reply));
            assert!(kept_visits > 10, "{kept_visits}");
            let mut after = board.clone();
            after.play(Color::Black, ours).unwrap();
            after.play(Color::White, reply).unwrap();
            let mut next = request(&after, Color::Black, AiLevel::Hard, 800);
            next.threads = threads;
            next.reuse_tree = true;
            // Other rules (here the komi) make another game: a fresh search.
            let other_komi = GoAiRequest {
                komi: 6.5,
                ..next.clone()
            };
            assert_eq!(choose_with(&other_komi, &cache).analysis.reused_playouts, 0);
            let second = choose_with(&next, &cache);
            assert_eq!(second.analysis.reused_playouts, u64::from(kept_visits));
            assert_eq!(second.analysis.playouts, 800, "new playouts on top");
            // The entry is used up: the same position again, never seen as a reply, is searched
            // afresh, exactly as without reuse (on one thread, the same answer).
            let third = choose_with(&next, &cache);
            assert_eq!(third.analysis.reused_playouts, 0);
            next.reuse_tree = false;
            let plain = choose_with(&next, &cache);
            assert_eq!(third.analysis.playouts, plain.analysis.playouts);
            if threads == 1 {
                assert_eq!((third.play, visits(&third)), (plain.play, visits(&plain)));
            }
            // The kept visits count too: the listed root moves hold more visits than the same
            // 800 playouts searched afresh give them (not more than 800 as such, since only the
            // top moves are listed and the rest may hold some).
            let listed = |m: &GoAiMove| visits(m).iter().map(|v| v.1).sum::<u32>();
            assert!(
                listed(&second) > listed(&plain),
                "{} kept and continued, {} fresh",
                listed(&second),
                listed(&plain)
            );
        }
    }

    #[test]
    fn a_playout_bounded_search_on_one_thread_is_deterministic_for_a_seed() {
        let mut b = Board::new(7);
        b.play(Color::Black, b.pt(3, 3)).unwrap();
        b.play(Color::White, b.pt(2, 4)).unwrap();
        let req = request(&b, Color::Black, AiLevel::Hard, 600);
        let first = choose(&req);
        let second = choose(&req);
        assert_eq!(first.play, second.play);
        assert_eq!(first.analysis.playouts, 600);
        assert_eq!(first.analysis.pv, second.analysis.pv);
        assert_eq!(visits(&first), visits(&second));
        let win_rates = |m: &GoAiMove| -> Vec<f32> {
            m.analysis.candidates.iter().map(|c| c.win_rate).collect()
        };
        assert_eq!(win_rates(&first), win_rates(&second));
    }

    #[test]
    fn a_playout_bounded_search_on_two_threads_plays_exactly_its_playouts() {
        let mut b = Board::new(7);
        b.play(Color::Black, b.pt(3, 3)).unwrap();
        b.play(Color::White, b.pt(2, 4)).unwrap();
        for seed in 0..4 {
            let mut req = request(&b, Color::Black, AiLevel::Hard, 600);
            req.threads = 2;
            req.seed = seed;
            let answer = choose(&req);
            assert_eq!(answer.analysis.playouts, 600);
            let play = answer.play.expect("a stone this early");
            assert!(b.clone().play(Color::Black, play).is_ok(), "a legal move");
            assert_eq!(answer.analysis.pv.first(), Some(&play));
            let visits: Vec<u32> = answer
                .analysis
                .candidates
                .iter()
                .map(|c| c.visits)
                .collect();
            assert!(visits.iter().sum::<u32>() <= 600);
            assert!(
                visits.windows(2).all(|w| w[0] >= w[1]),
                "candidates best first"
            );
            assert!(answer
                .analysis
                .candidates
                .iter()
                .all(|c| (0.0..=1.0).contains(&c.win_rate)));
            assert!((0.0..=1.0).contains(&answer.analysis.win_rate));
        }
    }

    #[test]
    fn the_search_is_the_same_for_both_colours() {
        // The same stones with colours swapped and komi negated is the same game for the other
        // colour: a colour-blind search gives the same move and statistics for the same seed.
        for size in [9, 19] {
            let mut rng = ChaCha8Rng::seed_from_u64(size as u64);
            let mut board = Board::new(size);
            let mut swapped = Board::new(size);
            let mut color = Color::Black;
            for _ in 0..2 * size {
                let p = easy::choose(&board, color, &[], &mut rng).expect("a move this early");
                board.play(color, p).unwrap();
                swapped.play(color.opponent(), p).unwrap();
                color = color.opponent();
            }
            for level in [AiLevel::Normal, AiLevel::Hard] {
                let mut req = request(&board, color, level, 1500);
                req.komi = 7.5;
                let mut mirror = request(&swapped, color.opponent(), level, 1500);
                mirror.komi = -7.5;
                let (a, b) = (choose(&req), choose(&mirror));
                assert_eq!(a.play, b.play, "{size}x{size} {level:?}");
                assert_eq!(visits(&a), visits(&b), "{size}x{size} {level:?}");
                assert_eq!(a.analysis.win_rate, b.analysis.win_rate);
            }
        }
    }

    #[test]
    fn search_captures_a_big_chain_in_atari() {
        // The six-stone white chain b5-c5-d5-c4-d4-c3 has one liberty left, at e4.
        let b = setup(&[
            ".......", ".XXX...", "XOOOX..", ".XOO...", ".XOX...", "..X....", ".......",
        ]);
        assert_eq!(b.liberties(b.pt(2, 3)), 1);
        let answer = choose(&request(&b, Color::Black, AiLevel::Hard, 800));
        assert_eq!(answer.play, Some(b.pt(4, 3)));
        assert_eq!(answer.analysis.pv.first(), Some(&b.pt(4, 3)));
        let answer = choose(&request(&b, Color::Black, AiLevel::Normal, 800));
        assert_eq!(answer.play, Some(b.pt(4, 3)));
    }

    #[test]
    fn passes_on_a_finished_board_instead_of_filling_its_territory() {
        // Black owns columns a-d (28 points), White e-g (21): nothing is left to fight over.
        let b = setup(&WALLS);
        // Every seed: passing here must not be a lucky draw of the playouts.
        for seed in 0..12 {
            let mut req = request(&b, Color::Black, AiLevel::Hard, 400);
            req.seed = seed;
            let answer = choose(&req);
            assert_eq!(
                answer.play, None,
                "seed {seed}: Black, winning, should pass"
            );
            assert!(!answer.resign);
        }
        let easy = choose(&request(&b, Color::Black, AiLevel::Easy, 0));
        assert!(
            easy.play.is_some(),
            "easy only refuses true eyes; it still has moves here"
        );
    }

    #[test]
    fn a_game_ending_pass_is_judged_by_the_count_the_game_is_scored_by() {
        // WALLS with a lone black stone at g4 in White's area, and White has passed. Counting
        // every stone, it spoils White's area: Black 29, White 14, a win for Black by 4.5 with
        // komi 10.5. With dead stones taken off it is Black 28, White 21: a loss by 3.5.
        let mut rows = WALLS;
        rows[3] = "..XXOOX";
        let b = setup(&rows);
        for seed in 0..4 {
            let mut req = request(&b, Color::Black, AiLevel::Hard, 600);
            req.komi = 10.5;
            req.seed = seed;
            req.opponent_passed = true;
            let counted = choose(&req);
            assert_eq!(counted.play, None, "seed {seed}: Parlor's count wins");
            assert!(counted.analysis.win_rate > 0.9, "{counted:?}");
            req.dead_stones_removed = true;
            let removed = choose(&req);
            assert!(removed.analysis.win_rate < 0.1, "seed {seed}: {removed:?}");
        }
        // On a finished board with nothing dead, both counts agree and the winner passes.
        let b = setup(&WALLS);
        for seed in 0..4 {
            let mut req = request(&b, Color::Black, AiLevel::Hard, 600);
            req.seed = seed;
            req.opponent_passed = true;
            req.dead_stones_removed = true;
            let answer = choose(&req);
            assert_eq!(answer.play, None, "seed {seed}: {answer:?}");
            assert!(answer.analysis.win_rate > 0.9, "{answer:?}");
        }
    }

    #[test]
    fn a_group_that_a_sacrifice_in_its_eye_space_kills_is_not_counted_alive() {
        // From a game against Pachi, White to move. White's group on the right has its eye
        // space at h4 and j3 around Black's j4: Black's h4 joins j4 in atari, White's capture
        // on j3 leaves one eye, and Black won by 20. Playouts that never sacrifice two stones
        // rated the position won for White.
        let b = setup(&[
            "..O.OX.X.",
            ".O.OOXX.X",
            "..OOX.XXX",
            "..OXXXXXX",
            "..O.OXOOO",
            "OOOOOXO.X",
            "XXXOXOOO.",
            ".XXXXXXOO",
            ".X.XO.XXO",
        ]);
        for seed in 0..2 {
            let mut req = request(&b, Color::White, AiLevel::Hard, 3000);
            req.komi = 7.0;
            req.seed = seed;
            let answer = choose(&req);
            assert!(answer.analysis.win_rate < 0.5, "seed {seed}: {answer:?}");
        }
    }

    #[test]
    fn never_passes_on_an_open_board_with_thin_playouts() {
        // White with komi on big boards: random playouts favour White, so a pass looks as good as
        // any move after a few hundred playouts. It must still play.
        for size in [9, 13, 19] {
            let mut b = Board::new(size);
            b.play(Color::Black, b.pt(size / 2, size / 2)).unwrap();
            for seed in 0..4 {
                let mut req = request(&b, Color::White, AiLevel::Hard, 300);
                req.komi = 7.0;
                req.seed = seed;
                let answer = choose(&req);
                assert!(
                    answer.play.is_some(),
                    "{size}x{size} seed {seed}: White passed"
                );
            }
        }
    }

    #[test]
    fn resigns_only_when_allowed_and_lost_over_several_searches() {
        // White owns five rows with eyes; Black's two rows cannot make up the difference.
        let mut board = setup(&[
            "O.....O", "OOOOOOO", "O.O.O.O", "OOOOOOO", "OOOOOOO", ".......", "...X...",
        ]);
        let mut req = request(&board, Color::Black, AiLevel::Hard, 2500);
        req.resign_allowed = true;
        let alone = choose(&req);
        assert!(alone.analysis.win_rate < LOST_BELOW, "{alone:?}");
        assert!(!alone.resign, "one search alone never resigns");

        let cache = Mutex::new(reuse::Cache::new());
        for search in 1..=RESIGN_AFTER_LOST_SEARCHES {
            let mut req = request(&board, Color::Black, AiLevel::Hard, 2500);
            req.reuse_tree = true;
            req.resign_allowed = true;
            let answer = choose_with(&req, &cache);
            if search < RESIGN_AFTER_LOST_SEARCHES {
                assert!(!answer.resign, "search {search}: {answer:?}");
                let ours = answer.play.expect("plays on in its own area");
                board.play(Color::Black, ours).unwrap();
                // White answers as the search expected, else with any move the kept tree holds
                // (legal, no eye filled), so that the next search continues from it.
                let open = board.points().find(|&p| {
                    playout::playable(&board, Color::White, p) && !board.is_eyeish(Color::White, p)
                });
                let reply = answer.analysis.pv.get(1).copied().or(open);
                board.play(Color::White, reply.expect("a reply")).unwrap();
            } else {
                assert!(answer.resign, "search {search}: {answer:?}");
                assert_eq!(answer.play, None);
            }
        }
    }

    #[test]
    fn ownership_sees_secure_areas() {
        let b = setup(&WALLS);
        let own = ownership(&b, Color::Black, 7.0, 200, 5);
        assert_eq!(own.len(), 49);
        assert_eq!(
            own,
            ownership(&b, Color::Black, 7.0, 200, 5),
            "deterministic"
        );
        let at = |col: usize, row: usize| own[row * 7 + col];
        assert!(
            at(0, 3) > 0.9 && at(6, 3) < 0.1,
            "{} {}",
            at(0, 3),
            at(6, 3)
        );
    }
}
