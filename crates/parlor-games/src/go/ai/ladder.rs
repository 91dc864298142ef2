//! Ladder reading, as Pachi (`tactics/ladder.c`) and Fuego (`GoLadder`) do it: a chain with two
//! liberties, the attacker to move, is caught in a ladder when the attacker can give atari on one
//! of them so that the chain, extending on its last liberty, again has two liberties and can be
//! given atari again, until it is captured. The chain escapes when an extension gives it three
//! liberties or more (open space, or a ladder breaker: a friendly stone on the ladder's path), or
//! when it can capture an attacker chain in atari next to it.
//!
//! The attacker tries both ataris, but skips one whose escape point has three empty neighbours
//! besides the atari: the extension there would have three liberties, so only the atari that
//! keeps the chain cramped is read, as Pachi prunes its middle-ladder reading. In a plain ladder
//! that leaves one line of play. The tree's priors read every line; the playouts read one
//! ([`caught_after_in_line`]), which never needs to go back. Most questions are settled from
//! the position itself (the liberties a move gives, whether an escape is open); the others are
//! read on a scratch board kept per thread, which a reading overwrites with the position and
//! plays the line on, going back by copying the position again and replaying the line (no
//! undo; no allocation but the scratch board's, once per thread). A reading stops after
//! [`PLIES_PER_LINE`] plies per board line, enough for a ladder across the whole board, or
//! after [`MAX_PLAYS`] plays, and calls the chain escaped then.
//!
//! Everything here reads stones, liberties and geometry only, never a colour as such, so the
//! answers are the same with the colours swapped. Ko is respected as the board knows it (the
//! simple ko); superko is not.

use std::cell::RefCell;

use super::super::board::{Board, Color, Pt};

/// Plies read per board line: a ladder moves one line per two plies and crosses every row and
/// column at most once, so `4 · size` plies cover any ladder on the board.
const PLIES_PER_LINE: usize = 4;
/// The longest line a reading holds.
const MAX_PLIES: usize = PLIES_PER_LINE * Board::MAX_SIZE;
/// Plays (replays included) one reading may make before it calls the chain escaped: branching
/// ladders among many stones cost more than a reading is worth.
const MAX_PLAYS: u32 = 1000;

/// Whether the chain that `color` makes by playing the empty point `p` is caught in a ladder:
/// the opponent, to move next, captures it by giving atari again and again. True as well when
/// the move is illegal or leaves the chain with one liberty (it is captured at once). This is
/// the question for extending a chain in atari on its last liberty.
pub(super) fn caught_after(board: &Board, color: Color, p: Pt) -> bool {
    caught_after_reading(board, color, p, Lines::All)
}

/// [`caught_after`] reading one line: the attacker gives the atari that leaves the more cramped
/// escape (the other one only when that one cannot be played), and the chain escapes if that
/// fails. A plain ladder is one line, so it is read to its end all the same; what is lost is
/// the rarer second try in a crowd of stones, which costs a rewind of the board. For the
/// playouts, where the reading must be cheap.
pub(super) fn caught_after_in_line(board: &Board, color: Color, p: Pt) -> bool {
    caught_after_reading(board, color, p, Lines::One)
}

/// How much of the attacker's choice a reading explores.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lines {
    /// Both ataris wherever both may catch.
    All,
    /// One line of play, see [`caught_after_in_line`].
    One,
}

fn caught_after_reading(board: &Board, color: Color, p: Pt, lines: Lines) -> bool {
    if !board.is_legal(color, p) {
        return true;
    }
    // Most answers need no copy of the board: the liberties the move gives, and whether the
    // attacker has an atari that keeps the chain cramped.
    if let Some((count, libs)) = liberties_after(board, color, p) {
        match count {
            0 | 1 => return true,
            2 if open(board, libs[1], libs[0], p) && open(board, libs[0], libs[1], p) => {
                return false;
            }
            2 => {}
            _ => return false,
        }
    }
    with_reader(board, color, lines, |read| {
        read.play(p);
        match read.board.liberties(p) {
            0 | 1 => true,
            2 => read.attacker_catches(p),
            _ => false,
        }
    })
}

/// Whether `attacker` playing the empty point `p` gives atari to the enemy chain at `target`
/// (which has two liberties, `p` one of them) and captures it in a ladder: the chain cannot
/// escape by capturing an attacker chain in atari nor by extending on its last liberty.
pub(super) fn captures(board: &Board, attacker: Color, p: Pt, target: Pt) -> bool {
    if board.stone(target) != Some(attacker.opponent()) || board.liberties(target) != 2 {
        return false;
    }
    let Some(escape) = board.liberty_other_than(target, p) else {
        return false;
    };
    if escape == p || open(board, escape, p, p) || !board.is_legal(attacker, p) {
        return false; // `p` is no liberty of the chain, or the chain runs into open space
    }
    with_reader(board, attacker, Lines::All, |read| {
        read.play(p);
        !read.defender_escapes(target)
    })
}

thread_local! {
    /// Each thread's board for readings to play on: a reading copies into it only the part of
    /// the position that the board size uses (`Board::copy_from`, less than half of a clone on
    /// 19×19), and it stays warm in the cache between the readings of a playout.
    static SCRATCH: RefCell<Option<Box<Board>>> = const { RefCell::new(None) };
}

/// Runs `read` on a reader set up at `root` with `first` to move, on this thread's scratch
/// board (or on a copy of its own, should a reading ever be nested in another).
fn with_reader<R>(
    root: &Board,
    first: Color,
    lines: Lines,
    read: impl FnOnce(&mut Reader) -> R,
) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let board = slot.get_or_insert_with(|| Box::new(root.clone()));
            board.copy_from(root);
            read(&mut Reader::new(root, board, first, lines))
        }
        Err(_) => read(&mut Reader::new(root, &mut root.clone(), first, lines)),
    })
}

/// Whether the empty point `escape` has three empty neighbours other than `atari` and `filled`:
/// a chain extending there after an atari at `atari` has three liberties or more (`filled` is a
/// point that is empty on `board` but is taken by then, or `atari` again).
fn open(board: &Board, escape: Pt, atari: Pt, filled: Pt) -> bool {
    let free = board
        .neighbors(escape)
        .into_iter()
        .filter(|&n| n != atari && n != filled && board.stone(n).is_none() && board.on_board(n))
        .count();
    free >= 3
}

/// The liberties of the chain a `color` stone at the empty point `p` would make, read without
/// playing: how many (counted up to three) and, when there are exactly two, which. None when the
/// stone would capture something (captures add liberties that are not there yet).
fn liberties_after(board: &Board, color: Color, p: Pt) -> Option<(usize, [Pt; 2])> {
    if board.stones_next_to(color.opponent(), p) & board.liberty_classes(p).0 != 0 {
        return None;
    }
    let mut found = [Pt(0); 3];
    let mut count = 0;
    let mut add = |q: Pt| {
        if q != p && !found[..count].contains(&q) {
            found[count] = q;
            count += 1;
        }
        count == 3
    };
    let mut empty = board.empty_neighbours(p);
    while empty != 0 {
        let q = board.slot_neighbour(p, empty.trailing_zeros() as usize / 2);
        empty &= empty - 1;
        if add(q) {
            return Some((3, [found[0], found[1]]));
        }
    }
    for n in board.chains_among(p, board.stones_next_to(color, p)) {
        if board.chain_liberties(n) > 3 {
            return Some((3, [found[0], found[1]])); // three left besides `p`
        }
        for s in board.chain(n) {
            let mut empty = board.empty_neighbours(s);
            while empty != 0 {
                let q = board.slot_neighbour(s, empty.trailing_zeros() as usize / 2);
                empty &= empty - 1;
                if add(q) {
                    return Some((3, [found[0], found[1]]));
                }
            }
        }
    }
    Some((count, [found[0], found[1]]))
}

/// One reading: a copy of the position, the line played on it, and the budget left.
struct Reader<'a> {
    root: &'a Board,
    /// The position after the line (a copy of `root` to begin with).
    board: &'a mut Board,
    /// Who plays the line's first move (the colours alternate from there).
    first: Color,
    lines: Lines,
    line: [Pt; MAX_PLIES + 2],
    len: usize,
    /// The longest line for this board size.
    max_len: usize,
    plays: u32,
}

impl<'a> Reader<'a> {
    fn new(root: &'a Board, board: &'a mut Board, first: Color, lines: Lines) -> Self {
        Reader {
            root,
            board,
            first,
            lines,
            line: [Pt(0); MAX_PLIES + 2],
            len: 0,
            max_len: PLIES_PER_LINE * root.size(),
            plays: 0,
        }
    }

    /// Who plays the next move of the line.
    fn to_move(&self) -> Color {
        if self.len.is_multiple_of(2) {
            self.first
        } else {
            self.first.opponent()
        }
    }

    /// Plays the next move of the line if it is legal; false (and nothing played) if not.
    fn play(&mut self, p: Pt) -> bool {
        let color = self.to_move();
        if !self.board.is_legal(color, p) {
            return false;
        }
        self.board.play_unchecked(color, p);
        self.line[self.len] = p;
        self.len += 1;
        self.plays += 1;
        true
    }

    /// Goes back to the position after the line's first `len` moves.
    fn rewind(&mut self, len: usize) {
        self.board.copy_from(self.root);
        let mut color = self.first;
        for &p in &self.line[..len] {
            self.board.play_unchecked(color, p);
            color = color.opponent();
        }
        self.len = len;
        self.plays += len as u32;
    }

    /// The defender's chain at `chain` has two liberties and the attacker is to move: whether
    /// an atari on one of them leads to its capture.
    fn attacker_catches(&mut self, chain: Pt) -> bool {
        if self.len + 2 > self.max_len || self.plays >= MAX_PLAYS {
            return false; // too long to read: call it an escape
        }
        let Some(a) = self.board.some_liberty(chain) else {
            return false;
        };
        let Some(b) = self.board.liberty_other_than(chain, a) else {
            return false;
        };
        // The atari that leaves the chain the more cramped escape first: it is the likelier
        // to catch, and a failed first try costs a rewind.
        let free = |q: Pt| self.board.empty_neighbours(q).count_ones();
        let (a, b) = if free(a) < free(b) { (b, a) } else { (a, b) };
        let start = self.len;
        for (atari, escape) in [(a, b), (b, a)] {
            if open(self.board, escape, atari, atari) {
                continue;
            }
            if self.len != start {
                if self.lines == Lines::One {
                    break;
                }
                self.rewind(start);
            }
            if self.play(atari) && !self.defender_escapes(chain) {
                return true;
            }
        }
        false
    }

    /// The defender's chain at `chain` is in atari and the defender is to move: whether it
    /// escapes, by capturing an attacker chain in atari next to it or by extending.
    fn defender_escapes(&mut self, chain: Pt) -> bool {
        let defender = self.to_move();
        if self.can_capture_around(defender, chain) {
            return true;
        }
        let Some(lib) = self.board.some_liberty(chain) else {
            return false;
        };
        if !self.play(lib) {
            return false; // no extension: captured next move
        }
        match self.board.liberties(chain) {
            0 | 1 => false,
            2 => !self.attacker_catches(chain),
            _ => true,
        }
    }

    /// Whether `defender` can legally capture an enemy chain in atari next to the chain at
    /// `chain`.
    fn can_capture_around(&self, defender: Color, chain: Pt) -> bool {
        let board = &self.board;
        board.chain(chain).any(|s| {
            let mut enemies =
                board.stones_next_to(defender.opponent(), s) & board.liberty_classes(s).0;
            while enemies != 0 {
                let n = board.slot_neighbour(s, enemies.trailing_zeros() as usize / 2);
                enemies &= enemies - 1;
                if board
                    .some_liberty(n)
                    .is_some_and(|lib| board.is_legal(defender, lib))
                {
                    return true;
                }
            }
            false
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point named like `d4`: a column letter from `a` (no letter skipped) and a row from 1
    /// at the bottom.
    fn at(b: &Board, s: &str) -> Pt {
        let col = (s.as_bytes()[0] - b'a') as usize;
        let row: usize = s[1..].parse().unwrap();
        b.pt(col, row - 1)
    }

    /// A `size`×`size` position (rows top first, as `Board::from_rows` takes them) with `black`
    /// and `white` stones on the named points.
    fn position(size: usize, black: &[&str], white: &[&str]) -> Vec<String> {
        let mut rows = vec![".".repeat(size); size];
        for (points, stone) in [(black, "X"), (white, "O")] {
            for p in points {
                let col = (p.as_bytes()[0] - b'a') as usize;
                let row: usize = p[1..].parse().unwrap();
                rows[size - row].replace_range(col..col + 1, stone);
            }
        }
        rows
    }

    /// The board of `rows`, and the same with the colours swapped.
    fn boards(rows: &[String]) -> (Board, Board) {
        let swap = |c: char| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        };
        let swapped: Vec<String> = rows.iter().map(|r| r.chars().map(swap).collect()).collect();
        let board = |rows: &[String]| {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            Board::from_rows(&rows)
        };
        (board(rows), board(&swapped))
    }

    /// `caught_after` for `color` at `p`, checked to be the same with the colours swapped.
    fn caught(rows: &[String], color: Color, p: &str) -> bool {
        let (b, s) = boards(rows);
        let answer = caught_after(&b, color, at(&b, p));
        assert_eq!(answer, caught_after(&s, color.opponent(), at(&s, p)));
        answer
    }

    /// `captures` for `attacker` at `p` against the chain at `target`, checked to be the same
    /// with the colours swapped.
    fn ladder_capture(rows: &[String], attacker: Color, p: &str, target: &str) -> bool {
        let (b, s) = boards(rows);
        let answer = captures(&b, attacker, at(&b, p), at(&b, target));
        let mirror = captures(&s, attacker.opponent(), at(&s, p), at(&s, target));
        assert_eq!(answer, mirror);
        answer
    }

    /// The line that catches the chain `color` makes at `p` (the moves after `p`, as `d4`
    /// names), or None when it escapes.
    fn catching_line(rows: &[String], color: Color, p: &str) -> Option<Vec<String>> {
        let (b, _) = boards(rows);
        let mut scratch = b.clone();
        let mut read = Reader::new(&b, &mut scratch, color, Lines::All);
        assert!(read.play(at(&b, p)));
        if !read.attacker_catches(at(&b, p)) {
            return None;
        }
        let name = |q: &Pt| {
            let (col, row) = b.col_row(*q);
            format!("{}{}", (b'a' + col as u8) as char, row + 1)
        };
        Some(read.line[1..read.len].iter().map(name).collect())
    }

    /// Black's stone at d10 on 13×13, in atari: White holds c10, d11, e11 and d9, the liberty
    /// is e10. Extending there gives two liberties (f10, e9); White's atari at f10 drives the
    /// chain down and to the right, e9 f9 f8 g8 g7 h7 h6 i6 i5 j5 j4 k4 k3 l3 m3, to the edge,
    /// where m4 leaves it one liberty.
    const BLACK: [&str; 1] = ["d10"];
    const WHITE: [&str; 4] = ["c10", "d11", "e11", "d9"];

    fn ladder(black: &[&str], white: &[&str]) -> Vec<String> {
        let black: Vec<&str> = BLACK.iter().chain(black).copied().collect();
        let white: Vec<&str> = WHITE.iter().chain(white).copied().collect();
        position(13, &black, &white)
    }

    #[test]
    fn a_classic_ladder_catches_the_extension() {
        assert!(caught(&ladder(&[], &[]), Color::Black, "e10"));
        let line = catching_line(&ladder(&[], &[]), Color::Black, "e10").expect("caught");
        let want = "f10 e9 e8 f9 g9 f8 f7 g8 h8 g7 g6 h7 i7 h6 h5 i6 j6 i5 i4 j5 k5 j4 j3 k4 \
                    l4 k3 k2 l3 l2 m3 m2 m4";
        assert_eq!(line.join(" "), want);
        // After the extension, White's atari at f10 captures the two stones in the ladder; the
        // other atari, at e9, lets them out to the right.
        let extended = ladder(&["e10"], &[]);
        assert!(ladder_capture(&extended, Color::White, "f10", "d10"));
        assert!(!ladder_capture(&extended, Color::White, "e9", "e10"));
    }

    #[test]
    fn a_ladder_breaker_lets_the_chain_escape() {
        // A black stone on the ladder's path, near its end or at its start.
        for breaker in ["j4", "k3", "g7"] {
            let rows = ladder(&[breaker], &[]);
            assert!(!caught(&rows, Color::Black, "e10"), "breaker at {breaker}");
            let extended = ladder(&["e10", breaker], &[]);
            assert!(!ladder_capture(&extended, Color::White, "f10", "d10"));
        }
        // A white stone there only makes the ladder shorter.
        assert!(caught(&ladder(&[], &["j4"]), Color::Black, "e10"));
        // A black stone off the path changes nothing.
        assert!(caught(&ladder(&["b3"], &[]), Color::Black, "e10"));
    }

    #[test]
    fn capturing_an_attacker_stone_in_atari_escapes_the_ladder() {
        // Black's c9 takes a liberty of White's d9: once Black extends to e9, d9 is in atari
        // and Black captures it at d8 instead of running.
        assert!(!caught(&ladder(&["c9"], &[]), Color::Black, "e10"));
        // Further down: White's c9 keeps d9 safe, but Black's d8 leaves White's ladder stone
        // at e8 two liberties; when the chain reaches f8, e8 is in atari and Black takes it.
        assert!(!caught(&ladder(&["d8"], &["c9"]), Color::Black, "e10"));
        // Without d8 (or with c9 alone) it is a plain ladder again.
        assert!(caught(&ladder(&[], &["c9"]), Color::Black, "e10"));
    }

    #[test]
    fn ladders_run_into_the_edge_and_along_it() {
        // A ladder started near the bottom edge of 9×9 ends there: the chain reaches g1 with
        // one liberty.
        let rows = position(9, &["d4"], &["c4", "d5", "e5", "d3"]);
        let line = catching_line(&rows, Color::Black, "e4").expect("caught");
        assert_eq!(line.last().map(String::as_str), Some("g1"), "{line:?}");
        // A black stone on its path, or on the first line where it arrives, breaks it.
        for breaker in ["g2", "f1"] {
            let rows = position(9, &["d4", breaker], &["c4", "d5", "e5", "d3"]);
            assert!(!caught(&rows, Color::Black, "e4"), "breaker at {breaker}");
        }
        // A stone on the first line crawls along it under White's second-line stones into the
        // corner and dies there.
        let rows = position(9, &["c1"], &["b1", "c2"]);
        let line = catching_line(&rows, Color::Black, "d1").expect("caught");
        assert_eq!(line.last().map(String::as_str), Some("i1"), "{line:?}");
        for friend in ["g1", "h1"] {
            let rows = position(9, &["c1", friend], &["b1", "c2"]);
            assert!(!caught(&rows, Color::Black, "d1"), "friend at {friend}");
        }
        // With White's d3 the other atari, at e1, kills at once: the reader tries both.
        let rows = position(9, &["c1"], &["b1", "c2", "d3"]);
        assert_eq!(
            catching_line(&rows, Color::Black, "d1"),
            Some(vec!["e1".to_string(), "d2".to_string()])
        );
    }

    #[test]
    fn a_ladder_across_the_whole_board_is_read_to_its_end() {
        // From d16 on 19×19 the ladder runs 14 steps down and to the right, to the corner
        // (56 plies): a breaker at its far end, q3, decides it.
        let black = ["d16"];
        let white = ["c16", "d17", "e17", "d15"];
        let rows = position(19, &black, &white);
        let line = catching_line(&rows, Color::Black, "e16").expect("caught");
        assert!(line.len() > 50, "{line:?}");
        assert!(caught(&rows, Color::Black, "e16"));
        let rows = position(19, &["d16", "q3"], &white);
        assert!(!caught(&rows, Color::Black, "e16"));
    }

    /// `caught_after` without its shortcuts: always the full reading.
    fn caught_by_reading(board: &Board, color: Color, p: Pt) -> bool {
        let mut scratch = board.clone();
        let mut read = Reader::new(board, &mut scratch, color, Lines::All);
        if !read.play(p) {
            return true;
        }
        match read.board.liberties(p) {
            0 | 1 => true,
            2 => read.attacker_catches(p),
            _ => false,
        }
    }

    #[test]
    fn the_shortcuts_agree_with_reading_in_random_positions() {
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut seen = [0usize; 2];
        let mut one_line = [0usize; 2];
        for size in [7, 9, 13] {
            for _ in 0..6 {
                let mut b = Board::new(size);
                let mut color = Color::Black;
                for _ in 0..size * size {
                    for &p in b.empties() {
                        if !b.is_legal(color, p) {
                            continue;
                        }
                        let mut after = b.clone();
                        let captured = after.play(color, p).unwrap();
                        if captured == 0 {
                            let (count, libs) = liberties_after(&b, color, p).expect("no capture");
                            assert_eq!(count, after.liberties(p).min(3), "{p:?}\n{b:?}");
                            // The points are meaningful when there are two (callers read them
                            // only then).
                            for &l in &libs[..if count == 2 { 2 } else { 0 }] {
                                assert!(after.neighbors(l).iter().any(|&n| after.same_chain(n, p)));
                            }
                        }
                        let want = caught_by_reading(&b, color, p);
                        assert_eq!(caught_after(&b, color, p), want, "{p:?}\n{b:?}");
                        seen[usize::from(want)] += 1;
                        // One line of the reading finds a subset of the ladders.
                        let in_line = caught_after_in_line(&b, color, p);
                        assert!(!in_line || want, "{p:?}\n{b:?}");
                        one_line[usize::from(in_line)] += 1;
                    }
                    let legal = b.legal_moves(color);
                    if legal.is_empty() {
                        b.pass();
                    } else {
                        b.play(color, legal[rng.gen_range(0..legal.len())]).unwrap();
                    }
                    color = color.opponent();
                }
            }
        }
        assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
        // ... most of them.
        assert!(one_line[1] * 10 > seen[1] * 8, "{one_line:?} of {seen:?}");
    }

    #[test]
    fn open_space_is_no_ladder() {
        // A lone stone with one white stone next to it has three liberties: nothing to read.
        let rows = position(9, &["e5"], &["e6"]);
        assert!(!caught(&rows, Color::Black, "d5"));
        // Extending into three liberties at once escapes.
        let rows = position(9, &["e5"], &["e6", "d5", "f5"]);
        assert!(!caught(&rows, Color::Black, "e4"));
        // No ladder capture when the chain has more than two liberties.
        assert!(!ladder_capture(&rows, Color::White, "e4", "e5"));
    }
}
