//! `easy`: one-look heuristics, no search. In order: capture the largest enemy chain in atari;
//! save the largest own chain in atari (capture an attacker in atari, or extend when that gives
//! it room); a random legal move that fills no own eye and, when it can, puts no own chain into
//! atari; else pass.

use rand_chacha::ChaCha8Rng;

use super::super::board::{Board, Color, Pt};
use super::playout::{self, below};

/// The easy AI's move, None to pass. `banned` holds superko hashes a move may not recreate.
pub(super) fn choose(
    board: &Board,
    color: Color,
    banned: &[u64],
    rng: &mut ChaCha8Rng,
) -> Option<Pt> {
    let allowed = |p: Pt| {
        playout::playable(board, color, p)
            && (banned.is_empty()
                || board
                    .hash_after(color, p)
                    .is_some_and(|h| !banned.contains(&h)))
    };
    // Chains in atari, largest first (board order breaks ties).
    let mut enemy_ataris: Vec<(usize, Pt)> = Vec::new();
    let mut own_ataris: Vec<(usize, Pt)> = Vec::new();
    for p in board.points() {
        let Some(c) = board.stone(p) else { continue };
        if board.liberties(p) != 1 || !is_chain_head(board, p) {
            continue;
        }
        let list = if c == color {
            &mut own_ataris
        } else {
            &mut enemy_ataris
        };
        list.push((board.chain_len(p), p));
    }
    enemy_ataris.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
    own_ataris.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
    for &(_, chain) in &enemy_ataris {
        if let Some(lib) = board.some_liberty(chain) {
            if allowed(lib) {
                return Some(lib);
            }
        }
    }
    for &(_, chain) in &own_ataris {
        // No ladder reading: `easy` takes one look.
        if let Some(p) = playout::save(board, color, chain, false) {
            if allowed(p) {
                return Some(p);
            }
        }
    }
    let mut candidates: Vec<Pt> = board
        .empties()
        .iter()
        .copied()
        .filter(|&p| !board.is_eyeish(color, p) && allowed(p))
        .collect();
    // `empties` is in an order that depends on the history; the choice depends on the position.
    candidates.sort();
    let safe: Vec<Pt> = candidates
        .iter()
        .copied()
        .filter(|&p| !playout::is_self_atari(board, color, p))
        .collect();
    let pool = if safe.is_empty() { &candidates } else { &safe };
    (!pool.is_empty()).then(|| pool[below(rng, pool.len())])
}

/// Whether `p` is the smallest point of its chain (one representative per chain).
fn is_chain_head(board: &Board, p: Pt) -> bool {
    board.chain(p).all(|s| s >= p)
}

#[cfg(test)]
mod tests {
    use super::super::super::board::Board;
    use super::*;
    use rand::SeedableRng;

    fn setup(rows: &[&str]) -> Board {
        Board::from_rows(rows)
    }

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(3)
    }

    #[test]
    fn captures_the_largest_chain_in_atari() {
        // White a2-a3 (two stones, liberty a1) and white e1 (one stone, liberty e2).
        let b = setup(&[".....", "X....", "OX...", "OX...", ".X.XO"]);
        assert_eq!(choose(&b, Color::Black, &[], &mut rng()), Some(b.pt(0, 0)));
    }

    #[test]
    fn escapes_atari_by_extending_when_that_gives_room() {
        let b = setup(&[".....", ".....", ".....", "OO...", "OX..."]);
        assert_eq!(choose(&b, Color::Black, &[], &mut rng()), Some(b.pt(2, 0)));
    }

    #[test]
    fn honours_superko_bans() {
        let b = setup(&[".....", "X....", "OX...", "OX...", ".X.XO"]);
        let banned = [b.hash_after(Color::Black, b.pt(0, 0)).unwrap()];
        let p = choose(&b, Color::Black, &banned, &mut rng());
        assert_eq!(p, Some(b.pt(4, 1)), "the other capture");
    }

    #[test]
    fn never_fills_its_own_eye_and_passes_at_the_end() {
        // Black owns everything but two single-point eyes.
        let b = setup(&["XXXXX", "X.XXX", "XXXXX", "XXX.X", "XXXXX"]);
        assert_eq!(choose(&b, Color::Black, &[], &mut rng()), None);
        let mut b = Board::new(5);
        b.play(Color::Black, b.pt(2, 2)).unwrap();
        let p = choose(&b, Color::White, &[], &mut rng()).unwrap();
        assert!(b.is_legal(Color::White, p));
    }
}
