//! `easy`: seed 000's `AI::bestCardIndex4NowPlayer` decision tree, exactly as RULES.md spells
//! it out. The seed walks the hand in its sorted order (`(colour << 4) + content`), which is the
//! order [`Uno::hand`] keeps, so "first" and "last" below mean the same cards as in the seed.

use super::super::action::UnoAction;
use super::super::card::{Card, Color, Symbol};
use super::super::game::Uno;

/// Seed 000's `calcBestColor4NowPlayer`: Reverse and 0 score 2, Skip and +2 score 5, other
/// numbers 4; red is the default, replaced only by a strictly higher blue, then green, then
/// yellow.
pub fn best_color(hand: &[Card]) -> Color {
    let mut score = [0u32; 4];
    for card in hand {
        let Some(color) = card.color() else {
            continue; // the seed scores wilds under "none", which it never compares
        };
        score[color.index()] += match card.symbol() {
            Symbol::Reverse | Symbol::Number(0) => 2,
            Symbol::Skip | Symbol::DrawTwo => 5,
            _ => 4,
        };
    }
    let mut best = Color::Red;
    for challenger in [Color::Blue, Color::Green, Color::Yellow] {
        if score[challenger.index()] > score[best.index()] {
            best = challenger;
        }
    }
    best
}

/// The kinds the tree chooses between.
#[derive(Default)]
struct Candidates {
    number: Option<Card>,
    reverse: Option<Card>,
    skip: Option<Card>,
    draw_two: Option<Card>,
    wild: Option<Card>,
    wild_draw_four: Option<Card>,
}

impl Candidates {
    /// Among playable cards of one kind the seed keeps the first, then overwrites it with any
    /// later one in the best colour (`if (!hasX || card->getColor() == bestColor) idxX = i`).
    fn collect(hand: &[Card], playable: impl Fn(Card) -> bool, best: Color) -> Candidates {
        let mut c = Candidates::default();
        for &card in hand {
            if !playable(card) {
                continue;
            }
            let slot = match card.symbol() {
                Symbol::Number(_) => &mut c.number,
                Symbol::Reverse => &mut c.reverse,
                Symbol::Skip => &mut c.skip,
                Symbol::DrawTwo => &mut c.draw_two,
                Symbol::Wild => &mut c.wild,
                Symbol::WildDrawFour => &mut c.wild_draw_four,
            };
            if slot.is_none() || card.is_wild() || card.color() == Some(best) {
                *slot = Some(card);
            }
        }
        c
    }
}

/// What the tree reads of the table besides the hand.
pub struct Table {
    /// The colour in play.
    pub color: Option<Color>,
    /// Cards held by the seats after and before the one choosing.
    pub next_len: usize,
    pub prev_len: usize,
}

/// The tree itself: the card seed 000 plays from `hand` (in seed order) and the colour it
/// names for a wild, or `None` to draw. `playable` says which cards the table allows.
pub fn pick(
    hand: &[Card],
    playable: impl Fn(Card) -> bool,
    table: &Table,
) -> Option<(Card, Color)> {
    let best = best_color(hand);
    if hand.len() == 1 {
        // "手中仅剩余一张牌,能出则出,否则摸牌,无需多虑。"
        return playable(hand[0]).then_some((hand[0], best));
    }
    let c = Candidates::collect(hand, playable, best);
    let chosen = if table.next_len == 1 {
        // "下家只剩一张牌时,优先出功能牌控制下家行动"
        c.draw_two
            .or(c.skip)
            .or(c.reverse)
            .or(c.wild_draw_four)
            .or(c.wild.filter(|_| table.color != Some(best)))
            .or(c.number)
    } else {
        // "优先出数字牌,保留功能牌备用" and Reverse to put the smaller hand behind us.
        c.reverse
            .filter(|_| table.prev_len > table.next_len)
            .or(c.number)
            .or(c.skip)
            .or(c.draw_two)
            .or(c.reverse.filter(|_| table.prev_len >= 4))
            .or(c.wild)
            .or(c.wild_draw_four)
    };
    chosen.map(|card| (card, best))
}

fn play(card: Card, best: Color) -> UnoAction {
    UnoAction::Play {
        card,
        // "outColor[0] = bestColor": a wild always names the best colour.
        color: card.is_wild().then_some(best),
    }
}

/// When the tree finds nothing: draw (or pass, after a `draw_then_play` draw).
fn no_choice(game: &Uno) -> UnoAction {
    if game.drawn().is_some() {
        UnoAction::Pass
    } else {
        UnoAction::Draw
    }
}

/// The seed's move for the seat to act.
pub fn choose(game: &Uno, seat: usize) -> UnoAction {
    let table = Table {
        color: game.current_color(),
        next_len: game.hand_len(game.next_seat(seat)),
        prev_len: game.hand_len(game.prev_seat(seat)),
    };
    pick(game.hand(seat), |card| game.is_playable(seat, card), &table)
        .map_or_else(|| no_choice(game), |(card, best)| play(card, best))
}

#[cfg(test)]
mod tests {
    use super::super::super::game::Direction;
    use super::super::super::options::Rules;
    use super::super::super::tests::{cards, position, position_with};
    use super::*;

    fn chosen(game: &Uno, seat: usize) -> String {
        match choose(game, seat) {
            UnoAction::Play { card, color: None } => card.to_string(),
            UnoAction::Play {
                card,
                color: Some(c),
            } => format!("{card}:{c}"),
            other => format!("{other:?}").to_lowercase(),
        }
    }

    #[test]
    fn best_colour_scores_and_breaks_ties_red_blue_green_yellow() {
        // "反转牌及 0 牌计 2 分 … 禁止牌及 +2 牌计 5 分 … 非 0 数字牌计 4 分"
        // "默认为红色,当玩家仅剩黑牌在手时,本函数将返回红色"
        assert_eq!(best_color(&cards("W W4")), Color::Red);
        // red 0 + reverse = 4, blue 5 = 4: "if (score[BLUE] > score[best])" needs strictly more.
        assert_eq!(best_color(&cards("R0 RR B5")), Color::Red);
        assert_eq!(best_color(&cards("R0 B5")), Color::Blue);
        // Skip and +2 score 5, more than a number's 4.
        assert_eq!(best_color(&cards("R9 GS")), Color::Green);
        assert_eq!(best_color(&cards("R9 YD2")), Color::Yellow);
        // blue 4 vs green 4: green is not strictly higher than blue.
        assert_eq!(best_color(&cards("B1 G1")), Color::Blue);
        // yellow only replaces a strictly lower best.
        assert_eq!(best_color(&cards("G7 Y7")), Color::Green);
        // wilds score for nobody.
        assert_eq!(best_color(&cards("W W W4 Y0")), Color::Yellow);
    }

    #[test]
    fn a_lone_last_card_is_played_if_legal_else_drawn() {
        // "手中仅剩余一张牌,能出则出,否则摸牌,无需多虑。"
        let game = position(&["G5", "R1 R2", "R3 R4"], "G9", 0);
        assert_eq!(chosen(&game, 0), "G5");
        let game = position(&["B5", "R1 R2", "R3 R4"], "G9", 0);
        assert_eq!(chosen(&game, 0), "draw");
        let game = position(&["W4", "R1 R2", "R3 R4"], "G9", 0);
        assert_eq!(chosen(&game, 0), "W4:red");
    }

    #[test]
    fn next_seat_at_one_card_gets_draw_two_then_skip_then_reverse_then_wild_four() {
        // "下家只剩一张牌时,优先出功能牌控制下家行动,如 +2、禁止等"
        // if (hasDraw2) … else if (hasSkip) … else if (hasRev) … else if (hasWD4) …
        let hand = "R5 RS RD2 RR W4 W B1";
        let game = position(&[hand, "Y1", "Y2 Y3"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RD2");
        let game = position(&["R5 RS RR W4 W B1", "Y1", "Y2 Y3"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RS");
        let game = position(&["R5 RR W4 W B1", "Y1", "Y2 Y3"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RR");
        let game = position(&["R5 W4 W B1", "Y1", "Y2 Y3"], "R3", 0);
        assert_eq!(chosen(&game, 0), "W4:red");
    }

    #[test]
    fn next_seat_at_one_card_plays_a_wild_only_if_the_colour_changes() {
        // "else if (hasWild && lastColor != bestColor) … else if (hasNum)"
        // Best colour blue (B1 B2 score 8), red in play: the wild changes it → wild, blue.
        let game = position(&["W R5 B1 B2", "Y1", "Y2 Y3"], "R3", 0);
        assert_eq!(chosen(&game, 0), "W:blue");
        // Best colour red = the colour in play: no wild; the numbers R5 then R6 are red, so
        // the last one in the best colour.
        let game = position(&["W R5 R6 B1", "Y1", "Y2 Y3"], "R3", 0);
        assert_eq!(chosen(&game, 0), "R6");
        // Only wilds: best colour red by default = red in play, so no branch matches and
        // idxBest stays -1: "若返回负数则表示玩家需要摸一张牌" → draw.
        let game = position(&["W W", "Y1", "Y2 Y3"], "R4", 0);
        assert_eq!(chosen(&game, 0), "draw");
        // The same hand under a wild whose named colour is yellow: the wild changes it.
        let game = position(&["W W", "Y1", "Y2 Y3"], "W4:yellow", 0);
        assert_eq!(chosen(&game, 0), "W:red");
    }

    #[test]
    fn usual_order_reverse_when_prev_holds_more_then_number_skip_draw_two() {
        // "if (hasRev && prevSize > nextSize) … else if (hasNum) … else if (hasSkip) …
        //  else if (hasDraw2) … else if (hasRev && prevSize >= 4) … else if (hasWild) … WD4"
        // Three seats: seat 0's next is 1 and previous is 2.
        let game = position(&["RR R5 RS", "Y1 Y2", "Y3 Y4 Y5"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RR"); // prev 3 > next 2
        let game = position(&["RR R5 RS", "Y1 Y2 Y6", "Y3 Y4 Y5"], "R3", 0);
        assert_eq!(chosen(&game, 0), "R5"); // prev 3 == next 3: number first
        let game = position(&["RR RS RD2 W", "Y1 Y2 Y6", "Y3 Y4 Y5"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RS");
        let game = position(&["RR RD2 W", "Y1 Y2 Y6", "Y3 Y4 Y5"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RD2");
        let game = position(&["RR W W4", "Y1 Y2 Y6", "Y3 Y4 Y5 Y6"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RR"); // prev 4 >= 4 (and not > next 3? 4 > 3: first rule)
        let game = position(&["RR W W4", "Y1 Y2 Y6 Y7", "Y3 Y4 Y5 Y6"], "R3", 0);
        assert_eq!(chosen(&game, 0), "RR"); // prev 4 == next 4, prev >= 4
        let game = position(&["RR W W4", "Y1 Y2 Y6", "Y3 Y4 Y5"], "R3", 0);
        assert_eq!(chosen(&game, 0), "W:red"); // prev 3: Reverse kept, wild before +4
                                               // Best colour blue (B1 scores 4 > RR's 2): the +4 names blue.
        let game = position(&["RR W4 B1", "Y1 Y2 Y6", "Y3 Y4 Y5"], "R3", 0);
        assert_eq!(chosen(&game, 0), "W4:blue");
        let game = position(&["B1 B2", "Y1 Y2 Y6", "Y3 Y4 Y5"], "R3", 0);
        assert_eq!(chosen(&game, 0), "draw");
    }

    #[test]
    fn among_one_kind_the_first_in_seed_order_unless_a_later_one_is_in_the_best_colour() {
        // "当有多张 +2 能出时,优先指定自己最强色上的 +2。其他类型的牌同理"
        // if (!hasNum || card->getColor() == bestColor) idxNum = i;
        // Hand order: red < blue < green < yellow. Top is a 5: R5, B5, G5 all playable.
        // Best colour green (G5 G6 = 8): the green five.
        let game = position(&["R5 B5 G5 G6", "Y1 Y2 Y6", "Y3 Y4 Y5"], "Y5", 0);
        assert_eq!(chosen(&game, 0), "G5");
        // Best colour red (default, all tie at 4): R5 comes first and is best colour.
        let game = position(&["B5 G5 R5", "Y1 Y2 Y6", "Y3 Y4 Y5"], "Y5", 0);
        assert_eq!(chosen(&game, 0), "R5");
        // Best colour blue (B1 B5 = 8); two blue numbers playable: the LAST blue one.
        let game = position(&["R5 B1 B5 G5", "Y1 Y2 Y6", "Y3 Y4 Y5"], "B9", 0);
        assert_eq!(chosen(&game, 0), "B5");
        // No playable card in the best colour: the first playable in order (blue before green).
        let game = position(&["G5 B5 Y1 Y2 Y3", "Y1 Y2 Y6", "Y3 Y4 Y5"], "R5", 0);
        assert_eq!(chosen(&game, 0), "B5");
    }

    #[test]
    fn next_and_previous_follow_the_direction() {
        // getNext() = (now + direction) % 4: after a Reverse, the previous seat is next.
        let hands = ["RR R5 RS", "Y1 Y2 Y7", "Y3 Y4 Y5 Y6", "Y8 Y9"];
        // clockwise: next 1 (3 cards), prev 3 (2 cards): prev < next → number.
        let game = position(&hands, "R3", 0);
        assert_eq!(chosen(&game, 0), "R5");
        // counterclockwise: next 3 (2), prev 1 (3): prev > next → Reverse.
        let game = position_with(
            &hands,
            "R3",
            0,
            Direction::Counterclockwise,
            Rules::default(),
        );
        assert_eq!(chosen(&game, 0), "RR");
    }
}
