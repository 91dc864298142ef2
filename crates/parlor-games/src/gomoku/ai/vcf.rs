//! Threat search: VCF ("victory by continuous fours"). The attacker plays only fours, so every
//! answer is forced (the single five point), which keeps the tree narrow enough to look twenty
//! or more moves ahead where the alpha-beta search sees a handful.

use super::patterns::class;
use super::position::Position;
use super::threat::{ThreatMemory, ThreatRule, ThreatSolver};

/// The VCF solver. `solve`'s depth is the most fours the attacker may play; its line holds the
/// attacker's moves and the forced answers, ending with the winning move (a five, or an
/// unstoppable open or double four).
pub(crate) type Vcf = ThreatSolver<Fours>;

/// VCF's rule: the attacker plays only fours.
pub(crate) struct Fours;

impl Vcf {
    /// Quick check before `solve`: whether the side to move has any four to play at all.
    pub(crate) fn has_fours(pos: &Position) -> bool {
        pos.four_points(pos.to_move()) > 0
    }
}

impl ThreatRule for Fours {
    /// The clock is read every 256 nodes.
    const CLOCK_MASK: u64 = 255;
    const ATTACKER_SALT: [u64; 2] = [0x2545_F491_4F6C_DD1D, 0x9E6C_63D0_676A_9A99];

    /// Pushes the winning line in reverse onto `line` when it returns true.
    fn attack(
        memory: &mut ThreatMemory,
        pos: &mut Position,
        fours_left: u8,
        line: &mut Vec<usize>,
    ) -> bool {
        let me = pos.to_move();
        let them = 1 - me;
        if pos.count(me, class::FIVE) > 0 {
            line.push(pos.find_class(me, class::FIVE));
            return true;
        }
        let their_fives = pos.count(them, class::FIVE);
        if their_fives == 0 {
            if let Some(win) = pos.find_allowed(me, class::FLEX4) {
                line.push(win);
                return true;
            }
        }
        if fours_left == 0 || their_fives > 1 {
            return false;
        }
        if memory.budget.spend() {
            return false;
        }
        let key = memory.key(pos, me);
        if memory.failed_before(key, fours_left) {
            return false;
        }

        // One candidate buffer per remaining depth, reused across calls.
        let mut fours = memory.take_buffer(fours_left);
        if their_fives == 1 {
            // The opponent threatens five: the block must itself be a four to keep the initiative.
            let block = pos.find_class(them, class::FIVE);
            if pos.class(me, block) < class::BLOCK4 || !pos.allowed(me, block) {
                memory.put_buffer(fours_left, fours);
                return false;
            }
            fours.push((pos.class(me, block), pos.value(me, block), block));
        } else {
            fours.extend(
                pos.board()
                    .iter()
                    .copied()
                    .filter(|&i| {
                        pos.is_empty(i) && pos.class(me, i) >= class::BLOCK4 && pos.allowed(me, i)
                    })
                    .map(|i| (pos.class(me, i), pos.value(me, i), i)),
            );
        }
        // Four-threes first: they win outright unless the defence is itself a four.
        fours.sort_unstable_by_key(|&(class, value, _)| std::cmp::Reverse((class, value)));

        let mut won = false;
        for &(_, _, four) in &fours {
            pos.play(four);
            if pos.count(them, class::FIVE) > 0 {
                // The defender completes a five of their own instead of answering.
                pos.undo();
                continue;
            }
            let Some(answer) = pos.five_point_near(four, me) else {
                // Not a four after all (cannot happen with consistent patterns); skip it.
                pos.undo();
                continue;
            };
            if !pos.allowed(them, answer) {
                // Renju: black may not block there, so the four is as good as five.
                pos.undo();
                line.push(four);
                won = true;
                break;
            }
            pos.play(answer);
            won = Self::attack(memory, pos, fours_left - 1, line);
            pos.undo();
            pos.undo();
            if won {
                line.push(answer);
                line.push(four);
                break;
            }
            if memory.budget.exhausted() {
                break;
            }
        }
        memory.put_buffer(fours_left, fours);
        if won || memory.budget.exhausted() {
            return won;
        }
        memory.remember_failure(key, fours_left);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{position, pt, short_vcf};
    use super::*;
    use crate::gomoku::Stone;
    use std::time::{Duration, Instant};

    fn far_future() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    #[test]
    fn finds_four_then_double_four() {
        let game = short_vcf();
        let mut pos = Position::from_game(&game);
        // Nothing wins in one move: this needs a forcing sequence.
        assert_eq!(pos.count(0, class::FLEX4), 0);
        assert_eq!(pos.count(0, class::FIVE), 0);
        let line = Vcf::new()
            .solve(&mut pos, 10, 10_000, far_future())
            .expect("a VCF exists");
        let moves: Vec<String> = line.iter().map(|&i| pos.point(i).to_string()).collect();
        assert!(moves[0] == "f3" || moves[0] == "f6", "{moves:?}");
        assert_eq!(moves.len(), 3, "four, forced block, double four: {moves:?}");

        // Replaying the line leaves black a double four: whatever white does, black wins.
        let mut game = game;
        for m in &moves {
            game.play(pt(m)).unwrap();
        }
        let mut after = Position::from_game(&game);
        assert_eq!(after.count(0, class::FIVE), 2, "two five points");
        assert_eq!(after.to_move(), 1);
        assert!(
            Vcf::new()
                .solve(&mut after, 10, 10_000, far_future())
                .is_none(),
            "white has no fours"
        );
    }

    #[test]
    fn a_lone_four_is_no_vcf() {
        let game = position(&["h8", "i8", "j8"], &["g8", "a1", "a3"]);
        let mut pos = Position::from_game(&game);
        assert!(Vcf::has_fours(&pos));
        assert!(Vcf::new()
            .solve(&mut pos, 10, 10_000, far_future())
            .is_none());
    }

    #[test]
    fn respects_the_depth_and_node_limits() {
        let mut pos = Position::from_game(&short_vcf());
        assert!(
            Vcf::new()
                .solve(&mut pos, 0, 10_000, far_future())
                .is_none(),
            "needs a four first"
        );
        assert!(Vcf::new()
            .solve(&mut pos, 1, 10_000, far_future())
            .is_some());
        let mut solver = Vcf::new();
        assert!(
            solver.solve(&mut pos, 10, 0, far_future()).is_none(),
            "no nodes to spend"
        );
        assert!(
            solver.solve(&mut pos, 10, 10_000, Instant::now()).is_none(),
            "no time"
        );
    }

    #[test]
    fn defender_fives_break_the_attack() {
        // Black could start the same VCF, but white already has a four (k10..n10, five at j10
        // or o10 is blocked): black's first four must answer it, and f3/f6 do not.
        let mut game = short_vcf();
        for (b, w) in [("a9", "k10"), ("a11", "l10"), ("a13", "m10"), ("o9", "n10")] {
            game.play(pt(b)).unwrap();
            game.play(pt(w)).unwrap();
        }
        // o10 is empty; j10 empty: white has an open four -> two five points.
        assert_eq!(game.next(), Stone::Black);
        let mut pos = Position::from_game(&game);
        assert_eq!(pos.count(1, class::FIVE), 2);
        assert!(Vcf::new()
            .solve(&mut pos, 10, 10_000, far_future())
            .is_none());
    }
}
