//! Threat search: VCT ("victory by continuous threats"). Like VCF, but the attacker may also
//! make open threes. A four has one answer; an open three has several (the points of the
//! attacker's four lines, or a counter-four), and the attacker must win against every one of
//! them, so this is an AND/OR proof search that only affords a few threats of depth.

use super::patterns::class;
use super::position::Position;
use super::threat::{ThreatMemory, ThreatRule, ThreatSolver};

/// Threes tried per attacking move (after all the fours), best valued first.
const MAX_THREES: usize = 8;

/// The VCT solver. `solve`'s depth is the most threats (fours and open threes, not counting the
/// forced blocks in between) the attacker may make, and a win holds against every defence; its
/// line holds the attacker's moves with one defence each (the first one tried), ending with the
/// move that leaves an unstoppable threat.
pub(crate) type Vct = ThreatSolver<Threats>;

/// VCT's rule: the attacker plays fours and open threes.
pub(crate) struct Threats;

impl ThreatRule for Threats {
    /// The clock is read every 64 nodes.
    const CLOCK_MASK: u64 = 63;
    const ATTACKER_SALT: [u64; 2] = [0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B];

    /// Attacker to move. Pushes the winning line in reverse when it returns true.
    fn attack(
        memory: &mut ThreatMemory,
        pos: &mut Position,
        threats_left: u8,
        line: &mut Vec<usize>,
    ) -> bool {
        let me = pos.to_move();
        let them = 1 - me;
        if pos.count(me, class::FIVE) > 0 {
            line.push(pos.find_class(me, class::FIVE));
            return true;
        }
        let their_fives = pos.count(them, class::FIVE);
        if their_fives > 1 {
            return false;
        }
        if their_fives == 0 {
            if let Some(win) = pos.find_allowed(me, class::FLEX4) {
                line.push(win);
                return true;
            }
            if pos.four_points(them) == 0 {
                // Nothing can interrupt a four-three or a double three (see the search).
                for c in [class::FOUR_THREE, class::DOUBLE_THREE] {
                    if let Some(win) = pos.find_allowed(me, c) {
                        line.push(win);
                        return true;
                    }
                }
            }
        }
        if threats_left == 0 || memory.budget.spend() {
            return false;
        }
        let key = memory.key(pos, me);
        if memory.failed_before(key, threats_left) {
            return false;
        }

        let won = if their_fives == 1 {
            // The defender's counter-four must be blocked; the attack goes on only if a threat
            // is still standing afterwards, which `defend` checks.
            let block = pos.find_class(them, class::FIVE);
            if !pos.allowed(me, block) {
                return false;
            }
            pos.play(block);
            let won = Self::defend(memory, pos, threats_left, line);
            pos.undo();
            if won {
                line.push(block);
            }
            won
        } else {
            let mut threats = memory.take_buffer(threats_left);
            threats.extend(
                pos.board()
                    .iter()
                    .copied()
                    .filter(|&i| {
                        pos.is_empty(i) && pos.class(me, i) >= class::FLEX3 && pos.allowed(me, i)
                    })
                    .map(|i| (pos.class(me, i), pos.value(me, i), i)),
            );
            threats.sort_unstable_by_key(|&(class, value, _)| std::cmp::Reverse((class, value)));
            // Every four, but only the most promising threes: the tree is wide enough.
            let fours = threats.iter().filter(|t| t.0 >= class::BLOCK4).count();
            threats.truncate(fours + MAX_THREES);
            let mut won = false;
            for &(_, _, threat) in &threats {
                pos.play(threat);
                won = Self::defend(memory, pos, threats_left - 1, line);
                pos.undo();
                if won {
                    line.push(threat);
                    break;
                }
                if memory.budget.exhausted() {
                    break;
                }
            }
            memory.put_buffer(threats_left, threats);
            won
        };
        if !won && !memory.budget.exhausted() {
            memory.remember_failure(key, threats_left);
        }
        won
    }
}

impl Threats {
    /// Defender to move, after an attacker's threat. True when every defence loses.
    fn defend(
        memory: &mut ThreatMemory,
        pos: &mut Position,
        threats_left: u8,
        line: &mut Vec<usize>,
    ) -> bool {
        let me = pos.to_move();
        let attacker = 1 - me;
        if pos.count(me, class::FIVE) > 0 {
            return false;
        }
        let attacker_fives = pos.count(attacker, class::FIVE);
        if attacker_fives > 1 {
            return true;
        }
        let defences: Vec<usize> = if attacker_fives == 1 {
            // Renju: a block black may not play is no defence, and the list is then empty.
            let block = pos.find_class(attacker, class::FIVE);
            [block]
                .into_iter()
                .filter(|&b| pos.allowed(me, b))
                .collect()
        } else if pos.count(attacker, class::FLEX4) > 0 {
            // Every point of the attacker's four-making lines, and every counter-four.
            pos.board()
                .iter()
                .copied()
                .filter(|&i| {
                    pos.is_empty(i)
                        && (pos.class(attacker, i) >= class::BLOCK4
                            || pos.class(me, i) >= class::BLOCK4)
                        && pos.allowed(me, i)
                })
                .collect()
        } else {
            // The threat is gone: the defender has a free move.
            return false;
        };
        let mut first_line = None;
        for defence in defences {
            pos.play(defence);
            let mut sub_line = Vec::new();
            let won = Self::attack(memory, pos, threats_left, &mut sub_line);
            pos.undo();
            if !won {
                return false;
            }
            if first_line.is_none() {
                sub_line.push(defence);
                first_line = Some(sub_line);
            }
        }
        line.extend(first_line.unwrap_or_default());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::search::{search, Limits};
    use super::super::testing::{position, short_vcf};
    use super::super::vcf::Vcf;
    use super::*;
    use std::time::{Duration, Instant};

    fn far_future() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    #[test]
    fn finds_a_win_that_needs_an_open_three() {
        // Black g7 g8 h8 h6 against white f8 h7 i7 i5: no four wins, but g6 (an open three on
        // the g file that also lines up g6-h6) starts a threat sequence white cannot stop.
        let game = position(&["h8", "h6", "g7", "g8"], &["i7", "h7", "i5", "f8"]);
        let mut pos = Position::from_game(&game);
        for c in [
            class::FIVE,
            class::FLEX4,
            class::FOUR_THREE,
            class::DOUBLE_THREE,
        ] {
            assert_eq!(pos.count(0, c), 0, "no immediate win of class {c}");
        }
        assert!(Vcf::new()
            .solve(&mut pos, 20, 100_000, far_future())
            .is_none());
        let line = Vct::new()
            .solve(&mut pos, 4, 100_000, far_future())
            .expect("a VCT exists");
        let first = line[0];
        assert!(
            pos.class(0, first) >= class::FLEX3,
            "the attack starts with a threat"
        );

        // Cross-check with the plain alpha-beta search (no threat searches): after the first
        // threat, white is lost whatever it does.
        pos.play(first);
        let limits = Limits {
            max_depth: 9,
            soft: Duration::from_secs(30),
            hard: Duration::from_secs(30),
            root_vcf_fours: 0,
            root_vcf_nodes: 0,
            root_vct_threats: 0,
            root_vct_nodes: 0,
            root_width: 30,
            width: 30,
        };
        let found = search(pos, limits, Instant::now(), 1);
        assert!(
            found.score < -900_000,
            "white's best scores {}",
            found.score
        );
    }

    #[test]
    fn finds_vcf_lines_too_and_refuses_without_threats() {
        let mut pos = Position::from_game(&short_vcf());
        assert!(Vct::new()
            .solve(&mut pos, 4, 100_000, far_future())
            .is_some());
        let quiet = position(&["h8"], &["a1"]);
        let mut pos = Position::from_game(&quiet);
        assert!(Vct::new()
            .solve(&mut pos, 4, 100_000, far_future())
            .is_none());
    }

    #[test]
    fn one_open_three_at_a_time_is_no_win() {
        // Black's two stones can make an open three, but white blocks it and nothing follows.
        let game = position(&["h8", "i8"], &["a1", "a3"]);
        let mut pos = Position::from_game(&game);
        assert!(Vct::new()
            .solve(&mut pos, 4, 100_000, far_future())
            .is_none());
    }
}
