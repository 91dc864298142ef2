//! The end-of-game count the AI plays for: area scoring where an empty region counts for a colour
//! when only that colour borders it (seed 004's count, whose shared regions split half and half
//! and so cancel out in the margin). Used at two passes in the tree and to decide when passing
//! ends the game in our favour.

use super::super::board::{Board, Pt, BLACK, EMPTY, WHITE};

/// Owner of every on-board point, row-major from the bottom left: the stone's colour, or for an
/// empty point the one colour bordering its region (EMPTY when both or neither do).
pub(super) fn owners(board: &Board) -> Vec<u8> {
    owners_without(board, |_| false)
}

/// [`owners`] once the stones at the points `dead` names are taken off.
fn owners_without(board: &Board, dead: impl Fn(Pt) -> bool) -> Vec<u8> {
    let cell = |p: Pt| match board.cells[p.idx()] {
        BLACK | WHITE if dead(p) => EMPTY,
        c => c,
    };
    let size = board.size();
    let mut owner = vec![EMPTY; size * size];
    let mut seen = vec![false; board.cells.len()];
    let mut stack: Vec<Pt> = Vec::new();
    let mut region: Vec<Pt> = Vec::new();
    for p in board.points() {
        let c = cell(p);
        if c != EMPTY {
            owner[index(board, p)] = c;
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
                match cell(n) {
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
    margin(&owners(board))
}

/// [`area_margin`] once the stones the playouts see die are taken off, as players agree at the
/// end of a game scored that way: a stone is dead when the other colour owns its point in most
/// playouts. `black_share(i)` is the share of playouts in which Black owns the point at
/// [`index`] `i`.
pub(super) fn area_margin_without_dead(board: &Board, black_share: impl Fn(usize) -> f32) -> i32 {
    margin(&owners_without(board, |p| {
        let share = black_share(index(board, p));
        match board.cells[p.idx()] {
            BLACK => share < 0.5,
            WHITE => share > 0.5,
            _ => false,
        }
    }))
}

fn margin(owners: &[u8]) -> i32 {
    owners
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
        // With the white stone seen dead, columns c-e are black's too.
        let white_stone = index(&b, b.pt(3, 2));
        let share = |i: usize| if i == white_stone { 0.8 } else { 0.5 };
        assert_eq!(area_margin_without_dead(&b, share), 25);
        // Seen alive, it stays.
        assert_eq!(area_margin_without_dead(&b, |_| 0.5), 10 - 1);
    }
}
