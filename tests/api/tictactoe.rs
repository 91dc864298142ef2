//! A game written in the tests and added to an app through one line of a game list: tic-tac-toe.
//! That it passes the whole conformance suite on both stores shows that a game needs nothing
//! beyond its rules, its `TurnGame` and that line.

use std::ops::RangeInclusive;

use parlor::games::clock::Clock;
use parlor::games::registry::{BuiltinGames, Games, TurnGameVisitor};
use parlor::games::{
    AiAnalysis, AiBudget, AiChoice, AiLevel, EndReason, Example, Forfeit, GameResult, PlayerSpec,
    RuleError, Seat, SeatKind, TurnGame,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

/// The built-in games and tic-tac-toe.
pub struct WithTicTacToe;

impl Games for WithTicTacToe {
    fn visit(visitor: &mut impl TurnGameVisitor) {
        BuiltinGames::visit(visitor);
        visitor.visit::<TicTacToe>();
    }
}

crate::conformance::conformance!(crate::tictactoe::WithTicTacToe, except BuiltinGames);

/// Create body: two players, and whether the server plays the AI seats by itself.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TicTacToeOptions)]
pub struct Options {
    #[schema(min_items = 2, max_items = 2)]
    pub players: Vec<PlayerSpec>,
    pub auto_ai: Option<bool>,
}

/// Move body: `{"move": "b2"}` (column `a`–`c`, row `1`–`3`) or `{"move": "resign"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TicTacToeMove)]
pub struct Move {
    #[serde(rename = "move")]
    #[schema(pattern = "^([abc][123]|resign)$")]
    pub play: String,
}

/// The board: rows from the top, `X` (seat 0), `O` (seat 1) or `.`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TicTacToeView)]
pub struct View {
    pub board: Vec<String>,
    pub moves: Vec<String>,
}

/// What a change caused.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = TicTacToeEvent)]
pub enum Event {
    Mark { seat: usize, at: String },
    Resign { seat: usize },
    GameOver { result: GameResult },
}

/// A game: the cells marked, in order, and how it ended early, if it did.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TicTacToe {
    moves: Vec<u8>,
    resigned: Option<Seat>,
    #[serde(default)]
    forfeit: Option<Forfeit>,
    aborted: bool,
    auto_ai: bool,
}

const LINES: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn cell_name(cell: u8) -> String {
    format!("{}{}", (b'a' + cell % 3) as char, cell / 3 + 1)
}

fn cell_of(name: &str) -> Option<u8> {
    let bytes = name.as_bytes();
    match bytes {
        [column @ b'a'..=b'c', row @ b'1'..=b'3'] => Some((row - b'1') * 3 + (column - b'a')),
        _ => None,
    }
}

impl TicTacToe {
    fn owner(&self, cell: u8) -> Option<Seat> {
        self.moves.iter().position(|&c| c == cell).map(|i| i % 2)
    }

    fn winner(&self) -> Option<Seat> {
        LINES.iter().find_map(|line| {
            let first = self.owner(line[0])?;
            line.iter()
                .all(|&c| self.owner(c) == Some(first))
                .then_some(first)
        })
    }

    fn empty_cells(&self) -> Vec<u8> {
        (0..9).filter(|&c| self.owner(c).is_none()).collect()
    }
}

impl TurnGame for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const DESCRIPTION: &'static str = "Tic-tac-toe, a game of the tests";
    type Options = Options;
    type Move = Move;
    type View = View;
    type Event = Event;

    fn example() -> Example {
        Example {
            create: json!({"players": [{"name": "alice"}, {"name": "bob"}]}),
            first: json!({"move": "b2"}),
            second: json!({"move": "a1"}),
            resign: Some(json!({"move": "resign"})),
        }
    }

    fn seat_range() -> RangeInclusive<usize> {
        2..=2
    }

    fn players(options: &Options) -> &[PlayerSpec] {
        &options.players
    }

    fn auto_ai(&self) -> bool {
        self.auto_ai
    }

    fn new(options: &Options, _seats: &[SeatKind], _seed: u64) -> Result<Self, RuleError> {
        Ok(TicTacToe {
            moves: Vec::new(),
            resigned: None,
            forfeit: None,
            aborted: false,
            auto_ai: options.auto_ai.unwrap_or(false),
        })
    }

    fn turn(&self) -> Option<Seat> {
        self.result().is_none().then_some(self.moves.len() % 2)
    }

    fn resigns(mv: &Move) -> bool {
        mv.play == "resign"
    }

    fn has_moved(&self, seat: Seat) -> bool {
        self.moves.len() > seat
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, RuleError> {
        if self.result().is_some() {
            return Err(RuleError::GameOver);
        }
        let mut events = if Self::resigns(mv) {
            self.resigned = Some(seat);
            vec![Event::Resign { seat }]
        } else {
            let expected = self.moves.len() % 2;
            if seat != expected {
                return Err(RuleError::NotYourTurn { seat, expected });
            }
            let cell = cell_of(&mv.play)
                .ok_or_else(|| RuleError::Illegal(format!("no cell {:?}", mv.play)))?;
            if self.owner(cell).is_some() {
                return Err(RuleError::Illegal(format!("{} is taken", mv.play)));
            }
            self.moves.push(cell);
            vec![Event::Mark {
                seat,
                at: cell_name(cell),
            }]
        };
        if let Some(result) = self.result() {
            events.push(Event::GameOver { result });
        }
        Ok(events)
    }

    /// Tic-tac-toe is never timed, but a seat may still be claimed gone.
    fn clock(&self) -> Option<&Clock> {
        None
    }

    fn clock_mut(&mut self) -> Option<&mut Clock> {
        None
    }

    fn forfeit(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<Event>, RuleError> {
        let over = self.result().is_some();
        let result = Forfeit::record(&mut self.forfeit, over, seat, reason)?;
        Ok(vec![Event::GameOver { result }])
    }

    fn abort(&mut self) -> Vec<Event> {
        self.aborted = true;
        vec![Event::GameOver {
            result: GameResult::aborted(),
        }]
    }

    fn result(&self) -> Option<GameResult> {
        if self.aborted {
            return Some(GameResult::aborted());
        }
        if let Some(forfeit) = &self.forfeit {
            return Some(forfeit.result());
        }
        if let Some(loser) = self.resigned {
            return Some(GameResult {
                winners: vec![1 - loser],
                reason: EndReason::RESIGN,
                summary: format!("seat {loser} resigned"),
            });
        }
        if let Some(winner) = self.winner() {
            return Some(GameResult {
                winners: vec![winner],
                reason: EndReason::named("three_in_row"),
                summary: format!("seat {winner} has three in a row"),
            });
        }
        (self.moves.len() == 9).then(|| GameResult {
            winners: Vec::new(),
            reason: EndReason::DRAW,
            summary: "a draw".into(),
        })
    }

    fn view(&self, _seat: Option<Seat>) -> View {
        let mark = |cell: u8| match self.owner(cell) {
            Some(0) => 'X',
            Some(_) => 'O',
            None => '.',
        };
        View {
            board: (0..3)
                .rev()
                .map(|row| (0..3).map(|column| mark(row * 3 + column)).collect())
                .collect(),
            moves: self.moves.iter().map(|&c| cell_name(c)).collect(),
        }
    }

    /// Any free cell, chosen by the seed.
    fn choose_move(
        &self,
        seat: Seat,
        level: AiLevel,
        budget: AiBudget,
    ) -> Result<AiChoice<Move>, RuleError> {
        match self.turn() {
            None => return Err(RuleError::GameOver),
            Some(expected) if expected != seat => {
                return Err(RuleError::NotYourTurn { seat, expected })
            }
            Some(_) => {}
        }
        let empty = self.empty_cells();
        let cell = empty[(budget.seed % empty.len() as u64) as usize];
        Ok(AiChoice {
            chosen: Move {
                play: cell_name(cell),
            },
            analysis: Some(AiAnalysis {
                level,
                principal_variation: vec![cell_name(cell)],
                ..AiAnalysis::default()
            }),
        })
    }
}
