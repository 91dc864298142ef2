//! 3×3 shape patterns around an empty point (MoGo's hand-written set, as Pachi's "moggy" playout
//! policy writes it). They mark good local answers to the opponent's last move: hane, cuts and
//! edge blocks. A lookup table over every 3×3 neighbourhood answers "does a pattern match" with
//! two memory loads: the board keeps every point's neighbourhood code up to date.

use std::sync::OnceLock;

use super::super::board::{Board, Pt, BLACK, BORDER, EMPTY, WHITE};

/// The patterns, top row first, the centre is the empty candidate point. `X`/`O` are stones of
/// either colour (the set is matched with colours swapped too), `x` is "not X", `o` is "not O",
/// `.` empty, `#` off the board, `?` anything.
const PATTERNS: [&str; 14] = [
    "XOX...???", // hane: enclosing hane
    "XO....?.?", // hane: non-cutting hane
    "XO?X..x.?", // hane: magari
    "XOO...?.?", // hane: thin hane
    ".O.X.....", // katatsuke or diagonal attachment
    "XO?O.o?o?", // cut1: unprotected cut
    "XO?O.X???", // cut1: peeped cut
    "?X?O.Oooo", // cut2 (de)
    "OX??.O?o?", // cut keima
    "X.?O.?##?", // edge: chase
    "OX?X.O###", // edge: block side cut
    "?X?x.O###", // edge: block side connection
    "?XOx.x###", // edge: sagari
    "?OXX.O###", // edge: cut
];

/// Neighbour order of a 3×3 code (the board's slots): south, west, east, north, south-west,
/// south-east, north-west, north-east. `(dx, dy)` with `dy = +1` the row above.
pub(super) const OFFSETS: [(i32, i32); 8] = [
    (0, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// One bit per 3×3 code (8 KiB, so it stays in the L1 cache during playouts).
pub(super) struct Table([u64; 1 << 10]);

impl Table {
    /// Whether a pattern matches around the empty point `p`.
    #[inline]
    pub(super) fn matches(&self, board: &Board, p: Pt) -> bool {
        let c = code(board, p);
        self.0[c >> 6] & (1 << (c & 63)) != 0
    }
}

/// The shared table, built on first use.
pub(super) fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// The 16-bit code of the eight cells around `p` (two bits each: empty, black, white, border),
/// in the order of `OFFSETS`; the board keeps it (see `Board::neighbourhood`).
#[inline]
pub(super) fn code(board: &Board, p: Pt) -> usize {
    board.neighbourhood(p) as usize
}

fn build_table() -> Table {
    let mut table = Table([0; 1 << 10]);
    for variant in PATTERNS.iter().flat_map(|p| variants_of(p)) {
        mark_codes(&variant, 0, 0, &mut table);
    }
    table
}

/// Sets the bit of every 3×3 code that `variant` matches, cell by cell from `k` on.
fn mark_codes(variant: &[u8; 8], k: usize, code: usize, table: &mut Table) {
    if k == 8 {
        table.0[code >> 6] |= 1 << (code & 63);
        return;
    }
    for cell in [EMPTY, BLACK, WHITE, BORDER] {
        if fits(variant[k], cell) {
            mark_codes(variant, k + 1, code | (cell as usize) << (2 * k), table);
        }
    }
}

fn fits(want: u8, cell: u8) -> bool {
    match want {
        b'X' => cell == BLACK,
        b'O' => cell == WHITE,
        b'x' => cell != BLACK,
        b'o' => cell != WHITE,
        b'.' => cell == EMPTY,
        b'#' => cell == BORDER,
        _ => true,
    }
}

/// The pattern's eight rotations and reflections, each also with colours swapped.
fn variants_of(pattern: &str) -> Vec<[u8; 8]> {
    let grid: Vec<u8> = pattern.bytes().collect();
    assert_eq!(grid.len(), 9, "a pattern is 3×3");
    let at = |x: i32, y: i32| grid[((1 - y) * 3 + (x + 1)) as usize];
    let mut out = Vec::new();
    for sym in 0..8 {
        let mut cells = [0u8; 8];
        for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
            // Map the code's offset back to the pattern's frame through the symmetry.
            let (mut x, mut y) = (dx, dy);
            if sym & 1 != 0 {
                x = -x;
            }
            if sym & 2 != 0 {
                y = -y;
            }
            if sym & 4 != 0 {
                std::mem::swap(&mut x, &mut y);
            }
            cells[k] = at(x, y);
        }
        let swapped = cells.map(|c| match c {
            b'X' => b'O',
            b'O' => b'X',
            b'x' => b'o',
            b'o' => b'x',
            other => other,
        });
        out.push(cells);
        out.push(swapped);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::super::board::{Board, Color};
    use super::*;

    fn setup(rows: &[&str]) -> Board {
        Board::from_rows(rows)
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        // Enclosing hane "XOX / ... " above the point c3, then rotated and colour-swapped.
        let b = setup(&[".....", ".XOX.", ".....", ".....", "....."]);
        assert!(table().matches(&b, b.pt(2, 2)));
        let b = setup(&[".....", ".O...", ".X...", ".O...", "....."]);
        assert!(table().matches(&b, b.pt(2, 2)), "rotated and swapped");
    }

    #[test]
    fn an_empty_neighbourhood_and_a_lone_stone_do_not_match() {
        let b = Board::new(9);
        assert!(!table().matches(&b, b.pt(4, 4)));
        let b = setup(&[".....", ".....", ".X...", ".....", "....."]);
        assert!(!table().matches(&b, b.pt(2, 2)));
    }

    #[test]
    fn codes_read_the_neighbours_in_offset_order() {
        let b = setup(&[".....", ".XO..", "O.X..", "..XO.", "....."]);
        for p in b.points() {
            let (col, row) = b.col_row(p);
            let mut want = 0;
            for (k, (dx, dy)) in OFFSETS.iter().enumerate() {
                let (c, r) = (col as i32 + dx, row as i32 + dy);
                let cell = if (0..5).contains(&c) && (0..5).contains(&r) {
                    match b.stone(b.pt(c as usize, r as usize)) {
                        Some(Color::Black) => BLACK,
                        Some(Color::White) => WHITE,
                        None => EMPTY,
                    }
                } else {
                    BORDER
                };
                want |= (cell as usize) << (2 * k);
            }
            assert_eq!(code(&b, p), want, "at {col},{row}");
        }
    }

    #[test]
    fn the_table_agrees_with_matching_each_pattern_directly() {
        let variants: Vec<[u8; 8]> = PATTERNS.iter().flat_map(|p| variants_of(p)).collect();
        let table = table();
        let mut matched = 0;
        for code in (0..1usize << 16).step_by(7) {
            let cells: [u8; 8] = std::array::from_fn(|k| ((code >> (2 * k)) & 3) as u8);
            let direct = variants
                .iter()
                .any(|v| v.iter().zip(cells).all(|(&want, cell)| fits(want, cell)));
            assert_eq!(
                table.0[code >> 6] & (1 << (code & 63)) != 0,
                direct,
                "code {code:#x}"
            );
            matched += usize::from(direct);
        }
        assert!(matched > 10, "some codes match");
    }

    #[test]
    fn edge_patterns_need_the_edge() {
        // Block side cut on the first line: "OX? / X.O / ###" with the point at c1.
        let b = setup(&[".....", ".....", ".....", ".OX..", ".X.O."]);
        assert!(table().matches(&b, b.pt(2, 0)));
    }
}
