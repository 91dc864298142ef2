//! SGF export and import: round trips, the main line of a tree with variations, setup stones,
//! escapes, errors that name the move, and a record that GNU Go loads.

use std::io::Write;
use std::process::{Command, Stdio};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::super::board::Color;
use super::super::game::{Go, GoOptions};
use super::super::score::Scoring;
use super::super::sgf::{export, import, SgfError, SgfMeta};
use super::super::vertex::{GoPlay, Vertex};
use super::support::{game, play_all, random_play, setup_game, vs};

fn meta() -> SgfMeta {
    SgfMeta {
        black: Some("alice".into()),
        white: Some("bob] \\ the AI".into()),
        date: Some("2026-11-23".into()),
    }
}

/// A game with captures, a ko, a pass and a handicap-like setup.
fn sample() -> Go {
    let mut g = setup_game(9, "A1 B2 G1 J1 H2", "B1 D1 C2 F1 G2", Color::Black, false);
    play_all(&mut g, "C1 H1 pass B1 E5 E6 D5 pass");
    g
}

#[test]
fn export_writes_the_root_properties_and_moves() {
    let mut g = game(9, "C3 pass D4");
    let sgf = export(&g, &meta());
    assert!(sgf.starts_with("(;GM[1]FF[4]CA[UTF-8]"), "{sgf}");
    for part in [
        "SZ[9]",
        "KM[6.5]",
        "RU[Japanese]",
        "PB[alice]",
        "PW[bob\\] \\\\ the AI]",
        "DT[2026-11-23]",
        ";B[cg];W[];B[df])",
    ] {
        assert!(sgf.contains(part), "{part} missing from {sgf}");
    }
    assert!(!sgf.contains("RE["));
    g.play(Color::White, GoPlay::Resign).unwrap();
    assert!(export(&g, &meta()).contains("RE[B+R]"));
}

#[test]
fn records_round_trip() {
    let mut finished = game(5, "C3 pass");
    finished.play(Color::Black, GoPlay::Pass).unwrap();
    let area = Go::new(GoOptions {
        size: 13,
        komi: 0.5,
        scoring: Scoring::Area,
        superko: false,
    })
    .unwrap();
    let handicap = Go::with_handicap(super::support::options(19), 5).unwrap();
    for original in [sample(), finished, area, handicap, game(25, "Z25 A1 M13")] {
        let text = original.to_sgf(&meta());
        let (loaded, loaded_meta) = Go::from_sgf(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(loaded, original, "{text}");
        assert_eq!(loaded.view(), original.view());
        assert_eq!(loaded.result(), original.result());
        assert_eq!(loaded_meta, meta());
        // Export is a function of the record: a second trip changes nothing.
        assert_eq!(export(&loaded, &meta()), text);
    }
}

#[test]
fn random_games_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for size in [5, 9, 13, 19] {
        let mut g = Go::new(super::support::options(size)).unwrap();
        while g.moves().len() < 150 && !g.is_over() {
            let play = random_play(&g, &mut rng);
            g.play(g.next(), play).unwrap();
        }
        let (loaded, _) = import(&export(&g, &SgfMeta::default())).unwrap();
        assert_eq!(loaded, g);
        assert_eq!(loaded.board(), g.board());
    }
}

#[test]
fn import_follows_the_first_variation_and_ignores_unknown_properties() {
    let text = "(;GM[1]FF[4]SZ[9]KM[7]XX[whatever]C[a comment with \\] inside]
        AB[aa:ab]AW[ii]
        ;W[ee]C[first]
        (;B[dd]LB[dd:A];W[cc](;B[];W[])(;B[ff]))
        (;B[gg];W[hh]))
        (;GM[1]SZ[19];B[aa])";
    let (g, meta) = import(text).unwrap();
    assert_eq!(g.size(), 9);
    assert_eq!(g.options().komi, 7.0);
    assert_eq!(g.setup().black, vs("A8 A9"));
    assert_eq!(g.setup().white, vs("J1"));
    let moves: Vec<String> = g.moves().iter().map(|t| t.play.to_string()).collect();
    assert_eq!(moves, ["E5", "D6", "C7", "pass", "pass"]);
    assert_eq!(g.moves()[0].color, Color::White);
    assert!(g.is_over());
    assert_eq!(meta, SgfMeta::default());
}

#[test]
fn import_reads_old_passes_rules_and_resignations() {
    let (g, _) = import("(;FF[3]SZ[19]RU[Chinese]RE[W+Resign];B[pd];W[tt];B[dp])").unwrap();
    assert_eq!(g.options().scoring, Scoring::Area);
    assert_eq!(g.moves()[1].play, GoPlay::Pass);
    assert_eq!(g.result().unwrap().summary, "W+R");
    let (g, _) = import("(;SZ[9]PL[W]AB[cc][gg])").unwrap();
    assert_eq!(g.next(), Color::White);
}

#[test]
fn malformed_records_are_refused_with_a_reason() {
    let cases = [
        ("", "malformed SGF: a record starts with '('"),
        ("GM[1]", "malformed SGF: a record starts with '('"),
        ("(", "malformed SGF: a game tree must start with a node"),
        (
            "(;SZ[9]",
            "malformed SGF: a game tree is not closed with ')'",
        ),
        (
            "(;SZ[9",
            "malformed SGF: a property value is not closed with ']'",
        ),
        ("(;SZ;B[aa])", "malformed SGF: property SZ has no value"),
        ("(;SZ[9] x)", "malformed SGF: unexpected 'x' between nodes"),
        (
            "(;B[aa]W[bb])",
            "malformed SGF: node 1 holds both a black and a white move",
        ),
        (
            "(;GM[3])",
            "unsupported SGF record: GM[3] is not a game of Go",
        ),
        ("(;SZ[19:13])", "unsupported SGF record: SZ[19:13]"),
        (
            "(;SZ[4])",
            "unsupported SGF record: size must be between 5 and 25, not 4",
        ),
        (
            "(;SZ[9]KM[6.25])",
            "unsupported SGF record: komi must be a multiple of 0.5",
        ),
        (
            "(;SZ[9]AB[zz])",
            "unsupported SGF record: [zz] is not a point",
        ),
        (
            "(;SZ[9];B[aa];AB[bb])",
            "unsupported SGF record: setup stones after move 1",
        ),
        // A black stone in the corner, walled in by white: a position no game reaches.
        (
            "(;SZ[9]AB[ai]AW[bi][ah])",
            "unsupported SGF record: the setup stones at A1 have no liberty",
        ),
        // A whole board of black stones.
        (
            "(;SZ[5]AB[aa:ee])",
            "unsupported SGF record: the setup stones at",
        ),
        (
            "(;SZ[9]AB[cc]AW[cc])",
            "unsupported SGF record: setup stone C7 is placed twice",
        ),
    ];
    for (text, expected) in cases {
        let err = import(text).unwrap_err().to_string();
        assert!(err.starts_with(expected), "{text:?}: {err}");
    }
    let deep = "(;SZ[9]".to_owned() + &"(;B[aa]".repeat(100_000);
    assert!(matches!(import(&deep), Err(SgfError::Malformed(_))));
}

#[test]
fn setup_honours_ae() {
    // AE empties a point that AB filled: the stone is not set up.
    let (game, _) = import("(;SZ[9]AB[aa][bb]AE[aa])").expect("a legal setup");
    let stones = &game.setup().black;
    assert_eq!(stones.len(), 1, "{stones:?}");
    assert!(
        !stones.contains(&"A9".parse::<Vertex>().unwrap()),
        "{stones:?}"
    );
}

#[test]
fn an_illegal_move_is_named_by_its_number() {
    let cases = [
        ("(;SZ[9];B[aa];W[aa])", 2, "the point is occupied"),
        (
            "(;SZ[9];B[aa];W[zz])",
            2,
            "[zz] is not a point of a 9×9 board",
        ),
        ("(;SZ[9];B[aa];B[bb])", 2, "it is white's turn, not black's"),
        ("(;SZ[9];B[aa];W[];B[];W[bb])", 4, "the game is over"),
        // The double ko of the rules tests, in SGF: white's retake of the ko is refused.
        (
            "(;SZ[9]AB[ai][bh][gi][ii][hh]AW[bi][di][ch][fi][gh];B[ci];W[bi])",
            2,
            "ko",
        ),
    ];
    for (text, number, reason) in cases {
        match import(text) {
            Err(e @ SgfError::IllegalMove { number: n, .. }) => {
                assert_eq!(n, number, "{text}");
                let message = e.to_string();
                assert!(
                    message.starts_with(&format!("move {number} (")),
                    "{message}"
                );
                assert!(message.contains(reason), "{message}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

/// Loads `sgf` in GNU Go over GTP and answers its black and white stones; `None` when gnugo is
/// missing outside CI (in CI a missing gnugo fails the test).
fn gnugo_stones(sgf: &str) -> Option<(Vec<String>, Vec<String>)> {
    let path = std::env::temp_dir().join(format!("parlor-go-{}.sgf", std::process::id()));
    std::fs::write(&path, sgf).unwrap();
    // Debian installs games in /usr/games, which is not always on PATH.
    let spawn = |program: &str| {
        Command::new(program)
            .args(["--mode", "gtp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
    };
    let spawned = spawn("gnugo").or_else(|_| spawn("/usr/games/gnugo"));
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            assert!(
                std::env::var_os("CI").is_none(),
                "gnugo is needed for this test ({e}); install it with `apt-get install gnugo`"
            );
            eprintln!("skipping the GNU Go check: gnugo is not installed (apt-get install gnugo)");
            return None;
        }
    };
    let script = format!(
        "loadsgf {}\nlist_stones black\nlist_stones white\nquit\n",
        path.display()
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split("\n\n").collect();
    assert!(
        answers[0].starts_with('='),
        "gnugo refused the record: {text}"
    );
    let stones = |answer: &str| {
        let mut list: Vec<String> = answer
            .trim_start_matches('=')
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        list.sort();
        list
    };
    Some((stones(answers[1]), stones(answers[2])))
}

#[test]
fn gnu_go_loads_exported_records() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut random = Go::new(super::support::options(13)).unwrap();
    while random.moves().len() < 200 && !random.is_over() {
        let play = random_play(&random, &mut rng);
        random.play(random.next(), play).unwrap();
    }
    assert!(random.captures().black + random.captures().white > 10);
    for g in [sample(), random] {
        let Some((black, white)) = gnugo_stones(&export(&g, &meta())) else {
            return;
        };
        let ours = |color| {
            let size = g.size();
            let mut list: Vec<String> = g
                .grid()
                .iter()
                .enumerate()
                .filter(|(_, s)| **s == Some(color))
                .map(|(i, _)| Vertex::new((i % size) as u8, (i / size) as u8).to_string())
                .collect();
            list.sort();
            list
        };
        assert_eq!(black, ours(Color::Black));
        assert_eq!(white, ours(Color::White));
    }
}
