//! The Go board: the performance core that the game rules and the AI playouts share.
//!
//! Layout (Pachi style): a padded one-dimensional array with a one-point border all around, so a
//! neighbour is `p ± 1` or `p ± stride` and never needs a bounds check. Stones of one chain form a
//! ring through `next`; every stone carries its chain id (the index of one of its stones), and per
//! chain id the board keeps the stone count and the exact liberty count, updated incrementally: a
//! move touches only the chains next to it. A Zobrist hash, the list of empty points and every
//! point's 3×3 neighbourhood code (two bits per neighbour, see [`Board::neighbourhood`]) are kept
//! up to date as well: the playouts' eye, liberty and pattern tests read one code instead of
//! eight cells. All storage is fixed-size arrays, so `play`, `is_legal` and `clone` never
//! allocate.
//!
//! Ko (seed 004): a move that captures exactly one stone may not be answered by retaking at once.
//! That is the standard simple ko: the ko point is set when a single stone captures exactly one
//! stone and is left with exactly one liberty (the point it captured on); a retake that would
//! capture more than one stone (a snapback) stays legal. Superko is the game's business, helped by
//! [`Board::hash_after`].

use std::fmt;

/// Largest padded array: a 25×25 board plus its border.
const MAX_STRIDE: usize = Board::MAX_SIZE + 2;
/// Points of the largest padded array.
const PADDED_POINTS: usize = MAX_STRIDE * MAX_STRIDE;
/// Length of the per-point arrays: a power of two, so that an index masked with
/// `MAX_POINTS - 1` (see [`Pt::idx`] and [`ix`]) is in bounds by construction and the compiler
/// drops the bounds checks from the hot paths.
pub(super) const MAX_POINTS: usize = PADDED_POINTS.next_power_of_two();

/// A chain id or ring link (a point index stored as `u16`) as an array index.
#[inline]
fn ix(point: u16) -> usize {
    point as usize & (MAX_POINTS - 1)
}

/// What is on a point of the padded array.
pub(super) const EMPTY: u8 = 0;
pub(super) const BLACK: u8 = 1;
pub(super) const WHITE: u8 = 2;
pub(super) const BORDER: u8 = 3;

/// In a neighbourhood code, the low bit of each orthogonal neighbour (slots 0 to 3).
const ORTH_LO: u16 = 0x0055;
/// In a neighbourhood code, the low bit of each diagonal neighbour (slots 4 to 7).
const DIAG_LO: u16 = 0x5500;
/// The low bit of every neighbour.
const ALL_LO: u16 = 0x5555;
/// Length of the window of codes from the lower left to the upper right neighbour of a point on
/// the largest board: fixed, so the compiler checks bounds once per window.
const CODE_WINDOW: usize = 2 * MAX_STRIDE + 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The cell value of this colour in the padded array.
    #[inline]
    pub(super) fn cell(self) -> u8 {
        match self {
            Color::Black => BLACK,
            Color::White => WHITE,
        }
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

/// A point index into the padded board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pt(pub u16);

impl Pt {
    /// The index of an on-board or border point (every such point is below `MAX_POINTS`).
    #[inline]
    pub(super) fn idx(self) -> usize {
        ix(self.0)
    }
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    Occupied,
    Suicide,
    Ko,
    OffBoard,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::Occupied => "that point is already occupied",
            Illegal::Suicide => "suicide is not allowed: the stone would have no liberty",
            Illegal::Ko => "ko: the stone just captured may not be retaken at once",
            Illegal::OffBoard => "that point is off the board",
        })
    }
}

impl std::error::Error for Illegal {}

/// Fixed-seed Zobrist keys, one per colour and padded point, built at compile time (splitmix64).
static ZOBRIST: [[u64; MAX_POINTS]; 2] = zobrist_table();

const fn zobrist_table() -> [[u64; MAX_POINTS]; 2] {
    let mut table = [[0u64; MAX_POINTS]; 2];
    let mut state: u64 = 0x5eed_0f60_b0a2_d004;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        // The padded points only, so the keys are those of the unpadded table.
        while i < PADDED_POINTS {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            table[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    table
}

/// The distinct chains next to a stone just placed: one neighbour of each (the first in slot
/// order), as bits in the slots of the 3×3 code (see [`Board::stones_next_to`]).
struct Contacts {
    friends: u16,
    /// Enemy chains the stone took the last liberty of.
    victims: u16,
}

#[derive(Clone)]
pub struct Board {
    pub(super) size: usize,
    /// Distance between vertically adjacent points: `size + 2`.
    pub(super) stride: usize,
    /// EMPTY, BLACK, WHITE or BORDER per padded point.
    pub(super) cells: [u8; MAX_POINTS],
    /// Chain id of the stone on a point; 0 on empty and border points, which no chain has
    /// (point 0 is a border corner), so comparing ids needs no look at what is on the points.
    pub(super) chain_id: [u16; MAX_POINTS],
    /// Next stone of the same chain: a ring through all its stones.
    pub(super) next: [u16; MAX_POINTS],
    /// Exact liberty count, indexed by chain id.
    pub(super) libs: [u16; MAX_POINTS],
    /// Stone count, indexed by chain id.
    pub(super) chain_size: [u16; MAX_POINTS],
    /// The empty on-board points, in no particular order.
    pub(super) empties: [Pt; MAX_POINTS],
    pub(super) empty_len: usize,
    /// Where each empty point sits in `empties`.
    pub(super) empty_pos: [u16; MAX_POINTS],
    /// 3×3 neighbourhood code of every on-board point (meaningless on border points). Padded
    /// so that a fixed-size window around any on-board point fits (see `flip_codes`).
    codes: [u16; MAX_POINTS + CODE_WINDOW],
    /// Index offset of the neighbour in each code slot.
    slot_offsets: [i16; 8],
    pub(super) hash: u64,
    /// The point the given colour may not play on this turn (simple ko).
    pub(super) ko: Option<(Pt, Color)>,
    pub(super) captures: [u32; 2],
    pub(super) last_move: Option<Pt>,
}

/// Two boards are equal when everything a player can observe is: size, stones, ko point,
/// capture counts and the last move (the internal chain ids and list orders may differ).
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self
                .points()
                .all(|p| self.cells[p.idx()] == other.cells[p.idx()])
            && self.ko == other.ko
            && self.captures == other.captures
            && self.last_move == other.last_move
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.size).rev() {
            for col in 0..self.size {
                let c = match self.stone(self.pt(col, row)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Board {
    pub const MIN_SIZE: usize = 5;
    pub const MAX_SIZE: usize = 25;

    /// An empty board. Panics outside `MIN_SIZE..=MAX_SIZE` (callers validate).
    pub fn new(size: usize) -> Board {
        assert!(
            (Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size),
            "board size {size} outside {}..={}",
            Self::MIN_SIZE,
            Self::MAX_SIZE
        );
        let stride = size + 2;
        let mut board = Board {
            size,
            stride,
            cells: [BORDER; MAX_POINTS],
            chain_id: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            libs: [0; MAX_POINTS],
            chain_size: [0; MAX_POINTS],
            empties: [Pt(0); MAX_POINTS],
            empty_len: 0,
            empty_pos: [0; MAX_POINTS],
            codes: [0; MAX_POINTS + CODE_WINDOW],
            slot_offsets: {
                let s = stride as i16;
                [-s, -1, 1, s, -s - 1, -s + 1, s - 1, s + 1]
            },
            hash: 0,
            ko: None,
            captures: [0; 2],
            last_move: None,
        };
        for row in 0..size {
            for col in 0..size {
                let p = board.pt(col, row);
                board.cells[p.idx()] = EMPTY;
                board.push_empty(p);
            }
        }
        for p in 0..MAX_POINTS {
            if board.cells[p] != BORDER {
                board.codes[p] = board.code_from_cells(Pt(p as u16));
            }
        }
        board
    }

    /// `*self = source.clone()`, copying only the part of the arrays a board of this size uses
    /// (a ninth of them on 9×9): the search resets its board from the root this way before
    /// every playout.
    pub(super) fn copy_from(&mut self, source: &Board) {
        if self.stride != source.stride {
            *self = source.clone();
            return;
        }
        // Every point a board of this size reads or writes is below stride², and the rest of
        // the arrays is the same for all boards of the size (border cells, unused slots).
        let n = self.stride * self.stride;
        self.cells[..n].copy_from_slice(&source.cells[..n]);
        self.chain_id[..n].copy_from_slice(&source.chain_id[..n]);
        self.next[..n].copy_from_slice(&source.next[..n]);
        self.libs[..n].copy_from_slice(&source.libs[..n]);
        self.chain_size[..n].copy_from_slice(&source.chain_size[..n]);
        self.empty_pos[..n].copy_from_slice(&source.empty_pos[..n]);
        self.codes[..n].copy_from_slice(&source.codes[..n]);
        let e = source.empty_len;
        self.empties[..e].copy_from_slice(&source.empties[..e]);
        self.empty_len = e;
        self.hash = source.hash;
        self.ko = source.ko;
        self.captures = source.captures;
        self.last_move = source.last_move;
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The point at `col` (0 = left, GTP `A`) and `row` (0 = bottom, GTP `1`).
    #[inline]
    pub fn pt(&self, col: usize, row: usize) -> Pt {
        debug_assert!(col < self.size && row < self.size);
        Pt(((row + 1) * self.stride + col + 1) as u16)
    }

    /// Inverse of [`Board::pt`] for an on-board point.
    #[inline]
    pub fn col_row(&self, p: Pt) -> (usize, usize) {
        (p.idx() % self.stride - 1, p.idx() / self.stride - 1)
    }

    #[inline]
    pub fn on_board(&self, p: Pt) -> bool {
        self.cells.get(p.0 as usize).is_some_and(|&c| c != BORDER)
    }

    #[inline]
    pub fn stone(&self, p: Pt) -> Option<Color> {
        match self.cells.get(p.0 as usize) {
            Some(&BLACK) => Some(Color::Black),
            Some(&WHITE) => Some(Color::White),
            _ => None,
        }
    }

    /// The four orthogonal neighbours (south, west, east, north); border points are included.
    #[inline]
    pub fn neighbors(&self, p: Pt) -> [Pt; 4] {
        let (i, s) = (p.0, self.stride as u16);
        [Pt(i - s), Pt(i - 1), Pt(i + 1), Pt(i + s)]
    }

    /// The four diagonal neighbours; border points are included.
    #[inline]
    pub fn diagonals(&self, p: Pt) -> [Pt; 4] {
        let (i, s) = (p.0, self.stride as u16);
        [Pt(i - s - 1), Pt(i - s + 1), Pt(i + s - 1), Pt(i + s + 1)]
    }

    /// Every on-board point, row by row from the bottom left.
    pub fn points(&self) -> impl Iterator<Item = Pt> + '_ {
        (0..self.size).flat_map(move |row| (0..self.size).map(move |col| self.pt(col, row)))
    }

    pub fn empties(&self) -> &[Pt] {
        &self.empties[..self.empty_len]
    }

    pub fn is_legal(&self, color: Color, p: Pt) -> bool {
        self.check(color, p).is_ok()
    }

    /// Whether `color` may play at `p`, and why not.
    pub fn check(&self, color: Color, p: Pt) -> Result<(), Illegal> {
        if !self.on_board(p) {
            return Err(Illegal::OffBoard);
        }
        if self.cells[p.idx()] != EMPTY {
            return Err(Illegal::Occupied);
        }
        if self.ko == Some((p, color)) {
            return Err(Illegal::Ko);
        }
        if self.has_liberty_after(color, p) {
            Ok(())
        } else {
            Err(Illegal::Suicide)
        }
    }

    /// Whether a stone of `color` at the empty point `p` would have a liberty after its captures:
    /// an empty neighbour, a friendly chain with another liberty, or an enemy chain in atari.
    #[inline]
    pub(super) fn has_liberty_after(&self, color: Color, p: Pt) -> bool {
        if self.empty_neighbours(p) != 0 {
            return true;
        }
        self.liberty_from_chains(color, p, self.liberty_classes(p))
    }

    /// Whether a stone of `color` at `p` gets a liberty from its neighbouring chains, given
    /// their [`Board::liberty_classes`]: a friendly chain with another liberty, or an enemy
    /// chain in atari it captures. For callers that have read the classes already.
    #[inline(always)]
    pub(super) fn liberty_from_chains(
        &self,
        color: Color,
        p: Pt,
        (one, several): (u16, u16),
    ) -> bool {
        (self.stones_next_to(color, p) & several) | (self.stones_next_to(color.opponent(), p) & one)
            != 0
    }

    /// Which orthogonal neighbours of `p` belong to a chain with exactly one liberty, and which
    /// to one with more (a bit per neighbour, as in [`Board::stones_next_to`]). Meaningful only
    /// for neighbours holding stones: callers mask with their stone bits. The four counts are
    /// read at once, without a branch per neighbour, because the playouts' legality and
    /// self-atari tests ask this of random points, where the outcome is hard to predict.
    #[inline]
    pub(super) fn liberty_classes(&self, p: Pt) -> (u16, u16) {
        let (i, s) = (p.idx(), self.stride);
        let libs = |r: usize| self.libs[ix(self.chain_id[ix(r as u16)])];
        let (mut one, mut several) = (0, 0);
        for (slot, r) in [i - s, i - 1, i + 1, i + s].into_iter().enumerate() {
            let l = libs(r);
            one |= u16::from(l == 1) << (2 * slot);
            several |= u16::from(l > 1) << (2 * slot);
        }
        (one, several)
    }

    /// Plays a stone: removes captured chains, updates liberties, hash, ko point. Returns stones captured.
    pub fn play(&mut self, color: Color, p: Pt) -> Result<u32, Illegal> {
        self.check(color, p)?;
        Ok(self.play_unchecked(color, p))
    }

    /// [`Board::play`] for a move already known to be legal (the AI's playouts).
    pub(super) fn play_unchecked(&mut self, color: Color, p: Pt) -> u32 {
        let contacts = self.put_stone(color, p);
        self.last_move = Some(p);
        // Merge with friendly neighbours first, then capture: captures add liberties to the
        // merged chain through the chain ids, so they are counted once.
        self.join_friends(p, contacts.friends);
        let mut captured = 0;
        let mut last_captured = p;
        let mut victims = contacts.victims;
        while victims != 0 {
            let n = self.slot_neighbour(p, victims.trailing_zeros() as usize / 2);
            victims &= victims - 1;
            captured += self.remove_chain(n);
            last_captured = n;
        }
        self.captures[color.index()] += captured;
        let id = ix(self.chain_id[p.idx()]);
        self.ko = if captured == 1 && self.chain_size[id] == 1 && self.libs[id] == 1 {
            Some((last_captured, color.opponent()))
        } else {
            None
        };
        captured
    }

    /// A stone placed without capture/ko logic (handicap/setup stones; AB/AW in SGF). Errors if
    /// occupied or off the board. A setup stone may leave chains without liberties only if the
    /// record says so; the board keeps counting them exactly.
    pub fn place_setup(&mut self, color: Color, p: Pt) -> Result<(), Illegal> {
        if !self.on_board(p) {
            return Err(Illegal::OffBoard);
        }
        if self.cells[p.idx()] != EMPTY {
            return Err(Illegal::Occupied);
        }
        let contacts = self.put_stone(color, p);
        self.join_friends(p, contacts.friends);
        self.ko = None;
        Ok(())
    }

    /// A pass: clears the ko point.
    pub fn pass(&mut self) {
        self.ko = None;
        self.last_move = None;
    }

    pub fn ko_point(&self) -> Option<Pt> {
        self.ko.map(|(p, _)| p)
    }

    /// Positional hash: stones only (not the side to move, not the ko point).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash if `color` played at `p` (for superko), None if the move is illegal.
    pub fn hash_after(&self, color: Color, p: Pt) -> Option<u64> {
        self.check(color, p).ok()?;
        let mut hash = self.hash ^ ZOBRIST[color.index()][p.idx()];
        let enemy = color.opponent();
        let mut seen = [0u16; 4];
        for (i, n) in self.neighbors(p).into_iter().enumerate() {
            if self.cells[n.idx()] != enemy.cell() {
                continue;
            }
            let id = self.chain_id[n.idx()];
            if self.libs[ix(id)] == 1 && !seen[..i].contains(&id) {
                seen[i] = id;
                for s in self.chain(n) {
                    hash ^= ZOBRIST[enemy.index()][s.idx()];
                }
            }
        }
        Some(hash)
    }

    /// Exact liberties of the chain at stone `p` (0 for an empty or off-board point).
    #[inline]
    pub fn liberties(&self, p: Pt) -> usize {
        match self.cells.get(p.0 as usize) {
            Some(&BLACK) | Some(&WHITE) => self.libs[ix(self.chain_id[p.idx()])] as usize,
            _ => 0,
        }
    }

    /// Exact liberties of the chain at `p`, which must hold a stone (no check, for hot loops
    /// that found it through a neighbourhood code).
    #[inline]
    pub(super) fn chain_liberties(&self, p: Pt) -> usize {
        debug_assert!(self.stone(p).is_some());
        self.libs[ix(self.chain_id[p.idx()])] as usize
    }

    /// Stones of the chain at `p` (nothing for an empty point).
    pub fn chain(&self, p: Pt) -> impl Iterator<Item = Pt> + '_ {
        let start = self.stone(p).map(|_| p);
        let mut cur = start;
        std::iter::from_fn(move || {
            let here = cur?;
            let next = Pt(self.next[here.idx()]);
            cur = if Some(next) == start {
                None
            } else {
                Some(next)
            };
            Some(here)
        })
    }

    /// Number of stones in the chain at stone `p`.
    #[inline]
    pub fn chain_len(&self, p: Pt) -> usize {
        self.chain_size[ix(self.chain_id[p.idx()])] as usize
    }

    /// Whether `a` and `b` are stones of one chain.
    #[inline]
    pub fn same_chain(&self, a: Pt, b: Pt) -> bool {
        self.stone(a).is_some()
            && self.stone(b).is_some()
            && self.chain_id[a.idx()] == self.chain_id[b.idx()]
    }

    /// Stones captured BY `by` so far.
    pub fn captures(&self, by: Color) -> u32 {
        self.captures[by.index()]
    }

    /// The last stone played with [`Board::play`]; None after a pass or at the start.
    pub fn last_move(&self) -> Option<Pt> {
        self.last_move
    }

    /// One liberty of the chain at stone `p` (its only one when it is in atari): the first
    /// empty neighbour, in slot order, of the first stone that has one along the chain's ring.
    pub fn some_liberty(&self, p: Pt) -> Option<Pt> {
        self.stone(p)?;
        self.liberty_other_than(p, Pt(0)) // point 0 is a border point: never a liberty
    }

    /// A liberty of the chain at stone `p` other than `not`, if it has one.
    #[inline]
    pub(super) fn liberty_other_than(&self, p: Pt, not: Pt) -> Option<Pt> {
        let start = p.idx();
        let mut s = start;
        loop {
            let stone = Pt(s as u16);
            let mut empty = self.empty_neighbours(stone);
            while empty != 0 {
                let q = self.slot_neighbour(stone, empty.trailing_zeros() as usize / 2);
                empty &= empty - 1;
                if q != not {
                    return Some(q);
                }
            }
            s = ix(self.next[s]);
            if s == start {
                return None;
            }
        }
    }

    /// Whether `p` is an empty point whose orthogonal neighbours are all `color` or border and
    /// whose diagonals do not make it a false eye (at most one enemy diagonal in the centre, none
    /// on the edge). This is the playouts' "do not fill your own eye" test.
    #[inline]
    pub fn is_eyeish(&self, color: Color, p: Pt) -> bool {
        self.cells.get(p.0 as usize) == Some(&EMPTY) && self.is_eyeish_empty(color, p)
    }

    /// [`Board::is_eyeish`] for a point known to be empty. One expression without branches:
    /// the playouts ask it of random points, own eyes and others mixed.
    #[inline]
    pub(super) fn is_eyeish_empty(&self, color: Color, p: Pt) -> bool {
        // Per neighbour, BLACK = 01, WHITE = 10, BORDER = 11: "own or border" is "own bit set".
        let code = self.codes[p.idx()];
        let (lo, hi) = (code & ALL_LO, (code >> 1) & ALL_LO);
        let (own_bit, enemy_bit) = match color {
            Color::Black => (lo, hi),
            Color::White => (hi, lo),
        };
        let enclosed = own_bit & ORTH_LO == ORTH_LO;
        let enemy_diagonals = enemy_bit & !own_bit & DIAG_LO;
        let on_edge = lo & hi & DIAG_LO != 0;
        let at_most_one = enemy_diagonals & enemy_diagonals.wrapping_sub(1) == 0;
        // No enemy diagonal on the edge, at most one in the centre.
        enclosed & ((enemy_diagonals == 0) | (!on_edge & at_most_one))
    }

    /// The 3×3 neighbourhood code of the on-board point `p`: two bits per neighbour (EMPTY,
    /// BLACK, WHITE or BORDER), the neighbour in slot `k` at bits `2k..2k+2`. Slots 0 to 3 are
    /// the orthogonal neighbours in the order of [`Board::neighbors`] (south, west, east,
    /// north), slots 4 to 7 the diagonals in the order of [`Board::diagonals`] (south-west,
    /// south-east, north-west, north-east). Kept up to date by every move, so reading it costs
    /// one load.
    #[inline]
    pub(super) fn neighbourhood(&self, p: Pt) -> u16 {
        self.codes[p.idx()]
    }

    /// The neighbour of `p` in code slot `slot` (0..8, see [`Board::neighbourhood`]).
    #[inline]
    pub(super) fn slot_neighbour(&self, p: Pt, slot: usize) -> Pt {
        Pt(p.0.wrapping_add_signed(self.slot_offsets[slot]))
    }

    /// One bit (the low bit of its code slot) per empty neighbour of `p`, diagonals included.
    #[inline]
    pub(super) fn empty_around(&self, p: Pt) -> u16 {
        let code = self.codes[p.idx()];
        !(code | code >> 1) & ALL_LO
    }

    /// The colours of the stones orthogonally next to `p`: BLACK, WHITE, both (BLACK | WHITE)
    /// or none (EMPTY).
    #[inline]
    pub(super) fn colours_around(&self, p: Pt) -> u8 {
        let code = self.codes[p.idx()];
        let (lo, hi) = (code & ORTH_LO, (code >> 1) & ORTH_LO);
        (u8::from(lo & !hi != 0) * BLACK) | (u8::from(hi & !lo != 0) * WHITE)
    }

    /// One bit (the low bit of its code slot) per empty orthogonal neighbour of `p`.
    #[inline]
    pub(super) fn empty_neighbours(&self, p: Pt) -> u16 {
        let code = self.codes[p.idx()];
        !(code | code >> 1) & ORTH_LO
    }

    /// One bit (the low bit of its code slot) per orthogonal neighbour of `p` holding a stone
    /// of `color`.
    #[inline]
    pub(super) fn stones_next_to(&self, color: Color, p: Pt) -> u16 {
        Self::own_bits(self.codes[p.idx()], color)
    }

    /// One stone of each distinct chain among the orthogonal neighbours of `p` that `slots`
    /// selects (one bit per code slot, as [`Board::stones_next_to`] gives them): two neighbours
    /// in one chain count once.
    #[inline]
    pub(super) fn chains_among(&self, p: Pt, mut slots: u16) -> impl Iterator<Item = Pt> + '_ {
        let mut seen = [Pt(0); 4];
        let mut count = 0;
        std::iter::from_fn(move || {
            while slots != 0 {
                let n = self.slot_neighbour(p, slots.trailing_zeros() as usize / 2);
                slots &= slots - 1;
                if !seen[..count].iter().any(|&s| self.same_chain(s, n)) {
                    seen[count] = n;
                    count += 1;
                    return Some(n);
                }
            }
            None
        })
    }

    /// The neighbourhood code of `p` read from the cells (the definition the kept codes follow).
    fn code_from_cells(&self, p: Pt) -> u16 {
        // One slice from the lower left to the upper right neighbour, so the reads need no checks.
        let (i, s) = (p.idx(), self.stride);
        let w = &self.cells[i - s - 1..i + s + 2];
        let at = |k: usize| w[k] as u16;
        at(1) // south: the slice runs bottom row first
            | at(s) << 2
            | at(s + 2) << 4
            | at(2 * s + 1) << 6
            | at(0) << 8
            | at(2) << 10
            | at(2 * s) << 12
            | at(2 * s + 2) << 14
    }

    /// Updates the codes around `q` after its cell changed by `delta` (old XOR new value): `q`
    /// is neighbour `k` of the point on the opposite side, whose code changes in slot `k`.
    #[inline]
    fn flip_codes(&mut self, q: usize, delta: u8) {
        // `min` tells the compiler what `new` guarantees, so the indices below need no checks.
        let (s, d) = (self.stride.min(MAX_STRIDE), delta as u16);
        // The window runs from q - s - 1 (index 0) to q + s + 1 (index 2s + 2).
        let w: &mut [u16; CODE_WINDOW] = (&mut self.codes[q - s - 1..][..CODE_WINDOW])
            .try_into()
            .expect("the window has CODE_WINDOW codes");
        w[2 * s + 1] ^= d; // q is the south neighbour of q + s
        w[s + 2] ^= d << 2; // west of q + 1
        w[s] ^= d << 4; // east of q - 1
        w[1] ^= d << 6; // north of q - s
        w[2 * s + 2] ^= d << 8; // south-west of q + s + 1
        w[2 * s] ^= d << 10; // south-east of q + s - 1
        w[2] ^= d << 12; // north-west of q - s + 1
        w[0] ^= d << 14; // north-east of q - s - 1
    }

    // --- internals -------------------------------------------------------------------------

    #[inline]
    fn push_empty(&mut self, p: Pt) {
        self.empty_pos[p.idx()] = self.empty_len as u16;
        self.empties[self.empty_len] = p;
        self.empty_len += 1;
    }

    #[inline]
    fn remove_empty(&mut self, p: Pt) {
        let pos = ix(self.empty_pos[p.idx()]);
        self.empty_len -= 1;
        let last = self.empties[self.empty_len];
        self.empties[pos] = last;
        self.empty_pos[last.idx()] = pos as u16;
    }

    /// Puts a lone stone on the empty point `p` as a chain of its own and takes `p` from the
    /// liberties of every distinct neighbouring chain. Returns those chains: friendly ones to
    /// merge, enemy ones left without a liberty to capture.
    #[inline(always)]
    fn put_stone(&mut self, color: Color, p: Pt) -> Contacts {
        let i = p.idx();
        let own = color.cell();
        // The neighbours as they were (flipping changes the neighbours' codes, not this one).
        let code = self.codes[i];
        self.cells[i] = own;
        self.flip_codes(i, own);
        self.remove_empty(p);
        self.hash ^= ZOBRIST[color.index()][i];
        self.chain_id[i] = p.0;
        self.next[i] = p.0;
        self.chain_size[i] = 1;
        self.libs[i] = (!(code | code >> 1) & ORTH_LO).count_ones() as u16;
        // All four neighbours at once, without a branch per neighbour: which kind of stone sits
        // there is hard to predict. Each distinct chain loses the liberty `p` once.
        let ids = self.neighbour_ids(i);
        let first = Self::distinct_chains(Self::stone_bits(code), ids);
        // Which chains `p` takes the last liberty of, from the counts read before any is
        // lowered (reading them back after the stores would wait for the stores).
        let mut out = 0;
        for (slot, &id) in ids.iter().enumerate() {
            out |= u16::from(self.libs[ix(id)] == 1) << (2 * slot);
        }
        for (slot, &id) in ids.iter().enumerate() {
            self.libs[ix(id)] -= (first >> (2 * slot)) & 1;
        }
        let friends = first & Self::own_bits(code, color);
        Contacts {
            friends,
            victims: first & !friends & out,
        }
    }

    /// The chain ids on the orthogonal neighbours of point `i`, in slot order (0 on empty and
    /// border points).
    #[inline]
    fn neighbour_ids(&self, i: usize) -> [u16; 4] {
        let s = self.stride;
        [i - s, i - 1, i + 1, i + s].map(|r| self.chain_id[ix(r as u16)])
    }

    /// Of the neighbours in `stones` (stone bits, slot order) with chain ids `ids`, the first
    /// stone of each distinct chain.
    #[inline]
    fn distinct_chains(stones: u16, ids: [u16; 4]) -> u16 {
        // A slot repeats an earlier one with the same id: a stone of the same chain, or (id 0)
        // another point without a stone, which `stones` drops anyway.
        let [a, b, c, d] = ids;
        let repeats = u16::from(b == a) << 2
            | u16::from((c == a) | (c == b)) << 4
            | u16::from((d == a) | (d == b) | (d == c)) << 6;
        stones & !repeats
    }

    /// One bit (the low bit of its code slot) per orthogonal neighbour holding a stone of
    /// `color`, in neighbourhood `code`.
    #[inline]
    fn own_bits(code: u16, color: Color) -> u16 {
        // Shifting by the colour's index puts its own bit (BLACK = 01, WHITE = 10) low.
        (code >> color.index()) & !(code >> (1 - color.index())) & ORTH_LO
    }

    /// Merges the new stone `p` with the chains of its friendly neighbours in `friends` (one
    /// neighbour per chain, see [`Contacts`]). The chains are distinct and a merge relabels
    /// only the two chains it joins, so each one met here is still apart from `p`'s.
    #[inline]
    fn join_friends(&mut self, p: Pt, mut friends: u16) {
        while friends != 0 {
            let n = self.slot_neighbour(p, friends.trailing_zeros() as usize / 2);
            friends &= friends - 1;
            debug_assert_ne!(self.chain_id[n.idx()], self.chain_id[p.idx()]);
            self.merge(p, n);
        }
    }

    /// Merges the chain of the newly placed stone `p` with the friendly chain at `n`.
    fn merge(&mut self, p: Pt, n: Pt) {
        let a = ix(self.chain_id[p.idx()]);
        let b = ix(self.chain_id[n.idx()]);
        if self.next[p.idx()] == p.0 {
            // `p` is still a lone stone (its first friendly chain): the general case below would
            // keep `b` too, spelled out for the most common merge of a playout.
            let extra = self.lone_liberties_not_touching(p, b as u16);
            self.chain_id[p.idx()] = b as u16;
            self.next.swap(p.idx(), n.idx());
            self.chain_size[b] += 1;
            self.libs[b] += extra;
            return;
        }
        let (keep, gone) = if self.chain_size[a] > self.chain_size[b] {
            (a, b)
        } else {
            (b, a)
        };
        // Liberties of the merged chain: those of the larger chain plus those of the smaller one
        // that are not next to the larger one. Both counts are exact here (placing `p` already
        // took it from both), and the walk is over the smaller chain only: O(1) for a lone stone.
        let extra = self.liberties_not_touching(gone, keep as u16);
        let mut s = gone;
        loop {
            self.chain_id[s] = keep as u16;
            s = ix(self.next[s]);
            if s == gone {
                break;
            }
        }
        // Splice the two rings.
        let (x, y) = (p.idx(), n.idx());
        self.next.swap(x, y);
        self.chain_size[keep] += self.chain_size[gone];
        self.libs[keep] += extra;
    }

    /// Liberties of the chain ringed through `start` that no stone of chain `other` touches.
    fn liberties_not_touching(&self, start: usize, other: u16) -> u16 {
        if self.next[start] as usize == start {
            return self.lone_liberties_not_touching(Pt(start as u16), other);
        }
        let own = self.chain_id[start];
        let mut extra = 0;
        let mut s = start;
        loop {
            let stone = Pt(s as u16);
            let mut empty = self.empty_neighbours(stone);
            while empty != 0 {
                let slot = empty.trailing_zeros() as usize / 2;
                empty &= empty - 1;
                let q = self.slot_neighbour(stone, slot);
                // A liberty next to several stones of the chain counts once, at the first of
                // them in its slot order: `stone` is the one in the opposite slot (3 - slot).
                let (of_other, of_own) = self.chains_next_to(q, other, own);
                let first = of_own.trailing_zeros() as usize / 2 == 3 - slot;
                extra += u16::from(of_other == 0 && first);
            }
            s = ix(self.next[s]);
            if s == start {
                return extra;
            }
        }
    }

    /// [`Board::liberties_not_touching`] for the lone stone `p`: each of its empty neighbours is
    /// next to no other stone of its chain.
    #[inline]
    fn lone_liberties_not_touching(&self, p: Pt, other: u16) -> u16 {
        let mut empty = self.empty_neighbours(p);
        let mut extra = 0;
        while empty != 0 {
            let q = self.slot_neighbour(p, empty.trailing_zeros() as usize / 2);
            empty &= empty - 1;
            extra += u16::from(!self.touches_chain(q, other));
        }
        extra
    }

    /// Which orthogonal neighbours of `q` hold stones of chain `a`, and which of chain `b` (a
    /// bit per neighbour, as in [`Board::stones_next_to`]; `a` and `b` are chains, not 0).
    #[inline]
    fn chains_next_to(&self, q: Pt, a: u16, b: u16) -> (u16, u16) {
        let ids = self.neighbour_ids(q.idx());
        let (mut in_a, mut in_b) = (0, 0);
        for (slot, &id) in ids.iter().enumerate() {
            in_a |= u16::from(id == a) << (2 * slot);
            in_b |= u16::from(id == b) << (2 * slot);
        }
        (in_a, in_b)
    }

    /// Whether a stone of chain `id` (a chain, not 0) is next to `q`.
    #[inline]
    fn touches_chain(&self, q: Pt, id: u16) -> bool {
        // All four neighbours' ids compared at once, without a branch per neighbour (the merge
        // runs this for every liberty of a stone joining a chain, and the outcome is hard to
        // predict).
        self.neighbour_ids(q.idx())
            .iter()
            .fold(false, |hit, &n| hit | (n == id))
    }

    /// One bit (the low bit of its code slot) per orthogonal neighbour holding a stone of
    /// either colour, in neighbourhood `code`: 01 and 10 are stones, 00 empty, 11 border.
    #[inline]
    fn stone_bits(code: u16) -> u16 {
        (code ^ code >> 1) & ORTH_LO
    }

    /// Removes the chain at `p` (a capture): empties its points and gives each of them as a
    /// liberty to every distinct chain around it. Returns the number of stones removed.
    fn remove_chain(&mut self, p: Pt) -> u32 {
        let color = self.cells[p.idx()];
        let key = if color == BLACK { 0 } else { 1 };
        let start = p.idx();
        let mut s = start;
        let mut removed = 0;
        loop {
            let next = ix(self.next[s]);
            self.cells[s] = EMPTY;
            self.chain_id[s] = 0;
            self.flip_codes(s, color);
            self.hash ^= ZOBRIST[key][s];
            self.push_empty(Pt(s as u16));
            removed += 1;
            s = next;
            if s == start {
                break;
            }
        }
        // Second pass, now that the whole chain is gone: each freed point is one new liberty
        // of each distinct chain next to it (all of them are the capturer's colour).
        // All four neighbours at once, as in `put_stone`.
        let mut s = start;
        loop {
            let ids = self.neighbour_ids(s);
            let first = Self::distinct_chains(Self::stone_bits(self.codes[s]), ids);
            for (slot, &id) in ids.iter().enumerate() {
                self.libs[ix(id)] += (first >> (2 * slot)) & 1;
            }
            s = ix(self.next[s]);
            if s == start {
                break;
            }
        }
        removed
    }
}

#[cfg(test)]
impl Board {
    /// Every legal move of `color`, in the order of `empties` (random games in tests).
    pub(super) fn legal_moves(&self, color: Color) -> Vec<Pt> {
        self.empties()
            .iter()
            .copied()
            .filter(|&p| self.is_legal(color, p))
            .collect()
    }

    /// A square board from rows written top row first: `X` black, `O` white, anything else empty
    /// (test positions for this module and the ones below it).
    pub(super) fn from_rows(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len());
        for (r, line) in rows.iter().enumerate() {
            let row = rows.len() - 1 - r;
            for (col, ch) in line.chars().enumerate() {
                let color = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                b.place_setup(color, b.pt(col, row))
                    .expect("a test position names each point once");
            }
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::BTreeSet;

    fn setup(rows: &[&str]) -> Board {
        Board::from_rows(rows)
    }

    fn at(b: &Board, s: &str) -> Pt {
        let col = s.as_bytes()[0] - b'a';
        let row: usize = s[1..].parse().unwrap();
        b.pt(col as usize, row - 1)
    }

    #[test]
    fn corner_capture_removes_the_stone_and_counts_it() {
        let mut b = setup(&[".....", ".....", ".....", ".....", "XO..."]);
        assert_eq!(b.liberties(at(&b, "a1")), 1);
        assert_eq!(b.play(Color::White, at(&b, "a2")), Ok(1));
        assert_eq!(b.stone(at(&b, "a1")), None);
        assert_eq!(b.captures(Color::White), 1);
        assert_eq!(b.captures(Color::Black), 0);
        assert_eq!(b.liberties(at(&b, "b1")), 3);
        assert_eq!(b.liberties(at(&b, "a2")), 3);
        assert_eq!(b.last_move(), Some(at(&b, "a2")));
    }

    #[test]
    fn edge_capture_of_a_two_stone_chain() {
        let mut b = setup(&[".....", ".....", ".....", ".OO..", "OXX.."]);
        assert_eq!(b.liberties(at(&b, "b1")), 1);
        assert_eq!(b.play(Color::White, at(&b, "d1")), Ok(2));
        assert!(b.stone(at(&b, "b1")).is_none() && b.stone(at(&b, "c1")).is_none());
        assert_eq!(b.liberties(at(&b, "a1")), 2);
        assert_eq!(b.liberties(at(&b, "d1")), 3);
    }

    #[test]
    fn one_move_captures_several_chains() {
        // Four lone black stones around c3, each with c3 as its last liberty.
        let mut b = setup(&[".OOO.", "OOXOO", "OX.XO", "OOXOO", ".OOO."]);
        let before = b.empties().len();
        assert_eq!(b.play(Color::White, at(&b, "c3")), Ok(4));
        assert_eq!(b.captures(Color::White), 4);
        assert_eq!(b.empties().len(), before - 1 + 4);
        assert_eq!(b.liberties(at(&b, "c3")), 4);
        assert_eq!(b.ko_point(), None, "four stones captured is no ko");
    }

    #[test]
    fn snapback_is_legal_and_captures_the_capturer() {
        // Black throws in at b1; white takes; black plays b1 again capturing three stones.
        let mut b = setup(&[".....", ".....", "XXX..", "OOOX.", "..OX."]);
        b.play(Color::Black, at(&b, "b1")).unwrap();
        assert_eq!(b.play(Color::White, at(&b, "a1")), Ok(1));
        assert_eq!(
            b.ko_point(),
            None,
            "the capturing stone joined a chain: no ko"
        );
        assert_eq!(
            b.play(Color::Black, at(&b, "b1")),
            Ok(5),
            "a1 and the four-stone chain"
        );
        assert_eq!(b.captures(Color::Black), 5);
    }

    #[test]
    fn simple_ko_forbids_the_immediate_retake_only() {
        let mut b = setup(&[".....", ".....", ".XO..", "XO.O.", ".XO.."]);
        assert_eq!(b.play(Color::Black, at(&b, "c2")), Ok(1));
        let ko = at(&b, "b2");
        assert_eq!(b.ko_point(), Some(ko));
        assert_eq!(b.check(Color::White, ko), Err(Illegal::Ko));
        assert_eq!(b.play(Color::White, ko), Err(Illegal::Ko));
        assert_eq!(b.hash_after(Color::White, ko), None);
        // A threat elsewhere and its answer lift the ban.
        b.play(Color::White, at(&b, "e5")).unwrap();
        assert_eq!(b.ko_point(), None);
        b.play(Color::Black, at(&b, "a5")).unwrap();
        assert_eq!(b.play(Color::White, ko), Ok(1));
        assert_eq!(b.ko_point(), Some(at(&b, "c2")));
        b.pass();
        assert_eq!(b.ko_point(), None, "a pass clears the ko");
    }

    #[test]
    fn suicide_of_a_stone_and_of_a_group_is_illegal_but_capturing_is_not() {
        let b = setup(&[".....", ".....", ".....", "O....", ".O..."]);
        assert_eq!(b.check(Color::Black, at(&b, "a1")), Err(Illegal::Suicide));
        let b = setup(&[".....", "OO...", "XXO..", "XXO..", ".XO.."]);
        assert_eq!(
            b.check(Color::Black, at(&b, "a1")),
            Err(Illegal::Suicide),
            "group suicide"
        );
        assert!(
            b.is_legal(Color::White, at(&b, "a1")),
            "white captures there"
        );
        let mut b = b;
        assert_eq!(b.play(Color::White, at(&b, "a1")), Ok(5));
        assert_eq!(b.check(Color::White, at(&b, "a1")), Err(Illegal::Occupied));
        assert_eq!(b.check(Color::White, Pt(0)), Err(Illegal::OffBoard));
        assert_eq!(b.check(Color::White, Pt(60000)), Err(Illegal::OffBoard));
    }

    #[test]
    fn liberties_after_merges_are_exact() {
        let mut b = Board::new(9);
        b.play(Color::Black, at(&b, "c3")).unwrap();
        b.play(Color::Black, at(&b, "e3")).unwrap();
        assert_eq!(b.liberties(at(&b, "c3")), 4);
        // d3 joins both: liberties c2 c4 b3 d2 d4 e2 e4 f3 = 8 (d3 itself no longer one).
        b.play(Color::Black, at(&b, "d3")).unwrap();
        assert_eq!(b.liberties(at(&b, "c3")), 8);
        assert_eq!(b.chain(at(&b, "e3")).count(), 3);
        assert!(b.same_chain(at(&b, "c3"), at(&b, "e3")));
        b.play(Color::White, at(&b, "d4")).unwrap();
        assert_eq!(b.liberties(at(&b, "d3")), 7);
        assert_eq!(b.liberties(at(&b, "d4")), 3);
        // A stone that shares a liberty with its chain adds it only once.
        b.play(Color::Black, at(&b, "c4")).unwrap();
        assert_eq!(b.liberties(at(&b, "d3")), 8, "b3 c2 d2 e2 e4 f3 b4 c5");
    }

    #[test]
    fn hash_after_predicts_hash_and_illegal_displays_words() {
        let mut b = setup(&[".....", ".....", ".XO..", "XO.O.", ".XO.."]);
        let predicted = b.hash_after(Color::Black, at(&b, "c2")).unwrap();
        b.play(Color::Black, at(&b, "c2")).unwrap();
        assert_eq!(b.hash(), predicted);
        assert_ne!(Board::new(5).hash(), b.hash());
        assert_ne!(Board::new(5), b);
        let mut replayed = setup(&[".....", ".....", ".XO..", "XO.O.", ".XO.."]);
        replayed.play(Color::Black, at(&replayed, "c2")).unwrap();
        assert_eq!(replayed, b);
        assert!(Illegal::Ko.to_string().contains("ko"));
        assert!(Illegal::Suicide.to_string().contains("suicide"));
    }

    #[test]
    fn coordinates_round_trip_and_sizes_are_checked() {
        let b = Board::new(19);
        assert_eq!(b.points().count(), 361);
        assert_eq!(b.empties().len(), 361);
        for p in b.points() {
            let (c, r) = b.col_row(p);
            assert_eq!(b.pt(c, r), p);
            assert!(b.on_board(p));
        }
        assert!(!b.on_board(Pt(0)));
        assert!(std::panic::catch_unwind(|| Board::new(4)).is_err());
        assert!(std::panic::catch_unwind(|| Board::new(26)).is_err());
    }

    type Points = BTreeSet<(usize, usize)>;

    /// A naive reference board: flood fills everything, and applies the seed's ko literally
    /// ("a move that captures exactly one stone on the point where the previous move captured
    /// exactly one stone is forbidden").
    #[derive(Clone)]
    struct Naive {
        size: usize,
        grid: Vec<Option<Color>>,
        kozai: Option<(usize, usize)>,
    }

    impl Naive {
        fn nbrs(&self, c: usize, r: usize) -> Vec<(usize, usize)> {
            let mut v = Vec::new();
            if c > 0 {
                v.push((c - 1, r));
            }
            if r > 0 {
                v.push((c, r - 1));
            }
            if c + 1 < self.size {
                v.push((c + 1, r));
            }
            if r + 1 < self.size {
                v.push((c, r + 1));
            }
            v
        }
        fn get(&self, c: usize, r: usize) -> Option<Color> {
            self.grid[r * self.size + c]
        }
        /// The cell at a possibly off-board offset: None off the board, Some(stone) on it.
        fn cell(&self, c: i32, r: i32) -> Option<Option<Color>> {
            let inside = (0..self.size as i32).contains(&c) && (0..self.size as i32).contains(&r);
            inside.then(|| self.get(c as usize, r as usize))
        }
        /// The eye test spelled out: empty, orthogonal neighbours own or off the board, and
        /// enemy diagonals plus "touches the edge" below two.
        fn eyeish(&self, color: Color, c: usize, r: usize) -> bool {
            let (c, r) = (c as i32, r as i32);
            let orth = [(0, 1), (-1, 0), (1, 0), (0, -1)];
            let diag = [(-1, 1), (1, 1), (-1, -1), (1, -1)];
            let sides_ok = orth.iter().all(|(dc, dr)| {
                let x = self.cell(c + dc, r + dr);
                x.is_none() || x == Some(Some(color))
            });
            let cells: Vec<_> = diag
                .iter()
                .map(|(dc, dr)| self.cell(c + dc, r + dr))
                .collect();
            let bad = cells
                .iter()
                .filter(|&&x| x == Some(Some(color.opponent())))
                .count();
            let edge = usize::from(cells.contains(&None));
            self.get(c as usize, r as usize).is_none() && sides_ok && bad + edge < 2
        }
        /// Stones and liberties of the chain at (c, r).
        fn group(&self, c: usize, r: usize) -> (Points, Points) {
            let color = self.get(c, r);
            let mut stones = BTreeSet::from([(c, r)]);
            let mut libs = BTreeSet::new();
            let mut todo = vec![(c, r)];
            while let Some((x, y)) = todo.pop() {
                for (nx, ny) in self.nbrs(x, y) {
                    match self.get(nx, ny) {
                        None => {
                            libs.insert((nx, ny));
                        }
                        col if col == color && stones.insert((nx, ny)) => todo.push((nx, ny)),
                        _ => {}
                    }
                }
            }
            (stones, libs)
        }
        /// Plays if legal; returns the number captured.
        fn play(&mut self, color: Color, c: usize, r: usize) -> Option<usize> {
            if self.get(c, r).is_some() {
                return None;
            }
            let mut next = self.clone();
            next.grid[r * self.size + c] = Some(color);
            let mut captured = BTreeSet::new();
            for (nx, ny) in self.nbrs(c, r) {
                if next.get(nx, ny) == Some(color.opponent()) {
                    let (stones, libs) = next.group(nx, ny);
                    if libs.is_empty() {
                        captured.extend(stones);
                    }
                }
            }
            for &(x, y) in &captured {
                next.grid[y * self.size + x] = None;
            }
            if captured.is_empty() && next.group(c, r).1.is_empty() {
                return None;
            }
            if captured.len() == 1 && self.kozai == Some((c, r)) {
                return None;
            }
            next.kozai = if captured.len() == 1 {
                captured.iter().next().copied()
            } else {
                None
            };
            *self = next;
            Some(captured.len())
        }
    }

    /// Compares every observable of `b` with the naive board and brute-force recomputation.
    fn assert_agrees(b: &Board, n: &Naive, to_move: Color) {
        let mut hash = 0;
        let mut empties = BTreeSet::new();
        for p in b.points() {
            let (c, r) = b.col_row(p);
            assert_eq!(b.stone(p), n.get(c, r), "stone at {c},{r}\n{b:?}");
            assert_eq!(
                b.neighbourhood(p),
                b.code_from_cells(p),
                "3x3 code at {c},{r}"
            );
            match n.get(c, r) {
                None => {
                    empties.insert(p);
                    assert_eq!(b.chain_id[p.idx()], 0, "chain id of an empty point");
                    let naive_legal = n.clone().play(to_move, c, r).is_some();
                    for color in [Color::Black, Color::White] {
                        assert_eq!(
                            b.is_eyeish(color, p),
                            n.eyeish(color, c, r),
                            "eye at {c},{r}"
                        );
                    }
                    assert_eq!(
                        b.is_legal(to_move, p),
                        naive_legal,
                        "legality at {c},{r}\n{b:?}"
                    );
                }
                Some(color) => {
                    hash ^= ZOBRIST[color.index()][p.idx()];
                    assert!(!b.is_eyeish(color, p), "a stone is no eye");
                    let (stones, libs) = n.group(c, r);
                    assert_eq!(b.liberties(p), libs.len(), "liberties at {c},{r}\n{b:?}");
                    let chain: BTreeSet<_> = b.chain(p).map(|s| b.col_row(s)).collect();
                    assert_eq!(chain, stones);
                    assert_eq!(b.chain_len(p), stones.len());
                }
            }
        }
        assert_eq!(b.hash(), hash, "hash");
        let listed: BTreeSet<Pt> = b.empties().iter().copied().collect();
        assert_eq!(listed.len(), b.empties().len(), "no duplicate empties");
        assert_eq!(listed, empties);
    }

    /// Random games checked move by move against the naive board.
    fn random_games(size: usize, games: usize, moves: usize, full_check_every: usize, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut copy = Board::new(size);
        copy.play(Color::White, copy.pt(1, 1)).unwrap();
        for _ in 0..games {
            let mut b = Board::new(size);
            let mut n = Naive {
                size,
                grid: vec![None; size * size],
                kozai: None,
            };
            let mut color = Color::Black;
            for step in 0..moves {
                let legal = b.legal_moves(color);
                if legal.is_empty() || rng.gen_bool(0.02) {
                    b.pass();
                    n.kozai = None;
                } else {
                    let p = legal[rng.gen_range(0..legal.len())];
                    let predicted = b.hash_after(color, p);
                    let (c, r) = b.col_row(p);
                    let captured = b.play(color, p).unwrap();
                    assert_eq!(Some(captured as usize), n.play(color, c, r), "captures");
                    assert_eq!(predicted, Some(b.hash()));
                }
                color = color.opponent();
                if step % full_check_every == 0 {
                    assert_agrees(&b, &n, color);
                }
            }
            assert_agrees(&b, &n, color);
            // copy_from copies only the used part of the arrays: into the previous game's
            // final board (same size), and into a board of another size.
            copy.copy_from(&b);
            assert_agrees(&copy, &n, color);
            let mut other = Board::new(if size == 5 { 7 } else { 5 });
            other.copy_from(&b);
            assert_agrees(&other, &n, color);
        }
    }

    #[test]
    fn random_games_5x5_agree_with_brute_force() {
        random_games(5, 30, 150, 1, 1);
    }

    #[test]
    fn random_games_9x9_agree_with_brute_force() {
        random_games(9, 6, 300, 3, 2);
    }

    #[test]
    fn random_games_19x19_agree_with_brute_force() {
        random_games(19, 1, 700, 25, 3);
    }

    #[test]
    fn random_play_reaches_kos_and_captures() {
        // Guards the property tests against being vacuous: random 5x5 play must hit kos.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut kos, mut caps) = (0, 0);
        for _ in 0..20 {
            let mut b = Board::new(5);
            let mut color = Color::Black;
            for _ in 0..120 {
                let legal = b.legal_moves(color);
                if legal.is_empty() {
                    b.pass();
                } else {
                    caps += b.play(color, legal[rng.gen_range(0..legal.len())]).unwrap();
                    kos += usize::from(b.ko_point().is_some());
                }
                color = color.opponent();
            }
        }
        assert!(kos > 10 && caps > 100, "kos {kos}, captures {caps}");
    }
}
