//! `hard`: Monte Carlo search over determinisations. Each round deals the cards the seat cannot
//! see at random (consistent with every public fact, with the colours a seat is known to lack,
//! and, for the seats the table shows as `easy` bots, with their plays since they last took a
//! card), plays every candidate move on that same deal, and finishes each game with `normal`
//! playing every seat but the `easy` bots, which play seed 000's tree; `normal`'s own move stands
//! unless another wins clearly more often (see [`search`]). Everything it starts from is an
//! [`InfoSet`]: what the seat could see, nothing more, so hidden cards cannot steer it.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
#[cfg(feature = "serde")]
use serde::Serialize;

use super::super::action::{Outcome, UnoAction, UnoEvent};
use super::super::card::{copies_left, Card};
use super::super::game::{Direction, JumpWindow, Parts, Played, Uno};
use super::super::lacks::Lacks;
use super::super::options::Rules;
use super::super::recent::RecentPlays;
use super::fit::misfits;
use super::{easy, normal};
use crate::Forfeit;

/// Iterations between clock checks.
const CLOCK_EVERY: u64 = 8;
/// Actions after which a rollout stops and is scored as a loss (a guard, never reached in
/// practice: UNO games end far sooner).
const ROLLOUT_CAP: usize = 2_000;

/// Everything one seat could know: its own hand and the public table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct InfoSet {
    pub seat: usize,
    pub rules: Rules,
    pub hand: Vec<Card>,
    pub hand_counts: Vec<usize>,
    pub discard: Vec<Played>,
    pub deck_count: usize,
    pub turn: usize,
    pub direction: Direction,
    pub pending_draw: u16,
    /// The card this seat just drew under `draw_then_play` (its own knowledge).
    pub drawn: Option<Card>,
    pub jump_window: Option<JumpWindow>,
    /// What each seat is publicly inferred to lack ([`Uno::lacks_of`]).
    pub lacks: Vec<Lacks>,
    /// What each seat played since it last took a card ([`Uno::recent_plays`]).
    pub recent: RecentPlays,
    /// Seats the table shows as `easy` bots, whose plays follow seed 000's published tree:
    /// hands dealt to them in a determinisation must fit their recent plays (see
    /// [`InfoSet::determinise`]). Public: a seat's kind and level are in the game resource.
    pub easy_seats: Vec<usize>,
    /// Seats out of the game ([`Uno::out`]): they hold nothing and play passes them by.
    pub out: Vec<Forfeit>,
}

impl InfoSet {
    /// What `seat` sees of `game` (a game in play).
    pub fn of(game: &Uno, seat: usize) -> InfoSet {
        let turn = game.turn().unwrap_or(0);
        InfoSet {
            seat,
            rules: *game.rules(),
            hand: game.hand(seat).to_vec(),
            hand_counts: (0..game.seats()).map(|s| game.hand_len(s)).collect(),
            discard: game.discard().to_vec(),
            deck_count: game.deck_count(),
            turn,
            direction: game.direction(),
            pending_draw: game.pending_draw(),
            drawn: if turn == seat { game.drawn() } else { None },
            jump_window: game.jump_window(),
            lacks: (0..game.seats()).map(|s| game.lacks_of(s)).collect(),
            recent: game.recent_plays().clone(),
            easy_seats: Vec::new(),
            out: game.out().to_vec(),
        }
    }

    /// The same, knowing which seats are `easy` bots.
    pub fn with_easy_seats(mut self, seats: &[usize]) -> InfoSet {
        self.easy_seats = seats.iter().copied().filter(|&s| s != self.seat).collect();
        self
    }

    /// The cards the seat cannot place: the deck minus its hand and the discard pile.
    pub fn unseen(&self) -> Vec<Card> {
        let known = self.hand.iter().copied();
        let left = copies_left(known.chain(self.discard.iter().map(|p| p.card)));
        let mut out = Vec::with_capacity(108);
        for (i, &n) in left.iter().enumerate() {
            out.extend(std::iter::repeat_n(Card::from_index(i), n));
        }
        out
    }

    /// One table consistent with what the seat knows, hidden cards dealt at random.
    ///
    /// A seat's cards held since it drew by choice are dealt from the cards it is inferred to
    /// lack none of, the rest from any. An `easy` seat that played since it last took a card is
    /// redealt (up to [`REDEALS`] times, the hand that fits best kept) until seed 000's tree
    /// would have made those plays from the hand.
    pub fn determinise(&self, unseen: &[Card], rng: &mut ChaCha8Rng) -> Uno {
        let mut pool = unseen.to_vec();
        pool.shuffle(rng);
        let mut hands = vec![Vec::new(); self.hand_counts.len()];
        let mut then = Vec::with_capacity(24);
        for s in (0..hands.len()).filter(|&s| s != self.seat) {
            let plays = self.recent.of(s);
            let checked = self.easy_seats.contains(&s) && plays.clone().any(|p| p.table.is_some());
            let mut best = self.deal_hand(s, &mut pool);
            let mut best_misfits = if checked {
                misfits(&best, plays.clone(), &mut then)
            } else {
                0
            };
            let mut redeals = 0;
            while best_misfits > 0 && redeals < REDEALS {
                redeals += 1;
                // The whole pool to draw from: late in a deck it may hold little besides `best`.
                pool.extend_from_slice(&best);
                pool.shuffle(rng);
                let hand = self.deal_hand(s, &mut pool);
                let count = misfits(&hand, plays.clone(), &mut then);
                if count < best_misfits {
                    best = hand;
                    best_misfits = count;
                } else {
                    pool.extend(hand);
                    for card in &best {
                        let at = pool.iter().position(|c| c == card).expect("returned above");
                        pool.swap_remove(at);
                    }
                }
            }
            hands[s] = best;
        }
        hands[self.seat] = self.hand.clone();
        debug_assert_eq!(pool.len(), self.deck_count);
        Uno::assemble(Parts {
            rules: self.rules,
            hands,
            deck: pool,
            discard: self.discard.clone(),
            turn: self.turn,
            direction: self.direction,
            pending_draw: self.pending_draw,
            drawn: self.drawn,
            jump_window: self.jump_window,
            lacks: self.lacks.clone(),
            out: self.out.clone(),
            rng_seed: rng.gen(),
        })
    }

    /// A hand for `seat` from the end of the shuffled `pool`: first its cards held since it drew
    /// by choice, from those it is inferred to lack none of, then the ones that may be anything.
    fn deal_hand(&self, seat: usize, pool: &mut Vec<Card>) -> Vec<Card> {
        let count = self.hand_counts[seat];
        let lacks = self.lacks_of(seat);
        let older = count - lacks.free_cards(count);
        let mut hand = take_cards(pool, older, lacks);
        hand.extend(pool.drain(pool.len() - (count - older)..));
        hand.sort_by_key(|c| c.seed_order());
        hand
    }
}

/// Redeals of one seat's hand to fit its recent plays.
const REDEALS: usize = 32;

impl InfoSet {
    fn lacks_of(&self, seat: usize) -> Lacks {
        self.lacks.get(seat).copied().unwrap_or(Lacks::NONE)
    }
}

/// Takes `count` cards from the end of the shuffled `pool`, skipping cards `lacks` rules out
/// while other cards remain.
fn take_cards(pool: &mut Vec<Card>, count: usize, lacks: Lacks) -> Vec<Card> {
    let mut hand = Vec::with_capacity(count + 4);
    let mut i = pool.len();
    while hand.len() < count && i > 0 {
        i -= 1;
        if lacks.allows(pool[i]) {
            hand.push(pool.swap_remove(i));
        }
    }
    // Not enough cards of other kinds: the rest at random (the inference was only likely).
    while hand.len() < count {
        hand.push(pool.pop().expect("the pool holds every hidden card"));
    }
    hand
}

/// Search limits: whichever comes first.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    pub max_iterations: u64,
}

/// How one candidate fared.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Candidate {
    pub action: UnoAction,
    pub visits: u64,
    pub win_rate: f64,
}

/// The chosen move and the statistics behind it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Search {
    pub action: UnoAction,
    pub iterations: u64,
    pub candidates: Vec<Candidate>,
}

/// Plays `game` to its end with `normal` at every seat but `easy_seats`, which play seed 000's
/// tree as they do at the table; returns the winner, if any.
pub fn rollout(game: &mut Uno, events: &mut Vec<UnoEvent>, easy_seats: &[usize]) -> Option<usize> {
    for _ in 0..ROLLOUT_CAP {
        let Some(turn) = game.turn() else {
            return game.result().and_then(|r| match r {
                Outcome::OutOfCards { winner, .. } | Outcome::LastStanding { winner } => {
                    Some(winner)
                }
                Outcome::Aborted => None,
            });
        };
        events.clear();
        // `easy` never jumps in.
        let jumper = game.jump_window().and_then(|_| {
            (0..game.seats())
                .map(|i| (turn + i) % game.seats())
                .find(|&s| game.can_jump_in(s) && !easy_seats.contains(&s))
        });
        let (seat, action) = match jumper {
            Some(s) => (s, normal::jump_in(game, s).expect("can jump in")),
            None if easy_seats.contains(&turn) => (turn, easy::choose(game, turn)),
            None => (turn, normal::choose(game, turn)),
        };
        if game.apply_into(seat, &action, events).is_err() {
            return None;
        }
    }
    None
}

/// Searches from what `info.seat` knows.
///
/// The move `normal` would make is the default. Each round deals the hidden cards once and
/// plays every candidate on its own copy of that deal, [`rollout`] finishing each game: the
/// candidates meet the same hidden hands, deck order and reshuffles (common random numbers),
/// so the difference between two of them on one deal is the move's doing, not the deal's.
/// A candidate replaces the default only when its mean win difference over the default
/// exceeds [`CONFIDENCE`] standard errors: with a few hundred deals a move, picking the
/// highest raw win rate mostly picks noise. Each game played counts as one iteration.
///
/// The search always spends its whole budget, even on a forced move (a lone `draw` or
/// `pass`): how long `hard` thinks must not tell the table whether its hand left it a choice.
pub fn search(info: &InfoSet, limits: Limits, seed: u64) -> Search {
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let unseen = info.unseen();
    let first_deal = info.determinise(&unseen, &mut rng);
    let actions = first_deal.legal_actions(info.seat);
    if actions.is_empty() {
        return Search {
            action: UnoAction::Draw,
            iterations: 0,
            candidates: Vec::new(),
        };
    }
    // `normal` reads only what the seat sees, so any deal gives the same default.
    let default_move = normal::choose(&first_deal, info.seat);
    let default = actions.iter().position(|a| *a == default_move).unwrap_or(0);
    let mut stats = vec![Paired::default(); actions.len()];
    let mut iterations = 0u64;
    let mut events = Vec::with_capacity(16);
    let mut won = vec![false; actions.len()];
    let mut deal = first_deal;
    // No shortcut for a single candidate: see above.
    'rounds: loop {
        for (arm, action) in actions.iter().enumerate() {
            if iterations >= limits.max_iterations
                || (iterations.is_multiple_of(CLOCK_EVERY) && start.elapsed() >= limits.time)
            {
                break 'rounds;
            }
            let mut game = deal.clone();
            events.clear();
            won[arm] = game.apply_into(info.seat, action, &mut events).is_ok()
                && rollout(&mut game, &mut events, &info.easy_seats) == Some(info.seat);
            iterations += 1;
        }
        for (arm, s) in stats.iter_mut().enumerate() {
            s.add(won[arm], won[default]);
        }
        deal = info.determinise(&unseen, &mut rng);
    }
    let best = (0..actions.len())
        .filter(|&arm| stats[arm].beats_default())
        .max_by(|&a, &b| {
            stats[a]
                .mean_gain()
                .total_cmp(&stats[b].mean_gain())
                // Earlier candidates win exact ties.
                .then(b.cmp(&a))
        })
        .unwrap_or(default);
    Search {
        action: actions[best],
        iterations,
        candidates: actions
            .iter()
            .zip(&stats)
            .map(|(&action, s)| Candidate {
                action,
                visits: s.deals,
                win_rate: s.win_rate(),
            })
            .collect(),
    }
}

/// Standard errors by which a candidate must beat the default move (measured: see
/// docs/decisions/0004-uno-hard-reads-easy-bots.md).
const CONFIDENCE: f64 = 1.5;

/// One candidate's results over complete rounds, and its wins less the default's on each.
#[derive(Clone, Copy, Default)]
struct Paired {
    deals: u64,
    wins: u64,
    /// Sum of (this won − the default won) over the deals, each term −1, 0 or 1.
    gain: i64,
    /// Deals on which exactly one of the two won (the sum of the squared terms).
    split: u64,
}

impl Paired {
    fn add(&mut self, won: bool, default_won: bool) {
        self.deals += 1;
        self.wins += u64::from(won);
        let d = i64::from(won) - i64::from(default_won);
        self.gain += d;
        self.split += d.unsigned_abs();
    }

    fn win_rate(&self) -> f64 {
        if self.deals == 0 {
            0.0
        } else {
            self.wins as f64 / self.deals as f64
        }
    }

    fn mean_gain(&self) -> f64 {
        if self.deals == 0 {
            0.0
        } else {
            self.gain as f64 / self.deals as f64
        }
    }

    /// Whether the mean gain is positive by more than [`CONFIDENCE`] standard errors.
    fn beats_default(&self) -> bool {
        if self.deals < 2 || self.gain <= 0 {
            return false;
        }
        let n = self.deals as f64;
        let mean = self.mean_gain();
        let variance = (self.split as f64 / n - mean * mean).max(0.0);
        mean > CONFIDENCE * (variance / n).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::card::full_deck;
    use super::super::super::tests::position;
    use super::super::{decide, normal};
    use super::*;
    use crate::AiLevel;

    fn limits(max_iterations: u64) -> Limits {
        Limits {
            time: Duration::from_secs(600),
            max_iterations,
        }
    }

    /// Two 4-seat deals that differ only in cards seat 0 cannot see: a card of seat 1 swapped
    /// with one deep in the deck, and a card of seat 2 swapped with one of seat 3.
    fn twin_deals() -> (Uno, Uno) {
        let mut deck = full_deck();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        loop {
            deck.shuffle(&mut rng);
            // A wild start card would be buried and shift the deck; keep the test plain, and
            // make both swaps exchange different cards.
            if !deck[28].is_wild() && deck[1] != deck[100] && deck[2] != deck[7] {
                break;
            }
        }
        let mut other = deck.clone();
        other.swap(1, 100);
        other.swap(2, 7); // positions 2 and 7 deal to seats 2 and 3
        let rules = Rules::default();
        (
            Uno::with_deck(4, rules, &deck).unwrap(),
            Uno::with_deck(4, rules, &other).unwrap(),
        )
    }

    #[test]
    fn hidden_cards_change_neither_the_info_set_nor_the_move() {
        let (a, b) = twin_deals();
        assert_ne!(a.hand(1), b.hand(1));
        assert_ne!(a.hand(2), b.hand(2));
        assert_eq!(a.hand(0), b.hand(0));
        let (ia, ib) = (InfoSet::of(&a, 0), InfoSet::of(&b, 0));
        assert_eq!(ia, ib);
        let (sa, sb) = (search(&ia, limits(300), 11), search(&ib, limits(300), 11));
        assert_eq!(sa, sb);
        assert_eq!(sa.iterations, 300);
        let da = decide(&a, 0, AiLevel::Hard, limits(300), 11, &[1, 2, 3]);
        let db = decide(&b, 0, AiLevel::Hard, limits(300), 11, &[1, 2, 3]);
        assert_eq!(da.action, db.action);
        assert_eq!(normal::choose(&a, 0), normal::choose(&b, 0));
        assert!(a.legal_actions(0).contains(&da.action));
    }

    #[test]
    fn inferred_lacks_come_from_public_actions_only() {
        // The same public actions on both deals: every seat draws once. What the table infers
        // from the draws is the same, whatever the hidden cards.
        let (mut a, mut b) = twin_deals();
        for seat in 0..4 {
            a.apply(seat, &UnoAction::Draw).unwrap();
            b.apply(seat, &UnoAction::Draw).unwrap();
        }
        assert_ne!(a.hand(2), b.hand(2));
        let (ia, ib) = (InfoSet::of(&a, 0), InfoSet::of(&b, 0));
        assert!(ia.lacks.iter().all(|l| l.is_known()));
        assert_eq!(ia, ib);
        let (sa, sb) = (search(&ia, limits(200), 4), search(&ib, limits(200), 4));
        assert_eq!(sa, sb);
    }

    #[test]
    fn determinisations_keep_every_public_fact() {
        let (a, _) = twin_deals();
        let info = InfoSet::of(&a, 0);
        let unseen = info.unseen();
        assert_eq!(unseen.len(), 108 - 7 - 1);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..20 {
            let guess = info.determinise(&unseen, &mut rng);
            assert_eq!(InfoSet::of(&guess, 0), info);
            assert_eq!(guess.public_view().hands, a.public_view().hands);
        }
    }

    #[test]
    fn a_seat_out_stays_out_in_every_guess() {
        let (mut a, _) = twin_deals();
        a.forfeit(2, crate::EndReason::TIMEOUT).unwrap();
        let info = InfoSet::of(&a, 0);
        let unseen = info.unseen();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..20 {
            let guess = info.determinise(&unseen, &mut rng);
            assert_eq!(InfoSet::of(&guess, 0), info);
            assert!(guess.is_out(2) && guess.hand_len(2) == 0);
            assert_eq!(guess.next_seat(1), 3);
        }
        let decision = decide(&a, 0, AiLevel::Hard, limits(200), 5, &[]);
        assert!(a.legal_actions(0).contains(&decision.action));
    }

    #[test]
    fn a_forced_move_spends_the_whole_budget_too() {
        // Seat 0 holds nothing that fits: drawing is its only move.
        let forced = position(&["B5 G7", "Y1 Y2", "G1 G2"], "R3", 0);
        assert_eq!(forced.legal_actions(0), vec![UnoAction::Draw]);
        let chosen = position(&["R5 G7", "Y1 Y2", "G1 G2"], "R3", 0);
        assert!(chosen.legal_actions(0).len() > 1);
        for game in [&forced, &chosen] {
            let found = search(&InfoSet::of(game, 0), limits(40), 5);
            assert_eq!(found.iterations, 40, "the same games played, forced or not");
        }
        let budget = Duration::from_millis(25);
        let timed = Limits {
            time: budget,
            max_iterations: u64::MAX,
        };
        for game in [&forced, &chosen] {
            let started = std::time::Instant::now();
            let decision = decide(game, 0, AiLevel::Hard, timed, 5, &[]);
            assert!(started.elapsed() >= budget, "{:?}", decision.analysis);
        }
        let forced_move = decide(&forced, 0, AiLevel::Hard, timed, 5, &[]);
        assert_eq!(forced_move.action, UnoAction::Draw);
    }

    #[test]
    fn hard_takes_a_win_in_one() {
        let game = position(&["R5", "Y1 Y2", "G1 G2"], "R3", 0);
        let found = search(&InfoSet::of(&game, 0), limits(64), 5);
        assert_eq!(
            found.action,
            UnoAction::Play {
                card: "R5".parse().unwrap(),
                color: None
            }
        );
        let win = &found.candidates[0];
        assert_eq!(win.win_rate, 1.0);
    }

    #[test]
    fn without_enough_deals_normals_move_stands() {
        // Seven candidates (R5, RS, the wild in four colours, draw): one round of
        // games is no evidence, so the default stands whatever that round said.
        let game = position(&["R5 RS B5 W G1 G2", "Y1 Y2 Y3", "G3 G4 G5"], "R3", 0);
        let info = InfoSet::of(&game, 0);
        let candidates = game.legal_actions(0).len() as u64;
        for seed in 0..8 {
            let found = search(&info, limits(candidates), seed);
            assert_eq!(found.iterations, candidates);
            assert_eq!(found.action, normal::choose(&game, 0), "seed {seed}");
        }
    }

    #[test]
    fn a_candidate_replaces_the_default_only_by_a_clear_margin() {
        let record = |better: u64, worse: u64, deals: u64| {
            let mut p = Paired::default();
            for i in 0..deals {
                p.add(i < better, i >= better && i < better + worse);
            }
            p
        };
        // 20 deals won where the default lost, 10 the other way, over 100: mean gain 0.1,
        // standard error 0.054.
        assert!(record(20, 10, 100).beats_default());
        // 12 against 10: within the noise.
        assert!(!record(12, 10, 100).beats_default());
        assert!(!record(1, 0, 1).beats_default(), "one deal is no evidence");
        assert!(!record(0, 5, 100).beats_default());
        let p = record(20, 10, 100);
        assert_eq!((p.deals, p.wins, p.gain, p.split), (100, 20, 10, 30));
    }

    #[test]
    fn a_seat_known_to_lack_a_colour_is_dealt_none_of_it() {
        let (a, _) = twin_deals();
        let mut info = InfoSet::of(&a, 0);
        info.lacks[2].drew_by_choice("R5".parse().unwrap(), super::super::super::card::Color::Red);
        let unseen = info.unseen();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..20 {
            let guess = info.determinise(&unseen, &mut rng);
            assert!(guess
                .hand(2)
                .iter()
                .all(|c| c.color() != Some(super::super::super::card::Color::Red)));
            assert_eq!(guess.hand_len(2), 7);
            assert_eq!(guess.deck_count(), info.deck_count);
        }
        // Two cards taken since may be anything: at most two red, wild or 5, and sometimes some.
        info.lacks[2].took(2);
        let mut ruled_out_seen = 0;
        for _ in 0..50 {
            let guess = info.determinise(&unseen, &mut rng);
            let ruled_out = guess
                .hand(2)
                .iter()
                .filter(|&&c| !info.lacks[2].allows(c))
                .count();
            assert!(ruled_out <= 2);
            ruled_out_seen += ruled_out;
        }
        assert!(ruled_out_seen > 0);
    }

    #[test]
    fn hands_dealt_to_easy_seats_fit_their_recent_plays() {
        // Seat 0 draws while the three `easy` seats play their tree for a few rounds.
        let (mut game, _) = twin_deals();
        for _ in 0..12 {
            let turn = game.turn().unwrap();
            let action = if turn == 0 {
                UnoAction::Draw
            } else {
                easy::choose(&game, turn)
            };
            game.apply(turn, &action).unwrap();
        }
        let recorded = |s: usize| {
            game.recent_plays()
                .of(s)
                .filter(|p| p.table.is_some())
                .count()
        };
        assert!(
            (1..4).map(recorded).sum::<usize>() >= 3,
            "the easy seats played"
        );
        let mut then = Vec::new();
        let fitting = |info: &InfoSet, rng: &mut ChaCha8Rng, then: &mut Vec<Card>| {
            let unseen = info.unseen();
            let mut fits = 0;
            for _ in 0..40 {
                let guess = info.determinise(&unseen, rng);
                assert_eq!(InfoSet::of(&guess, 0).hand_counts, info.hand_counts);
                fits += (1..4)
                    .filter(|&s| misfits(guess.hand(s), game.recent_plays().of(s), then) == 0)
                    .count();
            }
            fits
        };
        // The true hands fit: the deals can.
        for s in 1..4 {
            assert_eq!(
                misfits(game.hand(s), game.recent_plays().of(s), &mut then),
                0
            );
        }
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let blind = fitting(&InfoSet::of(&game, 0), &mut rng, &mut then);
        let reading = fitting(
            &InfoSet::of(&game, 0).with_easy_seats(&[1, 2, 3]),
            &mut rng,
            &mut then,
        );
        assert!(reading >= 110, "{reading} of 120 hands fit");
        assert!(
            reading > blind,
            "{reading} against {blind} without reading the plays"
        );
    }
}
