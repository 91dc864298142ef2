//! Gomoku as a [`TurnGame`]: seat 0 is black, seat 1 white; a seat may also resign.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::ToSchema;

use super::{ai, Gomoku, GomokuError, Point, Rule, Stone};
use crate::clock::{Clock, TimeControl};
use crate::proposal::DrawOffer;
use crate::table::{table_events, Table};
use crate::takeback::{Takeback, TakebackAction, TakebackProposal, TakebackRule};
use crate::{
    AiAnalysis, AiBudget, AiChoice, AiLevel, AiRatings, EndReason, Example, GameResult, PlayerSpec,
    RuleError, Seat, SeatKind, TurnGame,
};

/// Gomoku's own reason for an ending.
pub const FIVE_IN_ROW: EndReason = EndReason::named("five_in_row");

/// Create body for a Gomoku game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"size": 15, "rule": "freestyle", "players": [{"name": "alice"}, {"ai": "hard"}]}))]
pub struct GomokuOptions {
    /// Board size, 9..=19 (default 15; the seed's board was 13).
    #[schema(minimum = 9, maximum = 19, example = 15)]
    pub size: Option<i64>,
    /// `freestyle` (five or more wins, default), `standard` (exactly five) or `renju` (black
    /// must make exactly five and may not play an overline, a double four or a double three;
    /// white wins with five or more).
    pub rule: Option<Rule>,
    /// Who may undo: `consent` (default: between humans the other seat agrees), `any`, `off`.
    pub takeback: Option<TakebackRule>,
    /// Whether the server plays the AI seats by itself after each human change, in the same
    /// request (default false: an AI seat moves on `ai-move`).
    pub auto_ai: Option<bool>,
    /// `false`: an unrated game, which moves no Glicko-2 rating and allows take-backs and the
    /// AI's hints and previews (default: rated when every human seat is a registered player's).
    pub rated: Option<bool>,
    /// A time control the server enforces (default: none).
    pub clock: Option<TimeControl>,
    /// Two players: seat 0 is black and moves first.
    #[schema(min_items = 2, max_items = 2)]
    pub players: Vec<PlayerSpec>,
}

/// What a seat plays: a point such as `h8`, or `resign`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GomokuPlay {
    Place(Point),
    Resign,
}

impl FromStr for GomokuPlay {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s.eq_ignore_ascii_case("resign") {
            return Ok(GomokuPlay::Resign);
        }
        s.parse::<Point>()
            .map(GomokuPlay::Place)
            .map_err(|e| e.to_string())
    }
}

impl fmt::Display for GomokuPlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GomokuPlay::Place(p) => p.fmt(f),
            GomokuPlay::Resign => f.write_str("resign"),
        }
    }
}

impl Serialize for GomokuPlay {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for GomokuPlay {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Move body: `{"move": "h8"}` (column letter from `a`, `i` included; row from 1 at the bottom;
/// case-insensitive) or `{"move": "resign"}`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"move": "h8"}))]
pub struct GomokuMove {
    #[serde(rename = "move")]
    #[schema(value_type = String, example = "h8", pattern = "^([a-sA-S](1[0-9]|[1-9])|[Rr][Ee][Ss][Ii][Gg][Nn])$")]
    pub play: GomokuPlay,
}

/// A Gomoku game: the board, the table around it and, if it came to that, who resigned.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GomokuGame {
    #[serde(default)]
    resigned: Option<Seat>,
    #[serde(flatten)]
    table: Table,
    board: Gomoku,
}

/// A stone's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = GomokuColor)]
pub enum Color {
    Black,
    White,
}

/// The `state` of a Gomoku game. `board[0]` is the top row (row `size`), `board[size-1]` row 1.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"size": 15, "rule": "freestyle", "board": ["...............", "..............."], "moves": ["h8"], "next": "white", "winning_line": null}))]
pub struct GomokuView {
    pub size: u8,
    pub rule: Rule,
    /// Rows from the top: `X` black, `O` white, `.` empty.
    pub board: Vec<String>,
    /// Every move so far, in order.
    pub moves: Vec<String>,
    pub next: Color,
    /// The five (or more) stones that won, once somebody has.
    pub winning_line: Option<Vec<String>>,
    /// Who may undo, and a proposal waiting for the other seat.
    pub takeback: Takeback,
    /// A draw one seat offered, waiting for the other seat (who accepts by offering too); left
    /// out while none waits, so views stored or documented before draw offers stay the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!({"by": 0}))]
    pub draw_offer: Option<DrawOffer>,
    /// Under `renju`, while black is to move: the points black may not play now (overline,
    /// double four, double three), sorted by column then row, so a client can mark them. Left
    /// out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(["g9", "h8"]))]
    pub forbidden: Option<Vec<String>>,
}

/// What a Gomoku change caused.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GomokuEvent {
    /// A stone was placed.
    Stone {
        seat: usize,
        color: Color,
        at: String,
    },
    Resign {
        seat: usize,
    },
    /// Moves were taken back, last first.
    Undo {
        taken_back: Vec<String>,
    },
    /// A seat asked to take back; the other seat accepts by asking the same.
    TakebackProposed {
        proposal: TakebackProposal,
    },
    /// A move declined the waiting proposal.
    TakebackDeclined {
        proposal: TakebackProposal,
    },
    /// A seat offered a draw; the other seat accepts by offering too.
    DrawOffered {
        by: Seat,
    },
    /// A move declined the draw `by` offered.
    DrawDeclined {
        by: Seat,
    },
    GameOver {
        result: GameResult,
    },
}

table_events!(GomokuEvent);

fn seat_of(stone: Stone) -> Seat {
    match stone {
        Stone::Black => 0,
        Stone::White => 1,
    }
}

fn color(stone: Stone) -> Color {
    match stone {
        Stone::Black => Color::Black,
        Stone::White => Color::White,
    }
}

fn color_word(stone: Stone) -> &'static str {
    match stone {
        Stone::Black => "black",
        Stone::White => "white",
    }
}

/// The engine's report in the shared vocabulary.
fn analysis_of(analysis: &ai::Analysis) -> AiAnalysis {
    AiAnalysis {
        level: analysis.level,
        principal_variation: analysis
            .principal_variation
            .iter()
            .map(Point::to_string)
            .collect(),
        score: Some(i64::from(analysis.score)),
        nodes: Some(analysis.nodes),
        depth: (analysis.depth > 0).then_some(analysis.depth),
        elapsed_ms: analysis.elapsed_ms,
        ..AiAnalysis::default()
    }
}

impl GomokuGame {
    pub fn board(&self) -> &Gomoku {
        &self.board
    }

    fn place(&mut self, seat: Seat, point: Point) -> Result<Vec<GomokuEvent>, RuleError> {
        let expected = seat_of(self.board.next());
        if seat != expected {
            return Err(RuleError::NotYourTurn { seat, expected });
        }
        self.board.play(point).map_err(|e| match e {
            GomokuError::GameOver => RuleError::GameOver,
            other => RuleError::Illegal(other.to_string()),
        })?;
        Ok(vec![GomokuEvent::Stone {
            seat,
            color: color(self.board.stone_at(point).unwrap_or(Stone::Black)),
            at: point.to_string(),
        }])
    }
}

impl TurnGame for GomokuGame {
    const NAME: &'static str = "gomoku";
    const DESCRIPTION: &'static str =
        "Gomoku (five in a row, seed 001), with persistent player scores";
    const SCORED: bool = true;
    /// Measured (docs/PERFORMANCE.md, "AI levels' ratings"): `easy` is the anchor at 1500;
    /// `normal` won 200 of 200 games against it (the 95 % Wilson lower bound, 98.1 %, gives
    /// +687 Elo), `hard` 82 of 100 against `normal` from two random opening moves (+263).
    const RATINGS: Option<AiRatings> = Some(AiRatings {
        easy: 1500.0,
        normal: 2187.0,
        hard: 2450.0,
    });
    const UNDO: bool = true;
    const DRAWS: bool = true;
    type Options = GomokuOptions;
    type Move = GomokuMove;
    type View = GomokuView;
    type Event = GomokuEvent;

    fn example() -> Example {
        Example {
            create: serde_json::json!({"players": [{"name": "alice"}, {"name": "bob"}]}),
            first: serde_json::json!({"move": "h8"}),
            second: serde_json::json!({"move": "a1"}),
            resign: Some(serde_json::json!({"move": "resign"})),
        }
    }

    fn seat_range() -> RangeInclusive<usize> {
        2..=2
    }

    fn players(options: &GomokuOptions) -> &[PlayerSpec] {
        &options.players
    }

    fn new(options: &GomokuOptions, _seats: &[SeatKind], _seed: u64) -> Result<Self, RuleError> {
        let size = options.size.unwrap_or(i64::from(Gomoku::DEFAULT_SIZE));
        let range = i64::from(Gomoku::MIN_SIZE)..=i64::from(Gomoku::MAX_SIZE);
        if !range.contains(&size) {
            return Err(RuleError::InvalidOptions(format!(
                "size must be {} to {}, not {size}",
                range.start(),
                range.end()
            )));
        }
        let board = Gomoku::new(size as u8, options.rule.unwrap_or_default())
            .map_err(|e| RuleError::InvalidOptions(e.to_string()))?;
        Ok(Self {
            board,
            resigned: None,
            table: Table::new(
                options.takeback,
                options.auto_ai,
                options.rated == Some(false),
                options.clock,
                Self::BYOYOMI,
            )?,
        })
    }

    fn turn(&self) -> Option<Seat> {
        if self.result().is_some() {
            None
        } else {
            Some(seat_of(self.board.next()))
        }
    }

    fn auto_ai(&self) -> bool {
        self.table.auto_ai()
    }

    fn rated(&self) -> bool {
        self.table.rated()
    }

    fn resigns(mv: &GomokuMove) -> bool {
        mv.play == GomokuPlay::Resign
    }

    /// Black (seat 0) moves first, and the seats alternate.
    fn has_moved(&self, seat: Seat) -> bool {
        self.board.moves().len() > seat
    }

    fn apply(&mut self, seat: Seat, mv: &GomokuMove) -> Result<Vec<GomokuEvent>, RuleError> {
        if self.result().is_some() {
            return Err(RuleError::GameOver);
        }
        let mut events = match mv.play {
            GomokuPlay::Place(point) => self.place(seat, point)?,
            GomokuPlay::Resign => {
                self.resigned = Some(seat);
                vec![GomokuEvent::Resign { seat }]
            }
        };
        self.table.declined_by_move(&mut events);
        if let Some(result) = self.result() {
            events.push(GomokuEvent::GameOver { result });
        }
        Ok(events)
    }

    fn clock(&self) -> Option<&Clock> {
        self.table.clock()
    }

    fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.table.clock_mut()
    }

    fn forfeit(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<GomokuEvent>, RuleError> {
        let over = self.result().is_some();
        self.table.forfeit(over, seat, reason)
    }

    fn abort(&mut self) -> Vec<GomokuEvent> {
        self.table.abort()
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(ending) = self.table.ending() {
            return Some(ending);
        }
        if let Some(loser) = self.resigned {
            let winner = 1 - loser;
            return Some(GameResult {
                winners: vec![winner],
                reason: EndReason::RESIGN,
                summary: format!("seat {loser} resigned; seat {winner} wins"),
            });
        }
        self.board.outcome().map(|outcome| match outcome.winner {
            Some(stone) => GameResult {
                winners: vec![seat_of(stone)],
                reason: FIVE_IN_ROW,
                summary: format!("{} wins with five in a row", color_word(stone)),
            },
            None => GameResult {
                winners: Vec::new(),
                reason: EndReason::DRAW,
                summary: "the board is full: a draw".into(),
            },
        })
    }

    fn view(&self, _seat: Option<Seat>) -> GomokuView {
        let winning_line = self.board.outcome().and_then(|o| {
            (!o.line.is_empty()).then(|| o.line.iter().map(Point::to_string).collect::<Vec<_>>())
        });
        GomokuView {
            size: self.board.size(),
            rule: self.board.rule(),
            board: self.board.rows(),
            moves: self.board.moves().iter().map(Point::to_string).collect(),
            next: color(self.board.next()),
            winning_line,
            takeback: self.table.takeback(),
            draw_offer: self.table.draw_offer(),
            forbidden: (self.board.rule() == Rule::Renju && self.turn() == Some(0)).then(|| {
                self.board
                    .forbidden_points()
                    .iter()
                    .map(Point::to_string)
                    .collect()
            }),
        }
    }

    fn choose_move(
        &self,
        seat: Seat,
        level: AiLevel,
        budget: AiBudget,
    ) -> Result<AiChoice<GomokuMove>, RuleError> {
        match self.turn() {
            None => return Err(RuleError::GameOver),
            Some(expected) if expected != seat => {
                return Err(RuleError::NotYourTurn { seat, expected })
            }
            Some(_) => {}
        }
        let mut rng = ChaCha8Rng::seed_from_u64(budget.seed);
        let decision = ai::choose_move(&self.board, level, budget.time, budget.threads, &mut rng)
            .ok_or(RuleError::GameOver)?;
        Ok(AiChoice {
            chosen: GomokuMove {
                play: GomokuPlay::Place(decision.point),
            },
            analysis: Some(analysis_of(&decision.analysis)),
        })
    }

    /// Takes back the last move; against an AI, keeps going back until a human is to move, so the
    /// human replays their own turn (seed 001's opponent is always the AI).
    fn undo(&mut self, by: Seat, seats: &[SeatKind]) -> Result<Vec<GomokuEvent>, RuleError> {
        if self.result().is_some() {
            return Err(RuleError::GameOver);
        }
        if self.board.moves().is_empty() {
            return Err(RuleError::Conflict("there is no move to take back".into()));
        }
        if let Some(proposed) = self.table.ask_takeback(by, TakebackAction::Undo, seats)? {
            return Ok(proposed);
        }
        let mut taken = Vec::new();
        let has_human = seats.contains(&SeatKind::Human);
        while let Some(point) = self.board.undo() {
            taken.push(point.to_string());
            let to_move = seat_of(self.board.next());
            let ai_to_move = matches!(seats.get(to_move), Some(SeatKind::Ai(_)));
            if !(has_human && ai_to_move) {
                break;
            }
        }
        if taken.is_empty() {
            return Err(RuleError::Conflict("there is no move to take back".into()));
        }
        Ok(vec![GomokuEvent::Undo { taken_back: taken }])
    }

    fn offer_draw(&mut self, by: Seat, seats: &[SeatKind]) -> Result<Vec<GomokuEvent>, RuleError> {
        let over = self.result().is_some();
        self.table.offer_draw(over, by, seats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HUMANS: [SeatKind; 2] = [SeatKind::Human, SeatKind::Human];

    fn game() -> GomokuGame {
        let options: GomokuOptions =
            serde_json::from_value(serde_json::json!({"players": [{}, {}]})).unwrap();
        GomokuGame::new(&options, &HUMANS, 0).unwrap()
    }

    fn mv(text: &str) -> GomokuMove {
        GomokuMove {
            play: text.parse().unwrap(),
        }
    }

    /// The view's `draw_offer`, `None` when it is left out.
    fn offer_json(game: &GomokuGame) -> Option<serde_json::Value> {
        serde_json::to_value(game.view(None))
            .unwrap()
            .get("draw_offer")
            .cloned()
    }

    #[test]
    fn an_offer_the_other_seat_accepts_is_a_draw() {
        let mut game = game();
        game.apply(0, &mv("h8")).unwrap();
        let offered = game.offer_draw(0, &HUMANS).unwrap();
        assert!(matches!(offered[..], [GomokuEvent::DrawOffered { by: 0 }]));
        assert_eq!(offer_json(&game), Some(serde_json::json!({"by": 0})));
        assert!(matches!(
            game.offer_draw(0, &HUMANS),
            Err(RuleError::Conflict(_))
        ));
        let accepted = game.offer_draw(1, &HUMANS).unwrap();
        let draw = DrawOffer::agreed();
        assert!(matches!(&accepted[..], [GomokuEvent::GameOver { result }] if *result == draw));
        assert_eq!(draw.reason, EndReason::DRAW);
        assert!(draw.winners.is_empty());
        assert_eq!(game.result(), Some(draw.clone()));
        assert_eq!(game.turn(), None);
        assert_eq!(offer_json(&game), None);
        assert_eq!(game.apply(1, &mv("a1")).unwrap_err(), RuleError::GameOver);
        assert_eq!(game.undo(0, &HUMANS).unwrap_err(), RuleError::GameOver);
        assert_eq!(
            game.offer_draw(0, &HUMANS).unwrap_err(),
            RuleError::GameOver
        );
        let stored = serde_json::to_value(&game).unwrap();
        let loaded: GomokuGame = serde_json::from_value(stored).unwrap();
        assert_eq!(loaded.result(), Some(draw));
    }

    #[test]
    fn a_move_by_either_seat_declines_the_offer() {
        for (offering, moving) in [(1, 0), (0, 0)] {
            let mut game = game();
            game.offer_draw(offering, &HUMANS).unwrap();
            let events = game.apply(moving, &mv("h8")).unwrap();
            assert!(
                matches!(events[0], GomokuEvent::DrawDeclined { by } if by == offering),
                "{events:?}"
            );
            assert_eq!(offer_json(&game), None);
            assert!(game.result().is_none());
            assert!(matches!(
                game.offer_draw(1 - offering, &HUMANS).unwrap()[..],
                [GomokuEvent::DrawOffered { .. }]
            ));
        }
        let mut game = game();
        game.offer_draw(0, &HUMANS).unwrap();
        let resigned = game.apply(1, &mv("resign")).unwrap();
        assert!(matches!(resigned[0], GomokuEvent::DrawDeclined { by: 0 }));
        assert_eq!(game.result().unwrap().reason, EndReason::RESIGN);
    }

    #[test]
    fn no_offers_against_an_ai_or_after_the_end() {
        let mut game = game();
        let seats = [SeatKind::Human, SeatKind::Ai(AiLevel::Easy)];
        assert!(matches!(
            game.offer_draw(0, &seats),
            Err(RuleError::Conflict(_))
        ));
        assert_eq!(offer_json(&game), None);
        game.apply(0, &mv("resign")).unwrap();
        assert_eq!(
            game.offer_draw(1, &HUMANS).unwrap_err(),
            RuleError::GameOver
        );
    }

    fn renju_game() -> GomokuGame {
        let options: GomokuOptions =
            serde_json::from_value(serde_json::json!({"rule": "renju", "players": [{}, {}]}))
                .unwrap();
        GomokuGame::new(&options, &HUMANS, 0).unwrap()
    }

    #[test]
    fn renju_lists_black_forbidden_points_and_refuses_them() {
        let mut renju = renju_game();
        let view = serde_json::to_value(renju.view(None)).unwrap();
        assert_eq!(view["rule"], "renju");
        assert_eq!(view["forbidden"], serde_json::json!([]));
        for (seat, m) in ["h9", "a1", "h10", "a3", "i8", "a5", "j8", "a7"]
            .iter()
            .enumerate()
        {
            let view = serde_json::to_value(renju.view(None)).unwrap();
            assert_eq!(view.get("forbidden").is_some(), seat % 2 == 0, "{view}");
            renju.apply(seat % 2, &mv(m)).unwrap();
        }
        let view = serde_json::to_value(renju.view(Some(0))).unwrap();
        assert_eq!(view["forbidden"], serde_json::json!(["h8"]));
        assert_eq!(
            renju.apply(0, &mv("h8")).unwrap_err(),
            RuleError::Illegal("h8 is forbidden for black: double three".into())
        );
        assert_eq!(renju.turn(), Some(0));
        // Once the game is over nobody is to move, and the list goes.
        let mut over = renju.clone();
        over.apply(0, &mv("resign")).unwrap();
        assert!(serde_json::to_value(over.view(None))
            .unwrap()
            .get("forbidden")
            .is_none());
        // Freestyle views never carry it.
        assert!(serde_json::to_value(game().view(None))
            .unwrap()
            .get("forbidden")
            .is_none());
    }

    #[test]
    fn no_ai_level_plays_a_forbidden_point_for_black() {
        // White b2..e2 is a four (a2 is black's): black's only block, f2, would make the overline
        // f1..f6, so black is lost, and still plays an allowed point.
        let mut game = renju_game();
        let moves = "f3 f7 f4 b2 f5 c2 f6 d2 f1 e2 a2 o15";
        for (seat, m) in moves.split_whitespace().enumerate() {
            game.apply(seat % 2, &mv(m)).unwrap();
        }
        assert_eq!(
            game.board().forbidden_shape("f2".parse().unwrap()),
            Some(crate::gomoku::Forbidden::Overline)
        );
        for level in [AiLevel::Easy, AiLevel::Normal, AiLevel::Hard] {
            let budget = AiBudget {
                time: std::time::Duration::from_millis(50),
                threads: 1,
                seed: 1,
            };
            let choice = game.choose_move(0, level, budget).unwrap();
            let GomokuPlay::Place(p) = choice.chosen.play else {
                panic!("{level:?} resigned")
            };
            assert_eq!(game.board().forbidden_shape(p), None, "{level:?} chose {p}");
            game.clone().apply(0, &choice.chosen).unwrap();
        }
    }

    #[test]
    fn a_game_stored_before_draw_offers_loads() {
        let old = r#"{"resigned":null,"aborted":false,"takeback":{"rule":"consent","proposal":null},"board":{"size":9,"rule":"freestyle","moves":["e5"]}}"#;
        let mut game: GomokuGame = serde_json::from_str(old).unwrap();
        assert_eq!(offer_json(&game), None);
        assert_eq!(game.turn(), Some(1));
        game.offer_draw(1, &HUMANS).unwrap();
        let stored = serde_json::to_value(&game).unwrap();
        assert_eq!(stored["draw_offer"], serde_json::json!({"by": 1}));
        let mut loaded: GomokuGame = serde_json::from_value(stored).unwrap();
        loaded.offer_draw(0, &HUMANS).unwrap();
        assert_eq!(loaded.result(), Some(DrawOffer::agreed()));
    }
}
