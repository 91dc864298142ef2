//! The Gomoku `easy` AI against an independent oracle: seed 001's `calculateScore` and
//! `actionByAI`, ported line by line from the seed's own text
//! (/work/shared/seeds/001_1dd44db12683c896.txt), not from our code, and run on random boards.
//!
//! The seed's text lost its `+` signs in copying; restored as RULES.md ("Gomoku") says:
//! `row i * y` is `row + i * y`, `personNum ;` is `personNum++;`, `for (…; row )` is `row++`,
//! and `scoreMap[row][col] = 10` is `+= 10` (scores add up over the four directions and both
//! colours). Everything else is as written, the seed's quirks included: its own stones are
//! scanned with `> 0` bounds (row 0 and column 0 count as off the board), the opponent's with
//! `>= 0`; the opponent's five is `== 4`, its own `>= 4`.
//!
//! The seed played the AI as white (`-1`) against a human black (`1`); here the side to move is
//! the AI and the other side the "person". `chessMap[row][col]` has row 0 at the TOP.

use parlor::games::gomoku::ai::choose_move;
use parlor::games::gomoku::{Gomoku, Point, Rule};
use parlor::games::AiLevel;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// The thirteen entries of the seed's two score tables, in the order the seed lists them.
const ENTRIES: [&str; 13] = [
    "person 1 (10)",
    "person 2 dead (30)",
    "person 2 live (40)",
    "person 3 dead (60)",
    "person 3 live (200)",
    "person 4 (20000)",
    "bot 0 (5)",
    "bot 1 (10)",
    "bot 2 dead (25)",
    "bot 2 live (50)",
    "bot 3 dead (55)",
    "bot 3 live (300)",
    "bot 4+ (30000)",
];

/// Which table entries one point's score used.
type Hits = [u32; 13];

/// `calculateScore`, line by line. `chess_map[row][col]`: 1 the person, -1 the bot, 0 empty.
/// Returns the score map and, per point, which table entries made its score.
#[allow(clippy::needless_range_loop, clippy::collapsible_else_if)]
fn calculate_score(chess_map: &[Vec<i32>]) -> (Vec<Vec<i32>>, Vec<Vec<Hits>>) {
    let board_grad_size = chess_map.len() as i32;
    let size = chess_map.len();
    // 统计玩家或者电脑连成的子
    let mut person_num; // 玩家连成子的个数
    let mut bot_num; // AI连成子的个数
    let mut empty_num; // 各方向空白位的个数
                       // 清空评分数组
    let mut score_map = vec![vec![0i32; size]; size];
    let mut hits = vec![vec![[0u32; 13]; size]; size];
    let map = |r: i32, c: i32| chess_map[r as usize][c as usize];
    for row in 0..board_grad_size {
        for col in 0..board_grad_size {
            // 空白点就算
            if row >= 0 && col >= 0 && map(row, col) == 0 {
                let (r, c) = (row as usize, col as usize);
                let mut add = |entry: usize, score: i32| {
                    score_map[r][c] += score;
                    hits[r][c][entry] += 1;
                };
                // 遍历周围4个方向,分别计算正反两个方向
                let directs: [[i32; 2]; 4] = [[1, 0], [1, 1], [0, 1], [-1, 1]];
                for k in 0..4 {
                    let x = directs[k][0];
                    let y = directs[k][1];
                    // 重置
                    person_num = 0;
                    bot_num = 0;
                    empty_num = 0;
                    // 对黑棋评分(正向)
                    for i in 1..=4 {
                        if row + i * y >= 0
                            && row + i * y < board_grad_size
                            && col + i * x >= 0
                            && col + i * x < board_grad_size
                            && map(row + i * y, col + i * x) == 1
                        {
                            // 真人玩家的子
                            person_num += 1;
                        } else if row + i * y >= 0
                            && row + i * y < board_grad_size
                            && col + i * x >= 0
                            && col + i * x < board_grad_size
                            && map(row + i * y, col + i * x) == 0
                        {
                            // 空白位
                            empty_num += 1;
                            break; // 遇到空白位置,停止该方向的搜索
                        } else {
                            // 出边界,或者遇到白棋,就停止该方向的搜索
                            break;
                        }
                    }
                    // 对黑棋评分(反向)
                    for i in 1..=4 {
                        if row - i * y >= 0
                            && row - i * y < board_grad_size
                            && col - i * x >= 0
                            && col - i * x < board_grad_size
                            && map(row - i * y, col - i * x) == 1
                        {
                            // 玩家的子
                            person_num += 1;
                        } else if row - i * y >= 0
                            && row - i * y < board_grad_size
                            && col - i * x >= 0
                            && col - i * x < board_grad_size
                            && map(row - i * y, col - i * x) == 0
                        {
                            // 空白位
                            empty_num += 1;
                            break;
                        } else {
                            // 出边界,或者有AI自己的棋子
                            break;
                        }
                    }
                    if person_num == 1 {
                        // *二
                        add(0, 10);
                    } else if person_num == 2 {
                        // *三
                        if empty_num == 1 {
                            // 死三
                            add(1, 30);
                        } else if empty_num == 2 {
                            // 活三
                            add(2, 40);
                        }
                    } else if person_num == 3 {
                        // *四
                        if empty_num == 1 {
                            //死四
                            add(3, 60);
                        } else if empty_num == 2 {
                            //活四
                            add(4, 200);
                        }
                    } else if person_num == 4 {
                        // *五
                        add(5, 20000);
                    }
                    // 进行一次清空
                    empty_num = 0;
                    // 对白棋评分(正向)
                    for i in 1..=4 {
                        if row + i * y > 0
                            && row + i * y < board_grad_size
                            && col + i * x > 0
                            && col + i * x < board_grad_size
                            && map(row + i * y, col + i * x) == -1
                        {
                            // 玩家的子
                            bot_num += 1;
                        } else if row + i * y > 0
                            && row + i * y < board_grad_size
                            && col + i * x > 0
                            && col + i * x < board_grad_size
                            && map(row + i * y, col + i * x) == 0
                        {
                            // 空白位
                            empty_num += 1;
                            break;
                        } else {
                            break;
                        }
                    }
                    // 对白棋评分(反向)
                    for i in 1..=4 {
                        if row - i * y > 0
                            && row - i * y < board_grad_size
                            && col - i * x > 0
                            && col - i * x < board_grad_size
                            && map(row - i * y, col - i * x) == -1
                        {
                            // AI的子
                            bot_num += 1;
                        } else if row - i * y > 0
                            && row - i * y < board_grad_size
                            && col - i * x > 0
                            && col - i * x < board_grad_size
                            && map(row - i * y, col - i * x) == 0
                        {
                            // 空白位
                            empty_num += 1;
                            break;
                        } else {
                            // 出边界
                            break;
                        }
                    }
                    if bot_num == 0 {
                        // 普通下子
                        add(6, 5);
                    } else if bot_num == 1 {
                        // 活二
                        add(7, 10);
                    } else if bot_num == 2 {
                        if empty_num == 1 {
                            // 死三
                            add(8, 25);
                        } else if empty_num == 2 {
                            add(9, 50); // 活三
                        }
                    } else if bot_num == 3 {
                        if empty_num == 1 {
                            // 死四
                            add(10, 55);
                        } else if empty_num == 2 {
                            add(11, 300); // 活四
                        }
                    } else if bot_num >= 4 {
                        add(12, 30000); // 活五,应该具有最高优先级
                    }
                }
            }
        }
    }
    (score_map, hits)
}

/// `actionByAI`: the empty points of the highest score, in the seed's scan order (top row
/// first), and that score. The seed then picks one of them at random.
fn action_by_ai(chess_map: &[Vec<i32>], score_map: &[Vec<i32>]) -> (Vec<(usize, usize)>, i32) {
    // 从评分中找出最大分数的位置
    let mut max_score = 0;
    let mut max_points = Vec::new();
    for row in 0..chess_map.len() {
        for col in 0..chess_map.len() {
            // 前提是这个坐标是空的
            if chess_map[row][col] == 0 {
                if score_map[row][col] > max_score {
                    // 找最大的数和坐标
                    max_points.clear();
                    max_score = score_map[row][col];
                    max_points.push((row, col));
                } else if score_map[row][col] == max_score {
                    // 如果有多个最大的数,都存起来
                    max_points.push((row, col));
                }
            }
        }
    }
    (max_points, max_score)
}

/// Our game as the seed's `chessMap`: row 0 at the top, the side to move is the bot (-1).
fn chess_map(game: &Gomoku) -> Vec<Vec<i32>> {
    let size = game.size();
    let bot = game.next();
    (0..size)
        .map(|row| {
            (0..size)
                .map(|col| match game.stone_at(Point::new(col, size - 1 - row)) {
                    None => 0,
                    Some(stone) if stone == bot => -1,
                    Some(_) => 1,
                })
                .collect()
        })
        .collect()
}

/// A random game still in play: `stones` random moves (a move that ends the game is taken back
/// and another tried), sometimes clustered near a random centre so lines form.
fn random_game(rng: &mut ChaCha8Rng) -> Gomoku {
    let size = [9u8, 13, 15][rng.gen_range(0..3)];
    let stones = rng.gen_range(0..=size as usize * size as usize / 2);
    let spread = if rng.gen_bool(0.5) { size } else { 5 };
    let (cx, cy) = (rng.gen_range(0..size), rng.gen_range(0..size));
    let mut game = Gomoku::new(size, Rule::Freestyle).unwrap();
    let mut tries = 0;
    while game.moves().len() < stones && tries < 4 * stones {
        tries += 1;
        let near = |c: u8, rng: &mut ChaCha8Rng| {
            let d = rng.gen_range(0..spread) as i32 - spread as i32 / 2;
            (c as i32 + d).clamp(0, size as i32 - 1) as u8
        };
        let p = Point::new(near(cx, rng), near(cy, rng));
        if game.stone_at(p).is_some() || game.play(p).is_err() {
            continue;
        }
        if game.is_over() {
            game.undo();
        }
    }
    game
}

/// On random boards the AI's choice is the seed's: the point `actionByAI` picks with the same
/// random draw among the same tied points, and the score the seed gives it. Every one of the
/// thirteen table entries is part of some compared score.
#[test]
fn easy_ai_plays_seed_001s_calculate_score() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0001);
    let mut exercised: Hits = [0; 13];
    let boards = 3000;
    for board in 0..boards {
        let game = random_game(&mut rng);
        if game.is_over() {
            continue;
        }
        let map = chess_map(&game);
        let (scores, hits) = calculate_score(&map);
        let (max_points, max_score) = action_by_ai(&map, &scores);
        let draw_seed = rng.gen::<u64>();
        let decision = choose_move(
            &game,
            AiLevel::Easy,
            Duration::from_millis(100),
            1,
            &mut ChaCha8Rng::seed_from_u64(draw_seed),
        )
        .expect("a game in play has a move");
        // 随机落子: the seed's `rand() % k`, here the same draw from the same seeded generator.
        let (row, col) =
            max_points[ChaCha8Rng::seed_from_u64(draw_seed).gen_range(0..max_points.len())];
        let size = game.size();
        let expected = Point::new(col as u8, size - 1 - row as u8);
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            decision.analysis.score, max_score,
            "board {board} ({size}x{size}, moves {moves:?}): score"
        );
        assert_eq!(
            decision.point,
            expected,
            "board {board} ({size}x{size}, moves {moves:?}): the seed picks {expected} among {} tied points",
            max_points.len()
        );
        for (total, hit) in exercised.iter_mut().zip(hits[row][col]) {
            *total += hit;
        }
    }
    let missing: Vec<&str> = ENTRIES
        .iter()
        .zip(exercised)
        .filter(|(_, n)| *n == 0)
        .map(|(name, _)| *name)
        .collect();
    eprintln!("table entries in the compared scores: {exercised:?}");
    assert!(
        missing.is_empty(),
        "table entries never part of a compared score: {missing:?}"
    );
}
