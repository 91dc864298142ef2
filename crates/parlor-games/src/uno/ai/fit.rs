//! Whether a hand guessed for a seat fits what the table saw it play, were the seat playing
//! seed 000's tree (`easy`). The seat held every card it played since it last took one along
//! with all it holds now, so its hand at each of those plays is known from a guess of its hand
//! now; the tree, run on that hand and the table of the play, must give the card it played and,
//! for a wild, the colour it named.

use super::super::card::Card;
use super::super::recent::RecentPlay;
use super::easy;

/// How many of `plays` (the seat's plays since it last took a card, oldest first) seed 000's
/// tree would not have made from `hand` (the seat's whole hand now, in seed order). `then` is
/// scratch space.
pub fn misfits<'a>(
    hand: &[Card],
    plays: impl DoubleEndedIterator<Item = &'a RecentPlay>,
    then: &mut Vec<Card>,
) -> usize {
    then.clear();
    then.extend_from_slice(hand);
    let mut misfits = 0;
    // Newest first: each play's card goes back into the hand it was chosen from.
    for play in plays.rev() {
        let key = play.card.seed_order();
        let at = then.partition_point(|c| c.seed_order() <= key);
        then.insert(at, play.card);
        let Some(seen) = play.table else {
            continue;
        };
        let table = easy::Table {
            color: Some(seen.color),
            next_len: usize::from(seen.next_len),
            prev_len: usize::from(seen.prev_len),
        };
        let fits = match easy::pick(then, |card| seen.matches(card), &table) {
            Some((card, named)) => card == play.card && (!card.is_wild() || named == play.color),
            None => false,
        };
        misfits += usize::from(!fits);
    }
    misfits
}

#[cfg(test)]
mod tests {
    use super::super::super::card::Color;
    use super::super::super::recent::TableSeen;
    use super::*;

    fn cards(codes: &str) -> Vec<Card> {
        let mut hand: Vec<Card> = codes
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        hand.sort_by_key(|c| c.seed_order());
        hand
    }

    fn played(code: &str, color: Color, top: &str, top_color: Color) -> RecentPlay {
        RecentPlay {
            seat: 1,
            card: code.parse().unwrap(),
            color,
            table: Some(TableSeen {
                top: top.parse().unwrap(),
                color: top_color,
                next_len: 5,
                prev_len: 5,
            }),
        }
    }

    #[test]
    fn a_number_played_where_the_tree_would_play_another_does_not_fit() {
        // On R5 the seat played B5. Holding B1 B2 now, blue was its best colour and B5 its only
        // playable card: it fits. Holding R1 G1 G2, green was best and R1 came first: misfit.
        let play = [played("B5", Color::Blue, "R5", Color::Red)];
        let mut then = Vec::new();
        assert_eq!(misfits(&cards("B1 B2"), play.iter(), &mut then), 0);
        assert_eq!(misfits(&cards("R1 G1 G2"), play.iter(), &mut then), 1);
    }

    #[test]
    fn a_wild_names_the_best_colour_and_comes_only_when_nothing_else_fits() {
        let play = [played("W", Color::Green, "R5", Color::Red)];
        let mut then = Vec::new();
        assert_eq!(misfits(&cards("G1 G2 B3"), play.iter(), &mut then), 0);
        // Blue would be named.
        assert_eq!(misfits(&cards("B1 B2 G3"), play.iter(), &mut then), 1);
        // A red number would have been played instead.
        assert_eq!(misfits(&cards("G1 G2 R3"), play.iter(), &mut then), 1);
    }

    #[test]
    fn every_play_since_the_last_take_is_checked_with_the_cards_played_after_it() {
        // Holding B1 now after R3 on R5, then R9 on R3: at the first play the seat held R3 R9
        // B1, red was best and the tree takes the later red number, R9, not R3.
        let plays = [
            played("R3", Color::Red, "R5", Color::Red),
            played("R9", Color::Red, "R3", Color::Red),
        ];
        let mut then = Vec::new();
        assert_eq!(misfits(&cards("B1"), plays.iter(), &mut then), 1);
        // R9 first, then R3: both what the tree plays.
        let plays = [
            played("R9", Color::Red, "R5", Color::Red),
            played("R3", Color::Red, "R9", Color::Red),
        ];
        assert_eq!(misfits(&cards("B1"), plays.iter(), &mut then), 0);
        // Holding B1 B2 at R3 on R9: blue was best, R3 the only playable card.
        assert_eq!(misfits(&cards("B1 B2"), plays[1..].iter(), &mut then), 0);
    }
}
