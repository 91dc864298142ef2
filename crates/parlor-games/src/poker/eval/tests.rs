use proptest::prelude::*;

use super::reference::{judge, reference_judgement, Played};
use super::*;
use crate::poker::card::full_deck;

fn hand(codes: &str) -> [Card; HAND_SIZE] {
    let cards: Vec<Card> = codes
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    cards.try_into().expect("five cards")
}

fn eval(codes: &str) -> Eval {
    evaluate(&hand(codes))
}

fn best(codes: &str) -> Vec<String> {
    eval(codes).best.iter().map(ToString::to_string).collect()
}

fn assert_category(codes: &str, category: Category) {
    assert_eq!(eval(codes).category, category, "{codes}");
}

#[track_caller]
fn assert_beats(winner: &str, loser: &str) {
    let (w, l) = (strength(&hand(winner)), strength(&hand(loser)));
    assert!(w > l, "{winner} ({w:#x}) should beat {loser} ({l:#x})");
}

#[track_caller]
fn assert_ties(a: &str, b: &str) {
    let (sa, sb) = (strength(&hand(a)), strength(&hand(b)));
    assert_eq!(sa, sb, "{a} and {b} should tie");
}

// ---- the seed's own examples ----------------------------------------------------------------

#[test]
fn seed_examples() {
    // (2, 3, joker, 3, 1): the joker joins the largest group, the 3s.
    assert_category("2C 3D JK 3H AS", Category::ThreeOfAKind);
    assert_eq!(best("2C 3D JK 3H AS"), ["3H", "3D", "3*", "AS", "2C"]);
    // {2, 3, 4, 3, joker}: three 3s, not a straight.
    assert_category("2C 3D 4H 3S JK", Category::ThreeOfAKind);
    // 3, 4, 5, 6, joker: the joker goes on top (7), not below (2).
    assert_eq!(best("3C 4D 5H 6S JK"), ["7*", "6S", "5H", "4D", "3C"]);
    assert_category("3C 4D 5H 6S JK", Category::Straight);
    // {2, 3, 5, 7, joker} of one suit: a flush (the seed's "pair of 7s" is the lesser reading).
    assert_category("2H 3H 5H 7H JK", Category::Flush);
    assert_eq!(best("2H 3H 5H 7H JK"), ["AH*", "7H", "5H", "3H", "2H"]);
    // (2, 2, 2, joker, joker): five of a kind.
    assert_category("2C 2D 2H JK JK", Category::FiveOfAKind);
    assert_eq!(best("2C 2D 2H JK JK"), ["2H", "2D", "2C", "2*", "2*"]);
    // Five jokers.
    assert_category("JK JK JK JK JK", Category::FiveJokers);
    assert_eq!(best("JK JK JK JK JK"), ["JK"; 5]);
    // K-A-2-3-4 is no straight; the ace-high straight flush is the best straight flush.
    assert_category("KS AH 2D 3C 4S", Category::HighCard);
    assert_category("AS KS QS JS TS", Category::StraightFlush);
    assert_beats("AS KS QS JS TS", "KS QS JS TS 9S");
}

// ---- category boundaries: the lowest of each category beats the highest below it -------------

#[test]
fn each_categorys_lowest_beats_the_highest_below() {
    let ladder = [
        // (highest of the category below, lowest of the category above)
        ("AS KH QD JC 9S", "2C 2D 3H 4S 6C"), // high card < one pair
        ("AS AH KD QC 9S", "3C 3D 2C 2D 4H"), // one pair < two pair
        ("AS AH KS KH QS", "2C 2D JK 3H 4S"), // two pair < three of a kind (joker triple)
        ("AS AH AD KS QS", "AC 2D 3H 4S JK"), // three of a kind < straight (5* high)
        ("AS KH QD JC TS", "2C 3C 4C 5C 7C"), // straight < flush
        ("AS KS QS JS 9S", "2C 2D 2H 3C 3D"), // flush < full house
        ("AS AH AD KS KH", "2C 2D 2H 2S 3C"), // full house < four of a kind
        ("AS AH AD AC KS", "AC 2C 3C 4C 5C"), // four of a kind < straight flush (wheel)
        ("AS KS QS JS TS", "2C 2D 2H 2S JK"), // straight flush < five of a kind
        ("AS AH AD AC JK", "JK JK JK JK JK"), // five of a kind < five jokers
    ];
    let mut previous = None;
    for (highest_below, lowest_above) in ladder {
        let (below, above) = (eval(highest_below), eval(lowest_above));
        assert_eq!(
            below.category.index() + 1,
            above.category.index(),
            "{lowest_above}"
        );
        assert_beats(lowest_above, highest_below);
        if let Some(previous) = previous {
            assert_eq!(below.category, previous, "ladder is contiguous");
        }
        previous = Some(above.category);
    }
    // Those "lowest" hands really are the lowest: nothing in the category is weaker.
    let mut lowest = [u32::MAX; 11];
    let mut highest = [0u32; 11];
    for_each_hand(|cards| {
        let s = strength(cards);
        let c = usize::from(category_of(s).index());
        lowest[c] = lowest[c].min(s);
        highest[c] = highest[c].max(s);
    });
    for (highest_below, lowest_above) in ladder {
        let above = strength(&hand(lowest_above));
        let below = strength(&hand(highest_below));
        assert_eq!(
            lowest[usize::from(category_of(above).index())],
            above,
            "{lowest_above}"
        );
        assert_eq!(
            highest[usize::from(category_of(below).index())],
            below,
            "{highest_below}"
        );
    }
}

// ---- the tie rules, one pair of hands per rule ---------------------------------------------

#[test]
fn straight_flush_top_rank_then_its_suit_with_a_joker_taking_the_flush_suit() {
    assert_beats("9C TC JC QC KC", "8S 9S TS JS QS");
    assert_beats("9S TS JS QS KS", "9H TH JH QH KH");
    // The joker on top is a spade here: it beats the real king of hearts.
    assert_beats("9S TS JS QS JK", "9H TH JH QH KH");
    assert_ties("9S TS JS QS JK", "9S TS JS QS KS");
    assert_eq!(best("9S TS JS QS JK"), ["KS*", "QS", "JS", "TS", "9S"]);
}

#[test]
fn straight_top_rank_then_its_suit_and_a_joker_on_top_has_none() {
    assert_beats("TC JD QH KS AD", "9S TS JS QS KH");
    assert_beats("9C TD JH QS KH", "9S TS JS QC KD");
    // Real king of clubs beats a joker king: a joker has no suit.
    assert_beats("9C TD JH QS KC", "9S TH JD QC JK");
    assert_eq!(best("9S TH JD QC JK"), ["K*", "QC", "JD", "TH", "9S"]);
    // Only the top card's suit counts.
    assert_ties("9S TS JS QC KD", "9C TC JC QS KD");
}

#[test]
fn four_of_a_kind_quad_rank_then_kicker_rank_never_suits() {
    assert_beats("9C 9D 9H 9S 2C", "8C 8D 8H 8S AS");
    assert_beats("8C 8D 8H 8S KC", "8C 8D 8H 8S QS");
    assert_ties("8C 8D 8H 8S KC", "8C 8D 8H 8S KS");
    assert_ties("8S 8H JK JK KC", "8C 8D 8H 8S KD");
    assert_eq!(best("8S 8H JK JK KC"), ["8S", "8H", "8*", "8*", "KC"]);
}

#[test]
fn full_house_triple_then_pair_then_the_triples_highest_suit() {
    assert_beats("KC KD KH 2C 2D", "QS QH QD AS AH");
    assert_beats("KC KD KH 7C 7D", "KC KD KH 6S 6H");
    // Triple KS-KH-joker has spades; the other triple's best is hearts. Pair suits never count.
    assert_beats("KS KH JK 7C 7D", "KC KD KH 7S 7H");
    assert_eq!(best("KS KH JK 7C 7D"), ["KS", "KH", "K*", "7D", "7C"]);
    assert_ties("KS KC KD 7C 7D", "KS KH KD 7S 7H");
}

#[test]
fn flush_ranks_one_by_one_then_the_suit() {
    assert_beats("AS KS QS JS 9S", "AS KS QS JS 8S");
    assert_beats("AC 3C 4C 5C 7C", "KS QS JS TS 8S");
    assert_beats("AS KS QS JS 9S", "AH KH QH JH 9H");
    // A joker in a flush is of the flush's suit.
    assert_beats("2S 5S 8S JS JK", "AH JH 8H 5H 2H");
    assert_ties("2S 5S 8S JS JK", "2S 5S 8S JS AS");
    // A flush holds five different cards: the joker is the best card missing, not a second ace.
    assert_eq!(best("AS 7S 5S 3S JK"), ["AS", "KS*", "7S", "5S", "3S"]);
    assert_ties("AS 7S 5S 3S JK", "AS KS 7S 5S 3S");
}

#[test]
fn three_of_a_kind_triple_then_kickers_then_the_triples_highest_suit() {
    assert_beats("8C 8D 8H 2C 3D", "7S 7H 7D AS KH");
    assert_beats("7S 7H 7D KC 2C", "7S 7H 7D QC JC");
    assert_beats("7S 7H 7D KC 3C", "7S 7H 7D KC 2C");
    assert_beats("7S 7H 7D KC 2C", "7C 7D 7H KS 2S");
    // A joker in the triple adds no suit: spades is still the triple's best.
    assert_ties("7S 7H JK KC 2D", "7S 7H 7C KD 2C");
    assert_beats("7C 7D 7H KD 2C", "7C 7D JK KD 2C");
}

#[test]
fn two_pair_higher_pair_then_lower_pair_then_the_higher_pairs_suit_no_kicker() {
    assert_beats("KC KD 3C 3D 2H", "QS QH JS JH AS");
    assert_beats("KC KD 5C 5D 2H", "KC KD 4S 4H AS");
    assert_beats("KS KH 5C 5D 2C", "KC KD 5S 5H AS");
    assert_ties("KS KH 5C 5D 2C", "KS KD 5H 5S AH");
    assert_eq!(best("2C KS 5C KH 5D"), ["KS", "KH", "5D", "5C", "2C"]);
}

#[test]
fn one_pair_pair_rank_then_its_highest_suit_no_kickers() {
    assert_beats("TC TD 2H 3S 4C", "9S 9H AS KS QH");
    assert_beats("9S 9C 2D 3H 4C", "9H 9D AS KS QS");
    assert_ties("9S 9C 2D 3H 5C", "9S 9D AH KH QH");
    // A joker pairs the highest card and lends no suit: the real card's suit is the pair's.
    assert_ties("AD JK 3C 5H 9S", "AC AD 2S 4H 8H");
    assert_beats("AH JK 3C 5D 9S", "AC AD 2S 4H 8H");
    assert_beats("AC AD 2S 4H 8H", "AC JK 3C 5D 9S");
    assert_eq!(best("3C AD 5H JK 9S"), ["AD", "A*", "9S", "5H", "3C"]);
}

#[test]
fn high_card_top_rank_then_its_suit_nothing_else() {
    assert_beats("AC 3D 5H 7S 9C", "KS QS JH 9D 8C");
    assert_beats("AS 9C 7D 5H 3C", "AH KS QD JC 9S");
    assert_ties("AS 3C 5D 7H 9C", "AS KD QC JH 9D");
    assert_eq!(best("5D AS 9C 3C 7H"), ["AS", "9C", "7H", "5D", "3C"]);
}

#[test]
fn five_of_a_kind_by_rank_and_five_jokers_always_tie() {
    assert_beats("9S 9H 9D 9C JK", "8S 8H 8D 8C JK");
    assert_ties("9S 9H JK JK JK", "9C 9D 9H 9S JK");
    assert_ties("9S JK JK JK JK", "9C 9D 9H 9S JK");
    assert_ties("JK JK JK JK JK", "JK JK JK JK JK");
    assert_beats("JK JK JK JK JK", "AS JK JK JK JK");
}

// ---- straights and what jokers complete -----------------------------------------------------

#[test]
fn wheel_is_the_lowest_straight_and_broadway_the_highest() {
    assert_category("AC 2D 3H 4S 5C", Category::Straight);
    assert_eq!(best("AC 2D 3H 4S 5C"), ["5C", "4S", "3H", "2D", "AC"]);
    assert_beats("2C 3D 4H 5S 6C", "AS 2S 3H 4S 5H");
    assert_beats("TC JD QH KS AC", "9S TS JH QS KS");
    let straights: Vec<u32> = [
        "AC 2D 3H 4S 5C",
        "2C 3D 4H 5S 6C",
        "6C 7D 8H 9S TC",
        "9C TD JH QS KC",
        "TC JD QH KS AC",
    ]
    .iter()
    .map(|codes| strength(&hand(codes)))
    .collect();
    assert!(straights.windows(2).all(|pair| pair[0] < pair[1]));
    // K-A-2-3-4 is not a straight, nor Q-K-A-2-3.
    assert_category("KC AD 2H 3S 4C", Category::HighCard);
    assert_category("QC KD AH 2S 3C", Category::HighCard);
    // Not even with a joker: it pairs the ace instead.
    assert_category("KC AD 2H 3S JK", Category::OnePair);
    // The wheel's ace counts low: a wheel straight flush is the lowest straight flush.
    assert_beats("2S 3S 4S 5S 6S", "AS 2S 3S 4S 5S");
}

#[test]
fn jokers_complete_straights_flushes_and_more() {
    // Inside and on top of straights.
    assert_eq!(best("9C TD QH KS JK"), ["KS", "QH", "J*", "TD", "9C"]);
    assert_eq!(best("9C TD JH QS JK"), ["K*", "QS", "JH", "TD", "9C"]);
    assert_eq!(best("JC QD KH AS JK"), ["AS", "KH", "QD", "JC", "T*"]);
    assert_eq!(best("AC 2D 3H 4S JK"), ["5*", "4S", "3H", "2D", "AC"]);
    assert_eq!(best("2C 3D 4H 5S JK"), ["6*", "5S", "4H", "3D", "2C"]);
    // Three ranks no straight holds: the jokers join the highest.
    assert_eq!(best("9C TD JK JK 2S"), ["TD", "T*", "T*", "9C", "2S"]);
    // Two jokers beside three to a straight: a straight beats three of a kind.
    assert_eq!(best("9C TD JH JK JK"), ["K*", "Q*", "JH", "TD", "9C"]);
    // Straight flushes.
    assert_eq!(best("9S TS JS JK JK"), ["KS*", "QS*", "JS", "TS", "9S"]);
    assert_eq!(best("AH 3H JK JK 5H"), ["5H", "4H*", "3H", "2H*", "AH"]);
    assert_eq!(best("KS QS JK JK JK"), ["AS*", "KS", "QS", "JS*", "TS*"]);
    // Flushes: jokers are the best missing cards of the suit.
    assert_eq!(best("2D 7D 9D JK JK"), ["AD*", "KD*", "9D", "7D", "2D"]);
    // Four and five of a kind.
    assert_eq!(best("KS 2C JK JK JK"), ["KS", "K*", "K*", "K*", "2C"]);
    assert_category("KS 2C JK JK JK", Category::FourOfAKind);
    assert_eq!(best("QH JK JK JK JK"), ["QH", "Q*", "Q*", "Q*", "Q*"]);
    assert_category("QH JK JK JK JK", Category::FiveOfAKind);
    // Full house from two pair and a joker: the joker joins the higher pair.
    assert_eq!(best("5C 5D 9H 9S JK"), ["9S", "9H", "9*", "5D", "5C"]);
}

#[test]
#[cfg(feature = "serde")]
fn eval_json_shape() {
    let json = serde_json::to_value(eval("9S TS JS QS JK")).unwrap();
    assert_eq!(
        json["cards"],
        serde_json::json!(["9S", "TS", "JS", "QS", "JK"])
    );
    assert_eq!(json["category"], "straight_flush");
    assert_eq!(
        json["best"],
        serde_json::json!(["KS*", "QS", "JS", "TS", "9S"])
    );
    assert!(json["strength"].is_u64());
    let back: Eval = serde_json::from_value(json).unwrap();
    assert_eq!(back, eval("9S TS JS QS JK"));
    for code in ["KS", "K*", "KS*", "JK", "10*", "TD*"] {
        let card: BestCard = code.parse().unwrap();
        assert_eq!(card.to_string(), code.replace("10", "T"));
    }
    for bad in ["*", "JK*", "S*", "KX*", "11*"] {
        assert!(bad.parse::<BestCard>().is_err(), "{bad}");
    }
}

// ---- exhaustive category counts -------------------------------------------------------------

/// Calls `visit` with all C(57, 5) = 4,187,106 hands of the deck (the five jokers are five
/// distinct deck positions, so a hand with j jokers appears C(5, j) times).
fn for_each_hand(mut visit: impl FnMut(&[Card; HAND_SIZE])) {
    let deck = full_deck();
    let n = deck.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        visit(&[deck[a], deck[b], deck[c], deck[d], deck[e]]);
                    }
                }
            }
        }
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// How many sets of `size` distinct ranks lie inside some straight (A-2-3-4-5 … T-J-Q-K-A):
/// such ranks of one suit plus jokers make a straight flush, of mixed suits a straight.
fn rank_sets_inside_a_straight(size: u32) -> u64 {
    let windows: Vec<u16> = (0..9)
        .map(|low| 0b1_1111 << low)
        .chain([0b1_0000_0000_1111])
        .collect();
    (0u16..1 << 13)
        .filter(|set| set.count_ones() == size)
        .filter(|set| windows.iter().any(|window| set & !window == 0))
        .count() as u64
}

/// Category counts (indexed by category index) of the hands made of `jokers` jokers and
/// 5 - `jokers` distinct real cards, each hand counted once, derived by combinatorics on rank
/// and suit patterns, independently of any evaluator. The reasoning per joker count:
/// - 0: the textbook five-card counts.
/// - 1 (four real cards): four of a rank -> five of a kind; triple + single -> four of a kind;
///   two pairs -> full house (the joker joins the higher pair); pair + two singles -> three of a
///   kind; four different ranks -> straight flush / straight if they fit one straight (suited /
///   not), else flush if suited, else one pair.
/// - 2 (three real cards): one rank -> five of a kind; pair + single -> four of a kind; three
///   different ranks -> straight flush / straight if they fit one straight, else flush if suited,
///   else three of a kind (jokers beside the highest).
/// - 3 (two real cards): a pair -> five of a kind; two ranks of one suit fitting one straight ->
///   straight flush (beats four of a kind); any other two ranks -> four of a kind.
/// - 4: five of a kind. 5: five jokers.
fn closed_form_counts(jokers: usize) -> [u64; 11] {
    let mut counts = [0u64; 11];
    let mut add = |category: Category, n: u64| counts[usize::from(category.index())] += n;
    let b = binomial;
    match jokers {
        0 => {
            let rank_sets = b(13, 5) - 10;
            let suitings = 4u64.pow(5) - 4;
            add(Category::StraightFlush, 10 * 4);
            add(Category::FourOfAKind, 13 * 48);
            add(Category::FullHouse, 13 * b(4, 3) * 12 * b(4, 2));
            add(Category::Flush, 4 * rank_sets);
            add(Category::Straight, 10 * suitings);
            add(Category::ThreeOfAKind, 13 * b(4, 3) * b(12, 2) * 16);
            add(Category::TwoPair, b(13, 2) * 36 * 44);
            add(Category::OnePair, 13 * b(4, 2) * b(12, 3) * 64);
            add(Category::HighCard, rank_sets * suitings);
        }
        1 => {
            let fit = rank_sets_inside_a_straight(4);
            let sets = b(13, 4);
            add(Category::FiveOfAKind, 13);
            add(Category::FourOfAKind, 13 * b(4, 3) * 48);
            add(Category::FullHouse, b(13, 2) * 36);
            add(Category::ThreeOfAKind, 13 * b(4, 2) * b(12, 2) * 16);
            add(Category::StraightFlush, 4 * fit);
            add(Category::Straight, (256 - 4) * fit);
            add(Category::Flush, 4 * (sets - fit));
            add(Category::OnePair, (256 - 4) * (sets - fit));
        }
        2 => {
            let fit = rank_sets_inside_a_straight(3);
            let sets = b(13, 3);
            add(Category::FiveOfAKind, 13 * b(4, 3));
            add(Category::FourOfAKind, 13 * b(4, 2) * 48);
            add(Category::StraightFlush, 4 * fit);
            add(Category::Straight, (64 - 4) * fit);
            add(Category::Flush, 4 * (sets - fit));
            add(Category::ThreeOfAKind, (64 - 4) * (sets - fit));
        }
        3 => {
            let fit = rank_sets_inside_a_straight(2);
            add(Category::FiveOfAKind, 13 * b(4, 2));
            add(Category::StraightFlush, 4 * fit);
            add(
                Category::FourOfAKind,
                (16 - 4) * fit + 16 * (b(13, 2) - fit),
            );
        }
        4 => add(Category::FiveOfAKind, 52),
        _ => add(Category::FiveJokers, 1),
    }
    counts
}

#[test]
fn closed_form_building_blocks() {
    assert_eq!(rank_sets_inside_a_straight(5), 10);
    assert_eq!(rank_sets_inside_a_straight(4), 41);
    assert_eq!(rank_sets_inside_a_straight(3), 64);
    assert_eq!(rank_sets_inside_a_straight(2), 46);
    for jokers in 0..=5 {
        let hands = binomial(52, 5 - jokers as u64);
        assert_eq!(
            closed_form_counts(jokers).iter().sum::<u64>(),
            hands,
            "{jokers} jokers"
        );
    }
}

#[test]
fn exhaustive_category_counts_match_the_closed_form() {
    // by_jokers[j][category index]
    let mut by_jokers = [[0u64; 11]; 6];
    let mut hands = 0u64;
    for_each_hand(|cards| {
        let jokers = cards.iter().filter(|c| c.is_joker()).count();
        let category = category_of(strength(cards));
        by_jokers[jokers][usize::from(category.index())] += 1;
        hands += 1;
    });
    assert_eq!(hands, 4_187_106);
    let mut total = [0u64; 11];
    for (jokers, counted) in by_jokers.iter().enumerate() {
        // Each hand with j jokers was met C(5, j) times, once per choice of the deck's jokers.
        let expected = closed_form_counts(jokers).map(|n| n * binomial(5, jokers as u64));
        assert_eq!(*counted, expected, "{jokers} jokers");
        for (sum, n) in total.iter_mut().zip(counted) {
            *sum += n;
        }
    }
    // The totals, written out (index = category index, high card first).
    assert_eq!(
        total,
        [
            1_302_540, // high card
            1_947_480, // one pair
            123_552,   // two pair
            599_952,   // three of a kind
            100_260,   // straight
            27_468,    // flush
            17_784,    // full house
            61_184,    // four of a kind
            5_260,     // straight flush
            1_625,     // five of a kind
            1,         // five jokers
        ]
    );
}

// ---- the fast path against the brute-force reference ----------------------------------------

/// A valid hand: 0..=5 jokers (weighted towards few, as in a deck) and distinct real cards,
/// in any order.
fn any_hand() -> impl Strategy<Value = [Card; HAND_SIZE]> {
    prop::sample::select(vec![0usize, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5])
        .prop_flat_map(|jokers| {
            let reals: Vec<u8> = (0..52).collect();
            prop::sample::subsequence(reals, HAND_SIZE - jokers).prop_map(|reals| {
                let mut cards = vec![Card::JOKER; HAND_SIZE];
                for (slot, index) in cards.iter_mut().zip(reals) {
                    *slot = Card::from_index(index).unwrap();
                }
                cards
            })
        })
        .prop_shuffle()
        .prop_map(|cards| cards.try_into().unwrap())
}

/// `best` read back as played cards, judged by the reference.
fn judge_best(eval: &Eval) -> super::reference::Judgement {
    let reals: Vec<Card> = eval
        .cards
        .iter()
        .copied()
        .filter(|c| !c.is_joker())
        .collect();
    // A suitless joker must not accidentally complete a flush: give it a suit no real card has
    // when they all share one.
    let spare_suit = reals.first().map_or(0, |card| (card.index() % 4 + 1) % 4);
    let played: Vec<Played> = eval
        .best
        .iter()
        .map(|card| match *card {
            BestCard::Real(card) => Played {
                rank: card.index() / 4,
                suit: card.index() % 4,
                joker: false,
            },
            BestCard::Wild { rank, suit } => Played {
                rank: rank.index(),
                suit: suit.map_or(spare_suit, Suit::index),
                joker: true,
            },
            BestCard::Joker => unreachable!("only five jokers"),
        })
        .collect();
    judge(played.as_slice().try_into().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn strength_orders_hands_like_the_reference(a in any_hand(), b in any_hand()) {
        let (ref_a, ref_b) = (reference_judgement(&a), reference_judgement(&b));
        let (eval_a, eval_b) = (evaluate(&a), evaluate(&b));
        prop_assert_eq!(eval_a.category, ref_a.category, "{:?}", a);
        prop_assert_eq!(eval_b.category, ref_b.category, "{:?}", b);
        prop_assert_eq!(
            eval_a.strength.cmp(&eval_b.strength),
            ref_a.cmp(&ref_b),
            "{:?} vs {:?}", a, b
        );
        // Strength is a total order that puts categories first.
        if eval_a.category != eval_b.category {
            prop_assert_eq!(
                eval_a.strength.cmp(&eval_b.strength),
                eval_a.category.cmp(&eval_b.category)
            );
        }
    }

    #[test]
    fn best_is_a_real_reading_of_the_hand_and_the_best_one(cards in any_hand()) {
        let eval = evaluate(&cards);
        prop_assert_eq!(strength(&cards), eval.strength);
        prop_assert_eq!(category_of(eval.strength), eval.category);
        if eval.category == Category::FiveJokers {
            prop_assert_eq!(eval.best, [BestCard::Joker; HAND_SIZE]);
            return Ok(());
        }
        // Same real cards, one wild per joker.
        let mut held: Vec<Card> = cards.iter().copied().filter(|c| !c.is_joker()).collect();
        let mut shown: Vec<Card> = eval.best.iter().filter_map(|card| match card {
            BestCard::Real(card) => Some(*card),
            _ => None,
        }).collect();
        held.sort();
        shown.sort();
        prop_assert_eq!(held, shown);
        prop_assert_eq!(judge_best(&eval), reference_judgement(&cards), "{:?}", eval.best);
    }

    #[test]
    fn impossible_hands_never_panic(indices in prop::array::uniform5(0u8..=52)) {
        // A real card twice is rejected by validate_one_deck; unvalidated, it is garbage in,
        // garbage out, but never a panic.
        let cards = indices.map(|index| Card::from_index(index).unwrap());
        let eval = evaluate(&cards);
        prop_assert_eq!(eval.strength, strength(&cards));
    }

    #[test]
    fn card_order_in_the_hand_does_not_matter(cards in any_hand(), rotation in 0usize..5) {
        let mut rotated = cards;
        rotated.rotate_left(rotation);
        prop_assert_eq!(strength(&cards), strength(&rotated));
        prop_assert_eq!(evaluate(&cards).best, evaluate(&rotated).best);
    }
}

/// Every distinct hand (each real-card set with each joker count: 2,893,164 hands, covering all
/// 4,187,106 deck combinations) against the brute-force reference: one strength never meets two
/// judgements, and sorting by strength sorts the judgements. Slow (every joker substitution of
/// every hand), so run on demand: `cargo test --release -- --ignored`.
#[test]
#[ignore = "slow: brute-forces every joker substitution of every hand"]
fn exhaustive_agreement_with_the_reference() {
    use std::collections::HashMap;
    let mut seen: HashMap<u32, super::reference::Judgement> = HashMap::new();
    let mut hands = 0u64;
    for jokers in 0..=HAND_SIZE {
        for_each_real_set(HAND_SIZE - jokers, &mut |reals| {
            let mut cards = [Card::JOKER; HAND_SIZE];
            cards[..reals.len()].copy_from_slice(reals);
            let judgement = reference_judgement(&cards);
            let strength = strength(&cards);
            let previous = *seen.entry(strength).or_insert(judgement);
            assert_eq!(previous, judgement, "strength {strength:#x} for {cards:?}");
            hands += 1;
        });
    }
    assert_eq!(hands, 2_893_164);
    let mut classes: Vec<_> = seen.into_iter().collect();
    classes.sort_by_key(|&(strength, _)| strength);
    assert!(classes.windows(2).all(|pair| pair[0].1 < pair[1].1));
    println!(
        "{} distinct strengths, all ordered as the reference orders them",
        classes.len()
    );
}

/// Calls `visit` with every set of `size` distinct real cards.
fn for_each_real_set(size: usize, visit: &mut impl FnMut(&[Card])) {
    fn pick(first: u8, size: usize, chosen: &mut Vec<Card>, visit: &mut impl FnMut(&[Card])) {
        if chosen.len() == size {
            visit(chosen);
            return;
        }
        for index in first..52 {
            chosen.push(Card::from_index(index).unwrap());
            pick(index + 1, size, chosen, visit);
            chosen.pop();
        }
    }
    pick(0, size, &mut Vec::with_capacity(size), visit);
}
