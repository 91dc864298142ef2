//! UNO as a [`TurnGame`]: the engine's table, whether the server plays AI seats by itself, and
//! whether the creator asked to start by hand. Nothing hidden (hands, deck order, the seed) is in
//! a view, an event or a log entry: the engine's views and events are built that way, and the
//! state that holds them is only stored.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ai::{self, Limits};
use super::{
    Card, DeckOrigin, DeckSource, Outcome, Rules, Uno, UnoAction, UnoError, UnoEvent, UnoView,
};
use crate::clock::{Clock, TimeControl};
use crate::seed::Seed;
use crate::{
    AiAnalysis, AiBudget, AiCandidate, AiChoice, AiLevel, EndReason, Example, GameResult,
    PlayerSpec, RuleError, Seat, SeatKind, TurnGame,
};

/// UNO's reason for an ending: a seat played its last card.
pub const OUT_OF_CARDS: EndReason = EndReason::named("out_of_cards");

/// Create body for an UNO game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"players": [{"name": "alice"}, {"ai": "normal"}, {"ai": "hard"}, {"open": true}], "rules": {"max_hand": 14, "draw_then_play": true, "stacking": true, "jump_in": true}}))]
pub struct UnoOptions {
    /// 2 to 10 seats; seat 0 acts first and play goes clockwise (to the next higher seat).
    /// `{"open": true}` seats are taken later with `join`; the cards are dealt when the last
    /// one is taken (or on `start`).
    #[schema(min_items = 2, max_items = 10)]
    pub players: Vec<PlayerSpec>,
    /// The table's options (all off by default: seed 000's plain game).
    #[serde(default)]
    pub rules: Rules,
    /// Shuffles the deck reproducibly: a u64, as a JSON number or a decimal string (numbers
    /// above 2^53 lose precision in many JSON clients). Never shown again. Not with `deck`.
    pub seed: Option<Seed>,
    /// An explicit deck instead of a shuffle: the 108 cards, top first (replays, puzzles,
    /// tests). 422 unless it is exactly the 108-card deck. Not with `seed`.
    #[schema(min_items = 108, max_items = 108)]
    pub deck: Option<Vec<Card>>,
    /// Whether the server plays the AI seats after each human action (default true).
    pub auto_ai: Option<bool>,
    /// `false`: wait for `POST …/start` even when every seat is taken (default true).
    pub start: Option<bool>,
    /// How many seats one name may take with `join` (1 to 10, default 1).
    #[schema(minimum = 1, maximum = 10)]
    pub seats_per_name: Option<usize>,
    /// A time control the server enforces (default: none). The seat whose turn it is is charged;
    /// a jump-in is charged to nobody.
    pub clock: Option<TimeControl>,
    /// A test table: `seed` or `deck` may fix the deal even with open seats, provided every open
    /// seat is by invitation (`{"open": "invite"}`) or reserved; the state's `deck` shows the
    /// invited guests that the deal is fixed (default false).
    pub test: Option<bool>,
}

/// An UNO table as the server stores it. The engine state holds every hand and the deck order;
/// only [`TurnGame::view`] leaves the server.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnoGame {
    table: Uno,
    auto_ai: bool,
    /// Created with `"start": false`: deal only on `POST …/start`.
    start_by_hand: bool,
    /// Seats held by `easy` bots when the game started (public: the resource shows each
    /// seat's kind and level); `hard` reads their plays as seed 000's tree's.
    #[serde(default)]
    easy_seats: Vec<usize>,
    /// Seats that have made a move of their own (a play, draw, pass or jump-in).
    #[serde(default)]
    moved: Vec<bool>,
    /// Where the deck order came from (public). Games stored before it say `random`.
    #[serde(default)]
    deck: DeckOrigin,
    /// How many seats one name may take with `join`.
    #[serde(default = "one")]
    seats_per_name: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<Clock>,
}

fn one() -> usize {
    1
}

/// The seats `seats` shows as `easy` bots.
fn easy_seats(seats: &[SeatKind]) -> Vec<usize> {
    (0..seats.len())
        .filter(|&s| seats[s] == SeatKind::Ai(AiLevel::Easy))
        .collect()
}

/// An action in short text, for the AI's analysis: `R5`, `W4 blue`, `draw`, `pass`, `jump_in R5`.
fn notation(action: &UnoAction) -> String {
    match action {
        UnoAction::Play { card, color: None } => card.to_string(),
        UnoAction::Play {
            card,
            color: Some(color),
        } => format!(
            "{card} {}",
            serde_json::to_value(color)
                .ok()
                .and_then(|c| c.as_str().map(str::to_owned))
                .unwrap_or_default()
        ),
        UnoAction::Draw => "draw".into(),
        UnoAction::Pass => "pass".into(),
        UnoAction::JumpIn { card } => format!("jump_in {card}"),
    }
}

/// The engine's report in the shared vocabulary.
fn analysis_of(level: AiLevel, decision: &ai::Decision) -> AiAnalysis {
    let analysis = &decision.analysis;
    AiAnalysis {
        level,
        principal_variation: vec![notation(&decision.action)],
        playouts: (analysis.iterations > 0).then_some(analysis.iterations),
        win_rate: analysis.candidates.first().map(|c| c.win_rate),
        elapsed_ms: analysis.elapsed_ms,
        candidates: analysis
            .candidates
            .iter()
            .map(|c| AiCandidate {
                play: notation(&c.action),
                visits: c.visits,
                win_rate: Some(c.win_rate),
            })
            .collect(),
        ..AiAnalysis::default()
    }
}

impl UnoGame {
    pub fn table(&self) -> &Uno {
        &self.table
    }

    /// `events` with a closing `GameOver` when they ended the game.
    fn with_game_over(&self, mut events: Vec<UnoEvent>) -> Vec<UnoEvent> {
        events.extend(self.result().map(|result| UnoEvent::GameOver { result }));
        events
    }

    /// Why the engine said no, as the road's error. A jump-in that lost a race is a conflict
    /// (409): the client acted on a table that has moved on. See [`UnoGame::too_late`].
    fn refusal(&self, seat: Seat, action: &UnoAction, err: UnoError) -> RuleError {
        if let (UnoError::Illegal(_), UnoAction::JumpIn { card }) = (&err, action) {
            if let Some(why) = self.too_late(seat, *card) {
                return RuleError::Conflict(why);
            }
        }
        engine_error(err)
    }

    /// Why a refused jump-in with `card` looks like one that came too late rather than a wrong
    /// one: `seat` itself has just put that card on top (the same request twice), or the card
    /// was played a moment ago and other cards have covered it since. (A closed window is the
    /// engine's own `NoJumpWindow`.)
    fn too_late(&self, seat: Seat, card: Card) -> Option<String> {
        let window = self.table.jump_window()?;
        if window.card == card {
            return (window.seat == seat && !self.table.hand(seat).contains(&card)).then(|| {
                format!("you have just played {card} yourself; this jump-in came after it")
            });
        }
        let discard = self.table.discard();
        let covered = &discard[discard.len().saturating_sub(1 + RACE_DEPTH)..discard.len() - 1];
        covered.iter().any(|p| p.card == card).then(|| {
            format!(
                "{card} is no longer the card on top ({} was played since): the jump-in came too late",
                window.card
            )
        })
    }
}

/// How many cards below the top a late jump-in may aim at and still count as a lost race.
const RACE_DEPTH: usize = 4;

fn engine_error(err: UnoError) -> RuleError {
    match err {
        UnoError::NotYourTurn { seat, expected } => RuleError::NotYourTurn { seat, expected },
        UnoError::GameOver => RuleError::GameOver,
        UnoError::NotStarted => RuleError::NotStarted,
        err @ (UnoError::AlreadyStarted | UnoError::NoJumpWindow | UnoError::Out(_)) => {
            RuleError::Conflict(err.to_string())
        }
        UnoError::Illegal(msg) => RuleError::Illegal(msg),
        UnoError::Invalid(msg) => RuleError::InvalidOptions(msg),
    }
}

impl TurnGame for UnoGame {
    const NAME: &'static str = "uno";
    const DESCRIPTION: &'static str =
        "UNO (seeds 000 and 002) for 2 to 10 seats: rooms, shouts, private hands, three AIs";
    const MESSAGES: bool = true;
    const PRIVATE_VIEWS: bool = true;
    type Options = UnoOptions;
    type Move = UnoAction;
    type View = UnoView;
    type Event = UnoEvent;

    /// The deck in its standard order deals seat 0 R0 R1 … R6 and seat 1 R1 … R7, and turns R7:
    /// seat 0 plays R0, seat 1 answers R1.
    fn example() -> Example {
        let deck: Vec<String> = super::full_deck().iter().map(ToString::to_string).collect();
        Example {
            create: serde_json::json!({"players": [{"name": "alice"}, {"name": "bob"}], "deck": deck}),
            first: serde_json::json!({"action": "play", "card": "R0"}),
            second: serde_json::json!({"action": "play", "card": "R1"}),
            resign: None,
        }
    }

    fn seat_range() -> RangeInclusive<usize> {
        super::MIN_SEATS..=super::MAX_SEATS
    }

    fn players(options: &UnoOptions) -> &[PlayerSpec] {
        &options.players
    }

    const FIXED_DEAL_OPTIONS: &'static [&'static str] = &["deck", "seed"];

    fn fixed_deal(options: &UnoOptions) -> Option<&'static str> {
        if options.deck.is_some() {
            Some("deck")
        } else if options.seed.is_some() {
            Some("seed")
        } else {
            None
        }
    }

    fn test_table(options: &UnoOptions) -> bool {
        options.test == Some(true)
    }

    fn seats_per_name(&self) -> usize {
        self.seats_per_name
    }

    fn waits_for_start(&self) -> bool {
        self.start_by_hand && !self.table.is_started()
    }

    fn auto_ai(&self) -> bool {
        self.auto_ai
    }

    fn new(options: &UnoOptions, seats: &[SeatKind], seed: u64) -> Result<Self, RuleError> {
        let source = match (&options.deck, options.seed.map(|s| s.0)) {
            (Some(_), Some(_)) => {
                return Err(RuleError::InvalidOptions(
                    "give either a seed or a deck, not both".into(),
                ))
            }
            (Some(deck), None) => DeckSource::Cards(deck.clone()),
            (None, given) => DeckSource::Seed(given.unwrap_or(seed)),
        };
        let seats_per_name = options.seats_per_name.unwrap_or(1);
        if !(1..=10).contains(&seats_per_name) {
            return Err(RuleError::InvalidOptions(format!(
                "seats_per_name is 1 to 10, not {seats_per_name}"
            )));
        }
        let deck = match (&options.deck, options.seed) {
            (Some(_), _) => DeckOrigin::Fixed,
            (None, Some(_)) => DeckOrigin::Seeded,
            (None, None) => DeckOrigin::Random,
        };
        let table = Uno::new_room(seats.len(), options.rules, source).map_err(engine_error)?;
        Ok(UnoGame {
            table,
            auto_ai: options.auto_ai.unwrap_or(true),
            start_by_hand: options.start == Some(false),
            easy_seats: easy_seats(seats),
            moved: vec![false; seats.len()],
            deck,
            seats_per_name,
            clock: options
                .clock
                .map(|control| Clock::new(control, seats.len(), Self::BYOYOMI))
                .transpose()?,
        })
    }

    fn start(&mut self, seats: &[SeatKind]) -> Result<Vec<UnoEvent>, RuleError> {
        let events = self.table.start().map_err(engine_error)?;
        self.easy_seats = easy_seats(seats);
        Ok(events)
    }

    fn started(&self) -> bool {
        self.table.is_started()
    }

    fn turn(&self) -> Option<Seat> {
        self.table.turn()
    }

    /// The seat to act, or any seat jumping in: the engine says whether that jump-in stands
    /// (so a lost race gets its own answer, not "not your turn").
    fn may_act(&self, seat: Seat, mv: &UnoAction) -> bool {
        matches!(mv, UnoAction::JumpIn { .. }) || self.table.turn() == Some(seat)
    }

    /// At a table with a human still in the game, every card that somebody could jump on by
    /// public information ([`Uno::jump_in_possible`]: an identical copy is not on the discard
    /// pile) stops the AI seats until a human jumps in or an `ai-move` goes on. Who holds the
    /// copy never counts: a stop only where a human holds it would tell every watcher so.
    ///
    /// [`Uno::jump_in_possible`]: super::Uno::jump_in_possible
    fn humans_may_interject(&self, seats: &[SeatKind]) -> bool {
        let human_in = seats
            .iter()
            .enumerate()
            .any(|(s, &kind)| kind == SeatKind::Human && !self.table.is_out(s));
        human_in && self.table.jump_in_possible()
    }

    fn apply(&mut self, seat: Seat, mv: &UnoAction) -> Result<Vec<UnoEvent>, RuleError> {
        let events = self
            .table
            .apply(seat, mv)
            .map_err(|e| self.refusal(seat, mv, e))?;
        if self.moved.len() <= seat {
            self.moved.resize(seat + 1, false);
        }
        self.moved[seat] = true;
        Ok(self.with_game_over(events))
    }

    fn has_moved(&self, seat: Seat) -> bool {
        self.moved.get(seat).copied().unwrap_or(false)
    }

    fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.clock.as_mut()
    }

    /// The engine's forfeit ([`Uno::forfeit`]): the seat is out, and the game ends when one
    /// seat is left in.
    fn forfeit(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<UnoEvent>, RuleError> {
        let events = self.table.forfeit(seat, reason).map_err(engine_error)?;
        Ok(self.with_game_over(events))
    }

    fn abort(&mut self) -> Vec<UnoEvent> {
        let events = self.table.abort();
        self.with_game_over(events)
    }

    fn result(&self) -> Option<GameResult> {
        self.table.result().map(|outcome| match outcome {
            Outcome::OutOfCards { winner, points } => GameResult {
                winners: vec![winner],
                reason: OUT_OF_CARDS,
                summary: format!("seat {winner} played its last card and scores {points} points"),
            },
            Outcome::LastStanding { winner } => {
                let last = self
                    .table
                    .out()
                    .last()
                    .expect("the last seat out ended the game");
                if self.table.seats() == 2 {
                    last.result()
                } else {
                    GameResult {
                        winners: vec![winner],
                        reason: last.reason.clone(),
                        summary: format!(
                            "seat {} is out ({}); seat {winner} is the last seat standing",
                            last.seat,
                            last.reason.as_str()
                        ),
                    }
                }
            }
            Outcome::Aborted => GameResult::aborted(),
        })
    }

    fn view(&self, seat: Option<Seat>) -> UnoView {
        let mut view = match seat {
            Some(seat) => self.table.seat_view(seat),
            None => self.table.public_view(),
        };
        view.deck = self.deck;
        view
    }

    fn choose_move(
        &self,
        seat: Seat,
        level: AiLevel,
        budget: AiBudget,
    ) -> Result<AiChoice<UnoAction>, RuleError> {
        match self.table.turn() {
            None if self.table.is_started() => return Err(RuleError::GameOver),
            None => return Err(RuleError::NotStarted),
            Some(expected) if expected != seat => {
                return Err(RuleError::NotYourTurn { seat, expected })
            }
            Some(_) => {}
        }
        let decision = ai::decide(
            &self.table,
            seat,
            level,
            Limits {
                time: budget.time,
                max_iterations: ai::DEFAULT_MAX_ITERATIONS,
            },
            budget.seed,
            &self.easy_seats,
        );
        Ok(AiChoice {
            chosen: decision.action,
            analysis: Some(analysis_of(level, &decision)),
        })
    }

    fn message(&mut self, from: Seat, to: Seat, text: &str) -> Result<Vec<UnoEvent>, RuleError> {
        self.table.shout(from, to, text).map_err(engine_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(json: serde_json::Value) -> UnoOptions {
        serde_json::from_value(json).unwrap()
    }

    fn humans(n: usize) -> Vec<SeatKind> {
        vec![SeatKind::Human; n]
    }

    fn codes(list: &str) -> Vec<Card> {
        list.split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    #[test]
    fn a_seed_is_a_number_or_a_decimal_string() {
        let players = serde_json::json!([{"name": "a"}, {"name": "b"}]);
        let text = options(serde_json::json!({"players": players, "seed": "18446744073709551615"}));
        assert_eq!(text.seed, Some(Seed(u64::MAX)));
        let number = options(serde_json::json!({"players": players, "seed": 7}));
        assert_eq!(number.seed, Some(Seed(7)));
        let bad = serde_json::from_value::<UnoOptions>(
            serde_json::json!({"players": players, "seed": "-1"}),
        );
        assert!(bad
            .unwrap_err()
            .to_string()
            .contains("a seed is a whole number"));
        // The road's own seed (the last argument) only counts when the options give none.
        let first_hand = |road_seed: u64| {
            let mut game = UnoGame::new(&number, &humans(2), road_seed).unwrap();
            game.start(&humans(2)).unwrap();
            game.table().hand(0).to_vec()
        };
        assert_eq!(first_hand(1), first_hand(2), "a given seed wins");
    }

    #[test]
    fn seed_and_deck_exclude_each_other_and_start_can_wait() {
        let deck: Vec<String> = super::super::full_deck()
            .iter()
            .map(Card::to_string)
            .collect();
        let both = options(serde_json::json!({
            "players": [{"name": "a"}, {"name": "b"}], "seed": 1, "deck": deck
        }));
        assert!(matches!(
            UnoGame::new(&both, &humans(2), 0),
            Err(RuleError::InvalidOptions(_))
        ));
        let waiting = options(serde_json::json!({
            "players": [{"name": "a"}, {"name": "b"}], "start": false, "auto_ai": false
        }));
        let mut game = UnoGame::new(&waiting, &humans(2), 0).unwrap();
        assert!(game.waits_for_start() && !game.started() && !game.auto_ai());
        assert_eq!(game.turn(), None);
        game.start(&humans(2)).unwrap();
        assert!(!game.waits_for_start() && game.started());
        assert!(matches!(
            game.start(&humans(2)),
            Err(RuleError::Conflict(_))
        ));
    }

    /// Three humans with `jump_in`, dealt these hands (seat 0 first), R3 turned.
    fn jump_table(hands: [&str; 3]) -> UnoGame {
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| codes(h)).collect();
        let mut top = Vec::new();
        for round in 0..7 {
            for hand in &hands {
                top.push(hand[round]);
            }
        }
        top.push("R3".parse().unwrap());
        let mut rest = super::super::full_deck();
        for card in &top {
            let at = rest.iter().position(|c| c == card).unwrap();
            rest.remove(at);
        }
        top.extend(rest);
        let deck: Vec<String> = top.iter().map(Card::to_string).collect();
        let body = serde_json::json!({
            "players": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
            "rules": {"jump_in": true}, "deck": deck
        });
        let mut game = UnoGame::new(&options(body), &humans(3), 0).unwrap();
        game.start(&humans(3)).unwrap();
        game
    }

    fn act(code: &str) -> UnoAction {
        UnoAction::Play {
            card: code.parse().unwrap(),
            color: None,
        }
    }

    fn jump(code: &str) -> UnoAction {
        UnoAction::JumpIn {
            card: code.parse().unwrap(),
        }
    }

    const HANDS: [&str; 3] = [
        "R7 B1 B2 B3 B4 B5 B6",
        "G7 G2 G3 G4 G5 G6 G1",
        "R7 Y1 Y2 Y3 Y4 Y5 Y6",
    ];

    #[test]
    fn late_jump_ins_are_conflicts_and_stops_follow_public_counts() {
        let mut game = jump_table(HANDS);
        assert!(game.may_act(2, &jump("R7")), "the engine judges jump-ins");
        assert!(!game.may_act(1, &UnoAction::Draw));
        game.apply(0, &act("R7")).unwrap();
        let ais = [
            SeatKind::Human,
            SeatKind::Human,
            SeatKind::Ai(AiLevel::Easy),
        ];
        let all_ais = [SeatKind::Ai(AiLevel::Normal); 3];
        // The other R7 is not on the pile: it may be anywhere, so the server stops whoever
        // holds it (here an AI seat), and never at a table without a human.
        assert!(game.humans_may_interject(&humans(3)));
        assert!(
            game.humans_may_interject(&ais),
            "an AI holds R7: a stop all the same"
        );
        assert!(!game.humans_may_interject(&all_ais));
        assert!(matches!(
            game.apply(1, &jump("R7")),
            Err(RuleError::Illegal(_))
        ));
        game.apply(2, &jump("R7")).unwrap();
        // Both R7s are on the pile: nobody can jump on this one, and everybody can tell.
        assert!(game.table().jump_window().is_some());
        assert!(!game.humans_may_interject(&humans(3)));
        // The same jump-in twice: the second came after the first.
        assert!(matches!(
            game.apply(2, &jump("R7")),
            Err(RuleError::Conflict(_))
        ));
        game.apply(0, &UnoAction::Draw).unwrap();
        assert!(matches!(
            game.apply(2, &jump("R7")),
            Err(RuleError::Conflict(_))
        ));

        // A jump-in on a card the next seat has already covered. G7's twin is in the deck,
        // held by nobody: the server stops for it as it would for a held one.
        let mut game = jump_table(HANDS);
        game.apply(0, &act("R7")).unwrap();
        game.apply(1, &act("G7")).unwrap();
        assert!(game.table().jump_in_seats().next().is_none());
        assert!(game.humans_may_interject(&humans(3)));
        assert!(matches!(
            game.apply(2, &jump("R7")),
            Err(RuleError::Conflict(_))
        ));
        assert!(matches!(
            game.apply(2, &jump("Y1")),
            Err(RuleError::Illegal(_))
        ));
    }

    #[test]
    fn a_two_seat_forfeit_ends_the_game_for_the_other_seat() {
        let players = serde_json::json!([{"name": "a"}, {"name": "b"}]);
        for (seat, reason) in [(0, EndReason::TIMEOUT), (1, EndReason::ABANDONED)] {
            let created = options(serde_json::json!({"players": players}));
            let mut game = UnoGame::new(&created, &humans(2), 3).unwrap();
            game.start(&humans(2)).unwrap();
            let result = crate::Forfeit {
                seat,
                reason: reason.clone(),
            }
            .result();
            assert_eq!(result.winners, [1 - seat]);
            let events = game.forfeit(seat, reason.clone()).unwrap();
            assert_eq!(
                events,
                [
                    UnoEvent::SeatOut { seat, reason },
                    UnoEvent::GameOver {
                        result: result.clone()
                    }
                ]
            );
            assert_eq!(game.result(), Some(result));
            assert_eq!(game.turn(), None);
            assert_eq!(
                game.forfeit(1 - seat, EndReason::TIMEOUT),
                Err(RuleError::GameOver)
            );
            if seat == 0 {
                assert_eq!(
                    game.result().unwrap().summary,
                    "seat 0 ran out of time; seat 1 wins"
                );
            }
        }
        let waiting = options(serde_json::json!({"players": players, "start": false}));
        let mut game = UnoGame::new(&waiting, &humans(2), 0).unwrap();
        assert_eq!(
            game.forfeit(0, EndReason::TIMEOUT),
            Err(RuleError::NotStarted)
        );
    }

    #[test]
    fn with_three_seats_play_goes_on_without_the_seat_out_until_one_is_left() {
        let mut game = jump_table([
            "R7 B1 B2 B3 B4 B5 B6",
            "R5 G2 G3 G4 G5 G6 G1",
            "R8 Y1 Y2 Y3 Y4 Y5 Y6",
        ]);
        let events = game.forfeit(0, EndReason::TIMEOUT).unwrap();
        assert_eq!(
            events,
            [UnoEvent::SeatOut {
                seat: 0,
                reason: EndReason::TIMEOUT
            }]
        );
        assert_eq!((game.result(), game.turn()), (None, Some(1)));
        let out = |result: Result<Vec<UnoEvent>, RuleError>| matches!(result, Err(RuleError::Conflict(m)) if m == "seat 0 is out of the game");
        assert!(out(game.apply(0, &UnoAction::Draw)));
        assert!(out(game.forfeit(0, EndReason::ABANDONED)));
        game.apply(1, &act("R5")).unwrap();
        assert!(out(game.apply(0, &jump("R5"))));
        // The jump-in chance stops the AI seats only for a human still in.
        let kinds = |last| [SeatKind::Human, SeatKind::Ai(AiLevel::Normal), last];
        assert!(!game.humans_may_interject(&kinds(SeatKind::Ai(AiLevel::Hard))));
        assert!(game.humans_may_interject(&kinds(SeatKind::Human)));

        let events = game.forfeit(2, EndReason::TIMEOUT).unwrap();
        let result = GameResult {
            winners: vec![1],
            reason: EndReason::TIMEOUT,
            summary: "seat 2 is out (timeout); seat 1 is the last seat standing".into(),
        };
        assert_eq!(
            events,
            [
                UnoEvent::SeatOut {
                    seat: 2,
                    reason: EndReason::TIMEOUT
                },
                UnoEvent::GameOver {
                    result: result.clone()
                }
            ]
        );
        assert_eq!(game.result(), Some(result));
        let view = game.view(None);
        assert_eq!(
            (view.status, view.winner, view.out),
            ("finished", Some(1), vec![0, 2])
        );
        assert_eq!(game.apply(1, &act("G2")), Err(RuleError::GameOver));
    }

    #[test]
    fn the_easy_bots_are_the_seats_shown_as_easy_when_the_cards_are_dealt() {
        let players = serde_json::json!([{"name": "a"}, {"ai": "easy"}, {"open": true}]);
        let created = options(serde_json::json!({"players": players, "seed": 3}));
        let mut seats = vec![SeatKind::Human, SeatKind::Ai(AiLevel::Easy), SeatKind::Open];
        let mut game = UnoGame::new(&created, &seats, 1).unwrap();
        assert_eq!(game.easy_seats, [1]);
        // The open seat is taken by another `easy` bot before the deal.
        seats[2] = SeatKind::Ai(AiLevel::Easy);
        game.start(&seats).unwrap();
        assert_eq!(game.easy_seats, [1, 2]);
        let hard = vec![
            SeatKind::Human,
            SeatKind::Ai(AiLevel::Hard),
            SeatKind::Human,
        ];
        assert!(UnoGame::new(&created, &hard, 1)
            .unwrap()
            .easy_seats
            .is_empty());
        // A game stored before the field existed loads with none.
        let mut stored = serde_json::to_value(&game).unwrap();
        stored.as_object_mut().unwrap().remove("easy_seats");
        let loaded: UnoGame = serde_json::from_value(stored).unwrap();
        assert!(loaded.easy_seats.is_empty());
    }
}
