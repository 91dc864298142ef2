//! Light Monte Carlo playouts: MoGo-style local answers to the last move (save own chains in
//! atari, but not by extending into a ladder; capture; 3×3 patterns), otherwise a random legal
//! move that neither fills an own eye nor puts a chain of several stones into atari, unless it is
//! a small sacrifice inside the opponent's eye space. Scoring is area counting with eyes known by
//! their neighbours, which is exact once a playout has run out of moves.
//!
//! Speed: a playout allocates nothing and reads eyes, empty neighbours and patterns from the
//! board's 3×3 neighbourhood codes. It walks a code's slots in their order (orthogonal
//! neighbours south, west, east, north, then the diagonals), the order of `Board::neighbors` and
//! `Board::diagonals`, so a seed gives the same playouts as the plain cell-reading policy.

use rand::RngCore;

use super::super::board::{Board, Color, Pt, BLACK, EMPTY, WHITE};
use super::{ladder, pattern};
use rand::rngs::SmallRng;

/// A move of a playout or tree path: `None` is a pass.
pub(super) type Move = (Option<Pt>, Color);

/// Which heuristics a playout uses (`normal` runs a lighter policy than `hard`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Policy {
    pub patterns: bool,
}

/// A uniform index below `n` (multiply-shift; the bias is far below playout noise).
#[inline]
pub(super) fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// Chance out of 256 that a heuristic is tried (MoGo's "mostly but not always").
const HEURISTIC_ODDS: u32 = 230;

/// Plays `board` out to the end (two passes or a move cap), appending the moves to `moves` when
/// there is such a list (the search's RAVE update needs them, pure playouts for ownership do
/// not and save the stores). `passes` is how many passes in a row led to this position.
pub(super) fn run(
    board: &mut Board,
    mut color: Color,
    mut passes: u32,
    policy: Policy,
    rng: &mut SmallRng,
    mut moves: Option<&mut Vec<Move>>,
) {
    let cap = 3 * board.size() * board.size();
    let mut played = 0;
    let table = policy.patterns.then(pattern::table);
    while passes < 2 && played < cap {
        let play = choose(board, color, table, rng);
        match play {
            Some(p) => {
                board.play_unchecked(color, p);
                passes = 0;
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        if let Some(moves) = moves.as_deref_mut() {
            moves.push((play, color));
        }
        color = color.opponent();
        played += 1;
    }
}

/// The playout policy's move for `color`, None to pass. `table` is there when the policy uses
/// patterns.
fn choose(
    board: &Board,
    color: Color,
    table: Option<&pattern::Table>,
    rng: &mut SmallRng,
) -> Option<Pt> {
    if let Some(last) = board.last_move() {
        if rng.next_u32() & 255 < HEURISTIC_ODDS {
            if let Some(p) = local_answer(board, color, last, table, rng) {
                return Some(p);
            }
        }
    }
    random_move(board, color, rng)
}

/// Answers to the opponent's move at `last`: save an own chain it put in atari, capture it when it
/// is in atari itself, else a pattern move next to it.
fn local_answer(
    board: &Board,
    color: Color,
    last: Pt,
    table: Option<&pattern::Table>,
    rng: &mut SmallRng,
) -> Option<Pt> {
    // Save own chains in atari next to the last move.
    let (in_atari, _) = board.liberty_classes(last);
    let mut own_in_atari = board.stones_next_to(color, last) & in_atari;
    while own_in_atari != 0 {
        let n = board.slot_neighbour(last, own_in_atari.trailing_zeros() as usize / 2);
        own_in_atari &= own_in_atari - 1;
        if let Some(p) = save(board, color, n, true) {
            return Some(p);
        }
    }
    // Capture the last move's chain when it is in atari.
    if board.liberties(last) == 1 {
        if let Some(lib) = board.some_liberty(last) {
            if playable(board, color, lib) {
                return Some(lib);
            }
        }
    }
    if let Some(table) = table {
        let mut found = [Pt(0); 8];
        let mut count = 0;
        let mut empty = board.empty_around(last);
        while empty != 0 {
            let p = board.slot_neighbour(last, empty.trailing_zeros() as usize / 2);
            empty &= empty - 1;
            found[count] = p;
            count += usize::from(table.matches(board, p));
        }
        // A uniform pick among the matches that are legal and no self-atari, testing only as
        // many as it takes: draw one, drop it if it fails and draw again. The tests cost far
        // more than the table lookup, and the first match drawn usually passes them.
        while count > 0 {
            let k = below(rng, count);
            let p = found[k];
            if playable(board, color, p) && !is_self_atari(board, color, p) {
                return Some(p);
            }
            count -= 1;
            found[k] = found[count];
        }
    }
    None
}

/// A move that saves the own chain at `chain` (in atari): capture a neighbouring enemy chain in
/// atari, else extend on its last liberty if that gives it room and, with `read_ladders`, does
/// not run into a ladder that captures it anyway (one line of it: Pachi's moggy reads ladders
/// on extensions to two liberties the same way).
pub(super) fn save(board: &Board, color: Color, chain: Pt, read_ladders: bool) -> Option<Pt> {
    for s in board.chain(chain) {
        // Enemy stones in atari next to `s`, in the order of `Board::neighbors` (their liberty
        // counts read at once, as few of them are in atari).
        let mut enemies = board.stones_next_to(color.opponent(), s) & board.liberty_classes(s).0;
        while enemies != 0 {
            let n = board.slot_neighbour(s, enemies.trailing_zeros() as usize / 2);
            enemies &= enemies - 1;
            if let Some(lib) = board.some_liberty(n) {
                if playable(board, color, lib) {
                    return Some(lib);
                }
            }
        }
    }
    let lib = board.some_liberty(chain)?;
    let escapes = playable(board, color, lib)
        && !is_self_atari(board, color, lib)
        && !(read_ladders && ladder::caught_after_in_line(board, color, lib));
    escapes.then_some(lib)
}

/// Legal for `color` (not occupied, not the ko retake, not suicide). Always inlined, like the
/// self-atari test below: called at a few places a move, each with its own mix of outcomes.
#[inline(always)]
pub(super) fn playable(board: &Board, color: Color, p: Pt) -> bool {
    board.cells[p.idx()] == EMPTY
        && board.ko != Some((p, color))
        && board.has_liberty_after(color, p)
}

/// Whether a stone of `color` at the empty point `p` would leave its chain with at most one
/// liberty without capturing anything.
pub(super) fn is_self_atari(board: &Board, color: Color, p: Pt) -> bool {
    let empty = board.empty_neighbours(p);
    if empty & empty.wrapping_sub(1) != 0 {
        return false; // two or more
    }
    let (in_atari, _) = board.liberty_classes(p);
    self_atari_given(board, color, p, empty, in_atari)
}

/// [`is_self_atari`] for a point with at most one empty neighbour (`empty`, one bit per empty
/// orthogonal neighbour), whose neighbours in chains with one liberty are `in_atari` (as
/// [`Board::liberty_classes`] gives them): for callers that have read them already.
#[inline(always)]
fn self_atari_given(board: &Board, color: Color, p: Pt, empty: u16, in_atari: u16) -> bool {
    // Capturing is never self-atari.
    if board.stones_next_to(color.opponent(), p) & in_atari != 0 {
        return false;
    }
    // The liberties the new chain would have besides `p`: at most one may be found.
    let mut found =
        (empty != 0).then(|| board.slot_neighbour(p, empty.trailing_zeros() as usize / 2));
    let mut own = board.stones_next_to(color, p);
    while own != 0 {
        let n = board.slot_neighbour(p, own.trailing_zeros() as usize / 2);
        own &= own - 1;
        // `p` is one liberty of this chain: with one it brings nothing, with two it brings
        // its other one, with more it keeps the new chain out of atari.
        match board.chain_liberties(n) {
            0 | 1 => {}
            2 => {
                let other = board.liberty_other_than(n, p);
                match found {
                    None => found = other,
                    Some(f) if other.is_some_and(|o| o != f) => return false,
                    Some(_) => {}
                }
            }
            _ => return false,
        }
    }
    true
}

/// A random legal move that does not fill an own eye and does not put several stones into atari
/// (but for [`sacrifice_in_eye_space`]).
fn random_move(board: &Board, color: Color, rng: &mut SmallRng) -> Option<Pt> {
    let empties = board.empties();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let mut i = below(rng, n);
    for _ in 0..n {
        let p = empties[i];
        i += 1;
        if i == n {
            i = 0;
        }
        if random_candidate(board, color, p) {
            return Some(p);
        }
    }
    None
}

/// Whether `random_move` may play the empty point `p`: legal, not an own eye, and not putting
/// several stones into atari outside the opponent's eye space. Most points of an open board have
/// two empty neighbours or more, which settles all three at once.
#[inline(always)]
fn random_candidate(board: &Board, color: Color, p: Pt) -> bool {
    let empty = board.empty_neighbours(p);
    if empty & empty.wrapping_sub(1) != 0 {
        return board.ko != Some((p, color));
    }
    // Several stones in atari are almost always a blunder; a lone stone in atari may be a
    // throw-in that kills an eye.
    let own = board.stones_next_to(color, p);
    if empty != 0 {
        // One empty neighbour: the stone has a liberty.
        return board.ko != Some((p, color))
            && (own == 0
                || !is_self_atari(board, color, p)
                || sacrifice_in_eye_space(board, color, p, empty));
    }
    // No empty neighbour: an eye, or a point whose legality and self-atari test both turn on
    // the neighbouring chains' liberty counts, read once for both.
    if board.is_eyeish_empty(color, p) {
        return false;
    }
    let (one, several) = board.liberty_classes(p);
    board.liberty_from_chains(color, p, (one, several))
        && board.ko != Some((p, color))
        && (own == 0
            || !self_atari_given(board, color, p, 0, one)
            || sacrifice_in_eye_space(board, color, p, 0))
}

/// Largest chain a playout sacrifices inside the opponent's eye space: the common kills (the
/// threes, the pyramid four and the square four) leave an eye space of at most four points
/// with one vital point, and a bigger sacrifice seldom kills.
const MOST_SACRIFICED: usize = 4;

/// Whether a stone of `color` at `p`, joining own stones into a chain left in atari (a legal
/// self-atari; `empty` marks `p`'s empty orthogonal neighbours), is a sacrifice inside the
/// opponent's eye space: a chain of at most [`MOST_SACRIFICED`] stones whose last liberty
/// touches only the opponent's stones, the edge and the chain. The opponent's capture there
/// leaves one eye where the playouts would otherwise count two; without such throw-ins a group
/// the opponent can kill this way looks alive.
pub(super) fn sacrifice_in_eye_space(board: &Board, color: Color, p: Pt, empty: u16) -> bool {
    let own = board.stones_next_to(color, p);
    let mut size = 1;
    let mut last =
        (empty != 0).then(|| board.slot_neighbour(p, empty.trailing_zeros() as usize / 2));
    for n in board.chains_among(p, own) {
        size += board.chain_len(n);
        if size > MOST_SACRIFICED {
            return false;
        }
        last = last.or_else(|| board.liberty_other_than(n, p));
    }
    let Some(last) = last else {
        return false;
    };
    board.neighbors(last).into_iter().all(|q| {
        q == p
            || match board.cells[q.idx()] {
                EMPTY => false,
                cell if cell == color.cell() => {
                    board.chains_among(p, own).any(|n| board.same_chain(n, q))
                }
                _ => true, // the opponent's stone or the edge
            }
    })
}

/// Area score from Black's side without komi: stones plus empty points whose on-board neighbours
/// are all one colour. Exact at the end of a playout, where every empty point is such an eye;
/// elsewhere a quick estimate. Also adds one to `owned[row * size + col]` for every point Black
/// owns by that count: the search and `ownership` need both after every playout, in one pass.
pub(super) fn tally(board: &Board, owned: &mut [u32]) -> i32 {
    let size = board.size();
    let mut score = 0;
    for (row, owned_row) in owned.chunks_exact_mut(size).enumerate() {
        for (col, o) in owned_row.iter_mut().enumerate() {
            let who = owner(board, board.pt(col, row));
            *o += u32::from(who == BLACK);
            score += i32::from(who == BLACK) - i32::from(who == WHITE);
        }
    }
    score
}

/// Who owns `p` in the playout count: the stone on it, or the one colour around an empty point
/// (EMPTY when neither).
#[inline]
pub(super) fn owner(board: &Board, p: Pt) -> u8 {
    let cell = board.cells[p.idx()];
    if cell != EMPTY {
        return cell;
    }
    match board.colours_around(p) {
        BLACK => BLACK,
        WHITE => WHITE,
        _ => EMPTY,
    }
}

/// Share of a playout's value that comes from its margin rather than from who won (Pachi's
/// `val_scale`): too small to prefer a bigger margin to a win, enough that among moves that win
/// (or lose) alike the search prefers the one that gives away fewer points.
const MARGIN_SHARE: f32 = 0.04;

/// The value of a playout for Black on a `size`×`size` board that Black won by `margin` (komi
/// included, negative for a loss): mostly [`outcome`], plus [`MARGIN_SHARE`] of a smooth grade of
/// the margin. `1 - value(m) = value(-m)`, so it favours neither colour.
pub(super) fn value(margin: f32, size: usize) -> f32 {
    let scale = (size * size) as f32 / 8.0;
    let grade = 0.5 * (1.0 + (margin / scale).tanh());
    (1.0 - MARGIN_SHARE) * outcome(margin) + MARGIN_SHARE * grade
}

/// 1.0 for a Black win by `margin` (komi included), 0.0 for a loss, 0.5 for a jigo.
pub(super) fn outcome(margin: f32) -> f32 {
    if margin > 0.0 {
        1.0
    } else if margin < 0.0 {
        0.0
    } else {
        0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn playouts_end_with_nothing_left_to_play_and_are_reproducible() {
        for size in [5, 9, 13] {
            let mut first = None;
            for _ in 0..2 {
                let mut b = Board::new(size);
                let mut rng = SmallRng::seed_from_u64(42);
                let mut moves = Vec::new();
                run(
                    &mut b,
                    Color::Black,
                    0,
                    Policy { patterns: true },
                    &mut rng,
                    Some(&mut moves),
                );
                assert!(
                    moves.len() >= size * size / 2,
                    "{size}: {} moves",
                    moves.len()
                );
                // Two passes end it: what is left empty is eyes, and shared points (seki) that
                // neither side may fill without putting its own stones into atari.
                for &p in b.empties() {
                    for color in [Color::Black, Color::White] {
                        assert!(!random_candidate(&b, color, p), "{color:?} may play\n{b:?}");
                    }
                }
                let snapshot = (b.hash(), moves.len());
                assert_eq!(*first.get_or_insert(snapshot), snapshot);
            }
        }
    }

    /// `is_self_atari` spelled out: play the stone on a copy and look at what is left.
    fn self_atari_by_playing(board: &Board, color: Color, p: Pt) -> bool {
        let mut after = board.clone();
        match after.play(color, p) {
            Ok(captured) => captured == 0 && after.liberties(p) <= 1,
            Err(_) => true, // suicide
        }
    }

    #[test]
    fn self_atari_agrees_with_playing_the_move_in_random_positions() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut checked = [0usize; 2];
        for size in [5, 7, 9] {
            for _ in 0..12 {
                let mut b = Board::new(size);
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    for &p in b.empties() {
                        if b.cells[p.idx()] == EMPTY && b.ko != Some((p, color)) {
                            let want = self_atari_by_playing(&b, color, p);
                            assert_eq!(is_self_atari(&b, color, p), want, "{p:?}\n{b:?}");
                            checked[usize::from(want)] += 1;
                        }
                    }
                    let legal = b.legal_moves(color);
                    if legal.is_empty() {
                        b.pass();
                    } else {
                        b.play(color, legal[below(&mut rng, legal.len())]).unwrap();
                    }
                    color = color.opponent();
                }
            }
        }
        assert!(checked[0] > 1000 && checked[1] > 1000, "{checked:?}");
    }

    #[test]
    fn self_atari_is_recognised() {
        let mut b = Board::new(9);
        for (c, r) in [(0, 1), (1, 0)] {
            b.place_setup(Color::White, b.pt(c, r)).unwrap();
        }
        // A black stone on the 1-1 point would have no liberty: suicide, also "self-atari".
        assert!(is_self_atari(&b, Color::Black, b.pt(0, 0)));
        // Extending a chain in atari by one point gives it only one liberty again.
        b.place_setup(Color::Black, b.pt(4, 0)).unwrap();
        b.place_setup(Color::White, b.pt(5, 0)).unwrap();
        b.place_setup(Color::White, b.pt(5, 1)).unwrap();
        b.place_setup(Color::White, b.pt(3, 0)).unwrap();
        b.place_setup(Color::White, b.pt(3, 1)).unwrap();
        b.place_setup(Color::White, b.pt(5, 2)).unwrap();
        assert_eq!(b.liberties(b.pt(4, 0)), 1);
        assert!(
            is_self_atari(&b, Color::Black, b.pt(4, 1)),
            "e2 leaves only e3"
        );
        b.place_setup(Color::White, b.pt(4, 3)).unwrap();
        assert!(!is_self_atari(&b, Color::White, b.pt(4, 2)));
        assert!(!is_self_atari(&b, Color::Black, b.pt(7, 7)));
        // Capturing is never self-atari.
        assert!(!is_self_atari(&b, Color::White, b.pt(4, 1)));
    }

    #[test]
    fn a_chain_goes_into_atari_only_as_a_small_sacrifice_in_the_opponents_eye_space() {
        // Black stones on the second row inside White's wall; the move on the second row at
        // column `col` joins them in atari, its last liberty next to it.
        let wall = "OOOOOOO";
        for (third_row, second_row, col, sacrificed) in [
            (wall, "XX..OOO", 2, true), // three stones, the last liberty inside White's wall
            (wall, "XXX..OO", 3, true), // four: captured, a square or a line of four
            (wall, "XXXX..O", 4, false), // five are too many
            // The wall open above the last liberty holds no eye space there: the stones would
            // only be given away.
            ("OOO.OOO", "XX..OOO", 2, false),
        ] {
            let b = Board::from_rows(&[wall, wall, wall, wall, third_row, second_row, wall]);
            let p = b.pt(col, 1);
            assert!(is_self_atari(&b, Color::Black, p), "{second_row}");
            assert_eq!(
                random_candidate(&b, Color::Black, p),
                sacrificed,
                "{third_row} {second_row}"
            );
        }
    }

    #[test]
    fn score_counts_stones_and_one_colour_eyes() {
        let mut b = Board::new(5);
        for r in 0..5 {
            b.place_setup(Color::Black, b.pt(1, r)).unwrap();
            b.place_setup(Color::White, b.pt(3, r)).unwrap();
        }
        // Columns a (black's), c (shared), e (white's): 10 - 10 and c counts for nobody.
        let mut owned = vec![0; 25];
        assert_eq!(tally(&b, &mut owned), 0);
        assert_eq!(owned.iter().sum::<u32>(), 10);
        assert_eq!(owned[..5], [1, 1, 0, 0, 0], "the bottom row");
        assert_eq!(outcome(0.0), 0.5);
        b.place_setup(Color::Black, b.pt(2, 0)).unwrap();
        assert_eq!(tally(&b, &mut owned), 1);
        assert_eq!(owned[..5], [2, 2, 1, 0, 0]);
        assert_eq!(outcome(1.0 - 0.5), 1.0);
        assert_eq!(outcome(1.0 - 7.0), 0.0);
    }
}
