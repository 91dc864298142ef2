//! The end-of-game count the AI plays for: area scoring where an empty region counts for a colour
//! when only that colour borders it (seed 004's count, whose shared regions split half and half
//! and so cancel out in the margin). Used at two passes in the tree and to decide when passing
//! ends the game in our favour.

use super::super::board::{Board, Pt, BLACK, EMPTY, WHITE};

/// Owner of every on-board point, row-major from the bottom left: the stone's colour, or for an
/// empty point the one colour bordering its region (EMPTY when both or neither do).
pub(super) fn owners(board: &Board) -> Vec<u8> {
    let size = board.size();
    let mut owner = vec![EMPTY; size * size];
    let mut seen = vec![false; board.cells.len()];
    let mut stack: Vec<Pt> = Vec::new();
    let mut region: Vec<Pt> = Vec::new();
    for p in board.points() {
        let cell = board.cells[p.idx()];
        if cell != EMPTY {
            owner[index(board, p)] = cell;
            continue;
        }
        if seen[p.idx()] {
            continue;
        }
        // Flood the empty region, noting which colours border it.
        let mut borders = 0u8;
        region.clear();
        stack.push(p);
        seen[p.idx()] = true;
        while let Some(q) = stack.pop() {
            region.push(q);
            for n in board.neighbors(q) {
                match board.cells[n.idx()] {
                    EMPTY if !seen[n.idx()] => {
                        seen[n.idx()] = true;
                        stack.push(n);
                    }
                    c @ (BLACK | WHITE) => borders |= c,
                    _ => {}
                }
            }
        }
        if borders == BLACK || borders == WHITE {
            for &q in &region {
                owner[index(board, q)] = borders;
            }
        }
    }
    owner
}

/// Black's area margin without komi.
pub(super) fn area_margin(board: &Board) -> i32 {
    owners(board)
        .iter()
        .map(|&o| match o {
            BLACK => 1,
            WHITE => -1,
            _ => 0,
        })
        .sum()
}

/// Row-major index from the bottom left of an on-board point.
#[inline]
pub(super) fn index(board: &Board, p: Pt) -> usize {
    let (col, row) = board.col_row(p);
    row * board.size() + col
}

#[cfg(test)]
mod tests {
    use super::super::super::board::Color;
    use super::*;

    #[test]
    fn regions_count_for_the_only_colour_around_them() {
        let mut b = Board::new(5);
        for r in 0..5 {
            b.place_setup(Color::Black, b.pt(1, r)).unwrap();
        }
        b.place_setup(Color::White, b.pt(3, 2)).unwrap();
        // Column a is black's (5 + 5 stones); columns c-e touch both colours: nobody's.
        assert_eq!(area_margin(&b), 10 - 1);
        let o = owners(&b);
        assert_eq!(o[index(&b, b.pt(0, 3))], BLACK);
        assert_eq!(o[index(&b, b.pt(4, 4))], EMPTY);
        assert_eq!(o[index(&b, b.pt(3, 2))], WHITE);
        assert_eq!(area_margin(&Board::new(9)), 0);
    }
}
