//! Line patterns: what a stone on an empty point would make along one line, looked up from a
//! table indexed by the eleven-point window around it.
//!
//! A window holds the five points on each side of the centre, each seen from one colour as
//! empty, own, or blocked (the other colour or the board's edge). Five points each side are
//! enough to tell a five from a standard-rule overline. The table is built once by a memoised
//! recursion over the 3^10 windows: a line is a four if one more stone makes five, an open four
//! if two different points do, a three if one more stone makes a four, and so on down.

use std::sync::OnceLock;

use super::super::{Rule, Stone};

/// Points on each side of the centre that a window sees.
pub(crate) const HALF: usize = 5;
/// Slots in a window key (the centre itself is implicit: the stone about to be placed).
pub(crate) const SLOTS: usize = 2 * HALF;
pub(crate) const KEYS: usize = 59049; // 3^10

/// Ternary digits of a window slot.
pub(crate) const DIGIT_EMPTY: u16 = 0;
pub(crate) const DIGIT_OWN: u16 = 1;
pub(crate) const DIGIT_BLOCKED: u16 = 2;

pub(crate) const POW3: [u16; SLOTS] = {
    let mut pow = [1u16; SLOTS];
    let mut i = 1;
    while i < SLOTS {
        pow[i] = pow[i - 1] * 3;
        i += 1;
    }
    pow
};

/// The slot of the point `offset` steps from the centre (`offset` in -5..=5, not 0).
pub(crate) const fn slot(offset: i32) -> usize {
    if offset < 0 {
        (offset + HALF as i32) as usize
    } else {
        (offset + HALF as i32 - 1) as usize
    }
}

/// What one more stone makes along one line, weakest first.
pub(crate) mod pat {
    /// No five is possible along this line any more.
    pub const DEAD: u8 = 0;
    pub const BLOCK1: u8 = 1;
    pub const FLEX1: u8 = 2;
    pub const BLOCK2: u8 = 3;
    pub const FLEX2: u8 = 4;
    /// A three that can only become a four that has one five point.
    pub const BLOCK3: u8 = 5;
    /// An open three: one more stone makes an open four.
    pub const FLEX3: u8 = 6;
    /// A four: exactly one point completes a five.
    pub const BLOCK4: u8 = 7;
    /// An open four (or any four line with two distinct five points).
    pub const FLEX4: u8 = 8;
    pub const FIVE: u8 = 9;
    pub const COUNT: usize = 10;
}

/// The pattern table of `stone`'s lines under `rule`, indexed by a window key. Renju reads
/// black's lines as the standard rule does (exactly five) and white's as freestyle.
pub(crate) fn table(rule: Rule, stone: Stone) -> &'static [u8] {
    static FREESTYLE: OnceLock<Vec<u8>> = OnceLock::new();
    static STANDARD: OnceLock<Vec<u8>> = OnceLock::new();
    let (cell, rule) = match (rule, stone) {
        (Rule::Freestyle, _) | (Rule::Renju, Stone::White) => (&FREESTYLE, Rule::Freestyle),
        (Rule::Standard, _) | (Rule::Renju, Stone::Black) => (&STANDARD, Rule::Standard),
    };
    cell.get_or_init(|| build(rule))
}

const UNKNOWN: u8 = u8::MAX;

fn build(rule: Rule) -> Vec<u8> {
    let mut memo = vec![UNKNOWN; KEYS];
    for key in 0..KEYS {
        classify(key, rule, &mut memo);
    }
    memo
}

fn decode(key: usize) -> [u16; SLOTS] {
    let mut digits = [0; SLOTS];
    let mut rest = key;
    for d in &mut digits {
        *d = (rest % 3) as u16;
        rest /= 3;
    }
    digits
}

/// Whether the own run through the centre wins under `rule`.
fn is_five(digits: &[u16; SLOTS], rule: Rule) -> bool {
    let mut len = 1;
    for offset in 1..=HALF as i32 {
        if digits[slot(-offset)] != DIGIT_OWN {
            break;
        }
        len += 1;
    }
    for offset in 1..=HALF as i32 {
        if digits[slot(offset)] != DIGIT_OWN {
            break;
        }
        len += 1;
    }
    // The table serves both colours, and freestyle and standard treat them alike.
    rule.wins(Stone::Black, len)
}

/// Offsets where a further stone can still matter for a five through the centre.
const REACH: [i32; 8] = [-4, -3, -2, -1, 1, 2, 3, 4];

fn classify(key: usize, rule: Rule, memo: &mut [u8]) -> u8 {
    if memo[key] != UNKNOWN {
        return memo[key];
    }
    let mut digits = decode(key);
    let result = if is_five(&digits, rule) {
        pat::FIVE
    } else {
        let mut five_points = 0;
        for offset in REACH {
            let s = slot(offset);
            if digits[s] == DIGIT_EMPTY {
                digits[s] = DIGIT_OWN;
                five_points += usize::from(is_five(&digits, rule));
                digits[s] = DIGIT_EMPTY;
            }
        }
        match five_points {
            0 => {
                let mut best = pat::DEAD;
                for offset in REACH {
                    let s = slot(offset);
                    if digits[s] == DIGIT_EMPTY {
                        let child = key + usize::from(POW3[s]);
                        best = best.max(classify(child, rule, memo));
                    }
                }
                // One stone fewer than the best line this one can grow into.
                match best {
                    pat::FLEX4 => pat::FLEX3,
                    pat::BLOCK4 => pat::BLOCK3,
                    pat::FLEX3 => pat::FLEX2,
                    pat::BLOCK3 => pat::BLOCK2,
                    pat::FLEX2 => pat::FLEX1,
                    pat::BLOCK2 => pat::BLOCK1,
                    _ => pat::DEAD,
                }
            }
            1 => pat::BLOCK4,
            _ => pat::FLEX4,
        }
    };
    memo[key] = result;
    result
}

/// What a stone on a point makes across its four lines, for move ordering and threat search.
pub(crate) mod class {
    pub const NONE: u8 = 0;
    /// Makes one open three.
    pub const FLEX3: u8 = 1;
    /// Makes two open threes at once.
    pub const DOUBLE_THREE: u8 = 2;
    /// Makes a four (one five point) and nothing as strong besides.
    pub const BLOCK4: u8 = 3;
    /// Makes a four and an open three: wins unless the answer to the four is itself a threat.
    pub const FOUR_THREE: u8 = 4;
    /// Makes an open four or two fours: wins unless the opponent can make five first.
    pub const FLEX4: u8 = 5;
    pub const FIVE: u8 = 6;
    pub const COUNT: usize = 7;
}

/// Evaluation weight of a line pattern at an empty point, for the colour that owns it.
const PATTERN_VALUE: [i32; pat::COUNT] = [0, 1, 3, 4, 12, 10, 40, 30, 150, 1000];

/// The class and value of a point from its four line patterns.
/// With `forbidden_combos` (black under renju) a double three or a double four is worth nothing:
/// black may not play it (the rare three that is no real three aside). Its class stays, so the
/// renju check still looks at the point.
pub(crate) fn combine(patterns: [u8; 4], forbidden_combos: bool) -> (u8, i32) {
    let mut count = [0u8; pat::COUNT];
    let mut value = 0;
    for p in patterns {
        count[usize::from(p)] += 1;
        value += PATTERN_VALUE[usize::from(p)];
    }
    let fours = count[usize::from(pat::BLOCK4)];
    let threes = count[usize::from(pat::FLEX3)];
    let class = if count[usize::from(pat::FIVE)] > 0 {
        class::FIVE
    } else if count[usize::from(pat::FLEX4)] > 0 || fours >= 2 {
        class::FLEX4
    } else if fours == 1 && threes > 0 {
        class::FOUR_THREE
    } else if fours == 1 {
        class::BLOCK4
    } else if threes >= 2 {
        class::DOUBLE_THREE
    } else if threes == 1 {
        class::FLEX3
    } else {
        class::NONE
    };
    // Two fours, an open four among them or not.
    let double_four = class == class::FLEX4 && count[usize::from(pat::FLEX4)] + fours >= 2;
    if forbidden_combos && (class == class::DOUBLE_THREE || double_four) {
        return (class, 0);
    }
    (class, value + CLASS_BONUS[usize::from(class)])
}

/// Extra value for a point whose lines combine into a threat bigger than their sum.
const CLASS_BONUS: [i32; class::COUNT] = [0, 0, 200, 0, 400, 400, 5000];

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern of the centre `*` of a line written with `X` own, `O` other, `|` edge and
    /// `.` empty; `*` must be at index 5 of an 11-character picture.
    fn pattern(picture: &str, rule: Rule) -> u8 {
        let chars: Vec<char> = picture.chars().collect();
        assert_eq!(chars.len(), 11, "{picture}");
        assert_eq!(chars[5], '*');
        let mut key = 0usize;
        for offset in -5i32..=5 {
            if offset == 0 {
                continue;
            }
            let digit = match chars[(offset + 5) as usize] {
                '.' => DIGIT_EMPTY,
                'X' => DIGIT_OWN,
                'O' | '|' => DIGIT_BLOCKED,
                other => panic!("bad picture char {other}"),
            };
            key += usize::from(digit * POW3[slot(offset)]);
        }
        table(rule, Stone::Black)[key]
    }

    #[test]
    fn classifies_classic_shapes() {
        let f = Rule::Freestyle;
        assert_eq!(pattern("...XX*XX...", f), pat::FIVE);
        assert_eq!(
            pattern("..XXX*XX...", f),
            pat::FIVE,
            "overline wins in freestyle"
        );
        assert_eq!(pattern("....X*XX...", f), pat::FLEX4);
        assert_eq!(pattern("...OX*XX...", f), pat::BLOCK4);
        assert_eq!(pattern("....X*.XX..", f), pat::BLOCK4, "split four");
        assert_eq!(pattern("....X*X....", f), pat::FLEX3);
        assert_eq!(pattern("....X*.X...", f), pat::FLEX3, "split three");
        assert_eq!(pattern("...OX*X....", f), pat::BLOCK3);
        assert_eq!(pattern("|...X*X.O..", f), pat::FLEX3);
        assert_eq!(pattern("...OX*X.O..", f), pat::DEAD, "no room for five");
        assert_eq!(pattern(".....*X....", f), pat::FLEX2);
        assert_eq!(pattern("....O*X....", f), pat::BLOCK2);
        assert_eq!(pattern(".....*.....", f), pat::FLEX1);
    }

    #[test]
    fn standard_rule_ignores_overlines() {
        let s = Rule::Standard;
        assert_eq!(pattern("...XX*XX...", s), pat::FIVE);
        assert_eq!(
            pattern("...XX*XX.X.", s),
            pat::FIVE,
            "gap keeps it exactly five"
        );
        assert_eq!(pattern("..XXX*XX...", s), pat::DEAD, "six is nothing");
        assert_eq!(
            pattern("...X.*XXX..", s),
            pat::BLOCK4,
            "one side would be an overline"
        );
        assert_eq!(pattern("...X.*XXX..", Rule::Freestyle), pat::FLEX4);
        assert_eq!(
            pattern("...X.*XXX.X", s),
            pat::DEAD,
            "both sides would be overlines"
        );
    }

    #[test]
    fn renju_reads_black_as_standard_and_white_as_freestyle() {
        assert!(std::ptr::eq(
            table(Rule::Renju, Stone::Black),
            table(Rule::Standard, Stone::White)
        ));
        assert!(std::ptr::eq(
            table(Rule::Renju, Stone::White),
            table(Rule::Freestyle, Stone::Black)
        ));
    }

    #[test]
    fn forbidden_combinations_are_worth_nothing_to_black_under_renju() {
        use pat::{BLOCK4, DEAD, FIVE, FLEX3, FLEX4};
        for forbidden in [
            [FLEX3, FLEX3, DEAD, DEAD],
            [BLOCK4, BLOCK4, DEAD, DEAD],
            [FLEX4, BLOCK4, DEAD, DEAD],
            [FLEX4, FLEX4, DEAD, DEAD],
        ] {
            assert_eq!(combine(forbidden, true).1, 0, "{forbidden:?}");
            assert!(combine(forbidden, false).1 > 0, "{forbidden:?}");
        }
        for allowed in [
            [FLEX4, DEAD, DEAD, DEAD],
            [BLOCK4, FLEX3, DEAD, DEAD],
            [FIVE, BLOCK4, BLOCK4, DEAD],
        ] {
            assert_eq!(
                combine(allowed, true),
                combine(allowed, false),
                "{allowed:?}"
            );
        }
    }
}
