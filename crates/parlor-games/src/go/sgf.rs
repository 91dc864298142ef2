//! SGF (FF[4]) records: export of a game, and import of a record's main line. The reader is a small
//! hand-written one: it needs only the tree syntax, the root properties Go uses and the moves, and
//! it must never panic or recurse without bound on what a client posts.

use std::fmt::Write as _;

use super::board::Color;
use super::game::{Go, GoError, GoOptions, IllegalReason, Setup, Turn};
use super::score::Scoring;
use super::vertex::{GoPlay, Vertex};

/// Who played and when, for the record's root (the game itself does not know names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfMeta {
    pub black: Option<String>,
    pub white: Option<String>,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
}

/// Why a record cannot be imported. Every variant is a client error (422).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    #[error("malformed SGF: {0}")]
    Malformed(String),
    /// Well-formed, but not a game we can set up.
    #[error("unsupported SGF record: {0}")]
    Unsupported(String),
    /// The record's move `number` (1-based, passes included) breaks the rules.
    #[error("move {number} ({play}) of the SGF record is illegal: {reason}")]
    IllegalMove {
        number: usize,
        play: String,
        reason: String,
    },
}

impl Go {
    /// A game replayed from an SGF record's main line, with the record's player names and date.
    pub fn from_sgf(text: &str) -> Result<(Go, SgfMeta), SgfError> {
        import(text)
    }

    /// The game as an SGF record.
    pub fn to_sgf(&self, meta: &SgfMeta) -> String {
        export(self, meta)
    }
}

/// Writes `game` as an SGF record: GM, FF, CA, SZ, KM, RU, PB/PW, DT, RE, setup stones, moves
/// (a pass is `[]`).
pub fn export(game: &Go, meta: &SgfMeta) -> String {
    let size = game.size();
    let options = game.options();
    let mut out = String::from("(;GM[1]FF[4]CA[UTF-8]AP[Parlor:1]");
    let _ = write!(out, "SZ[{size}]KM[{}]", options.komi);
    out.push_str(match options.scoring {
        Scoring::Territory => "RU[Japanese]",
        Scoring::Area => "RU[Chinese]",
    });
    for (ident, value) in [("PB", &meta.black), ("PW", &meta.white), ("DT", &meta.date)] {
        if let Some(value) = value {
            let _ = write!(out, "{ident}[{}]", escape(value));
        }
    }
    if let Some(result) = game.result() {
        let _ = write!(out, "RE[{}]", result.summary);
    }
    let setup = game.setup();
    for (ident, stones) in [("AB", &setup.black), ("AW", &setup.white)] {
        if !stones.is_empty() {
            out.push_str(ident);
            for &v in stones {
                let _ = write!(out, "[{}]", point(v, size));
            }
        }
    }
    if !setup.is_empty() && game.moves().is_empty() {
        let _ = write!(out, "PL[{}]", letter(game.next()));
    }
    for (i, turn) in game.moves().iter().enumerate() {
        if i % 12 == 0 {
            out.push('\n');
        }
        let value = match turn.play {
            GoPlay::Stone(v) => point(v, size),
            _ => String::new(),
        };
        let _ = write!(out, ";{}[{value}]", letter(turn.color));
    }
    out.push_str(")\n");
    out
}

/// Reads the first game of an SGF collection, following the first variation at every branch.
pub fn import(text: &str) -> Result<(Go, SgfMeta), SgfError> {
    let nodes = Parser::new(text).main_line()?;
    let (root, rest) = nodes
        .split_first()
        .ok_or_else(|| SgfError::Malformed("the record has no node".into()))?;

    if let Some(gm) = root.get("GM") {
        if gm.trim() != "1" {
            return Err(SgfError::Unsupported(format!(
                "GM[{gm}] is not a game of Go"
            )));
        }
    }
    let size = match root.get("SZ") {
        None => 19,
        Some(sz) => sz.trim().parse::<usize>().map_err(|_| {
            SgfError::Unsupported(format!(
                "SZ[{sz}]: only square boards of 5 to 25 are played"
            ))
        })?,
    };
    let komi = match root.get("KM") {
        None => GoOptions::default().komi,
        Some(km) => km
            .trim()
            .parse::<f64>()
            .map_err(|_| SgfError::Unsupported(format!("KM[{km}] is not a number")))?,
    };
    let scoring = match root.get("RU").map(|ru| ru.trim().to_ascii_lowercase()) {
        Some(ru) if ["chinese", "aga", "nz", "new zealand", "area"].contains(&ru.as_str()) => {
            Scoring::Area
        }
        _ => Scoring::Territory,
    };
    let options = GoOptions {
        size,
        komi,
        scoring,
        superko: false,
    };
    options
        .validate()
        .map_err(|e| SgfError::Unsupported(e.to_string()))?;

    let mut setup = Setup::default();
    for (ident, stones) in [("AB", &mut setup.black), ("AW", &mut setup.white)] {
        for value in root.all(ident) {
            stones.extend(points(value, size)?);
        }
    }
    // AE empties points: a record that adds and removes a stone in its root leaves it out.
    let mut emptied = Vec::new();
    for value in root.all("AE") {
        emptied.extend(points(value, size)?);
    }
    setup.black.retain(|v| !emptied.contains(v));
    setup.white.retain(|v| !emptied.contains(v));

    let mut moves = Vec::new();
    for node in std::iter::once(root).chain(rest) {
        let stone_props = ["B", "W"].map(|ident| node.get(ident).map(|v| (ident, v)));
        let (ident, value) = match stone_props {
            [Some(b), None] => b,
            [None, Some(w)] => w,
            [None, None] => {
                if !std::ptr::eq(node, root) && ["AB", "AW", "AE"].iter().any(|i| node.has(i)) {
                    return Err(SgfError::Unsupported(format!(
                        "setup stones after move {} (only the root may place stones)",
                        moves.len()
                    )));
                }
                continue;
            }
            [Some(_), Some(_)] => {
                return Err(SgfError::Malformed(format!(
                    "node {} holds both a black and a white move",
                    moves.len() + 1
                )))
            }
        };
        let color = if ident == "B" {
            Color::Black
        } else {
            Color::White
        };
        let number = moves.len() + 1;
        let play = move_value(value, size).ok_or_else(|| SgfError::IllegalMove {
            number,
            play: format!("{ident}[{value}]"),
            reason: format!("[{value}] is not a point of a {size}×{size} board"),
        })?;
        moves.push((Turn { color, play }, format!("{ident}[{value}]")));
    }

    let first = match (moves.first(), root.get("PL")) {
        (Some((turn, _)), _) => turn.color,
        (None, Some(pl)) if pl.trim().eq_ignore_ascii_case("w") => Color::White,
        (None, Some(_)) => Color::Black,
        (None, None) if !setup.black.is_empty() && setup.white.is_empty() => Color::White,
        (None, None) => Color::Black,
    };
    let mut game = Go::with_setup(options, setup, first).map_err(|e| match e {
        GoError::Illegal {
            at,
            reason: IllegalReason::Occupied,
        } => SgfError::Unsupported(format!(
            "setup stone {at} is placed twice (AB and AW both name it, or one of them twice)"
        )),
        GoError::Illegal {
            at,
            reason: IllegalReason::Suicide,
        } => SgfError::Unsupported(format!(
            "the setup stones at {at} have no liberty: no game reaches that position"
        )),
        GoError::Illegal { at, reason } => {
            SgfError::Unsupported(format!("setup stone {at}: {reason}"))
        }
        other => SgfError::Unsupported(other.to_string()),
    })?;
    for (i, (turn, text)) in moves.iter().enumerate() {
        game.replay(std::slice::from_ref(turn))
            .map_err(|(_, reason)| SgfError::IllegalMove {
                number: i + 1,
                play: text.clone(),
                reason: reason.to_string(),
            })?;
    }

    let result = root.get("RE").map(|re| re.trim().to_ascii_uppercase());
    if let Some(re) = result {
        if !game.is_over() && (re.ends_with("+R") || re.ends_with("+RESIGN")) {
            match re.as_bytes()[0] {
                b'B' => game.mark_resigned(Color::White),
                b'W' => game.mark_resigned(Color::Black),
                _ => {}
            }
        }
    }

    let meta = SgfMeta {
        black: root.get("PB").map(str::to_owned),
        white: root.get("PW").map(str::to_owned),
        date: root.get("DT").map(str::to_owned),
    };
    Ok((game, meta))
}

fn letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// SGF point letters: column from `a` at the left, row from `a` at the top.
fn point(v: Vertex, size: usize) -> String {
    let col = (b'a' + v.col) as char;
    let row = (b'a' + (size - 1 - usize::from(v.row)) as u8) as char;
    format!("{col}{row}")
}

fn parse_point(value: &str, size: usize) -> Option<Vertex> {
    let &[c, r] = value.as_bytes() else {
        return None;
    };
    let index = |b: u8| b.is_ascii_lowercase().then(|| usize::from(b - b'a'));
    let (col, row_from_top) = (index(c)?, index(r)?);
    (col < size && row_from_top < size)
        .then(|| Vertex::new(col as u8, (size - 1 - row_from_top) as u8))
}

/// A move's value: a point, or a pass (`[]`, or `[tt]` on boards up to 19 as FF[3] wrote it).
fn move_value(value: &str, size: usize) -> Option<GoPlay> {
    let value = value.trim();
    if value.is_empty() || (value == "tt" && size <= 19) {
        return Some(GoPlay::Pass);
    }
    parse_point(value, size).map(GoPlay::Stone)
}

/// A setup value: a point or a compressed rectangle `aa:cc`.
fn points(value: &str, size: usize) -> Result<Vec<Vertex>, SgfError> {
    let bad =
        || SgfError::Unsupported(format!("[{value}] is not a point of a {size}×{size} board"));
    match value.trim().split_once(':') {
        None => Ok(vec![parse_point(value.trim(), size).ok_or_else(bad)?]),
        Some((a, b)) => {
            let (a, b) = (
                parse_point(a, size).ok_or_else(bad)?,
                parse_point(b, size).ok_or_else(bad)?,
            );
            let cols = a.col.min(b.col)..=a.col.max(b.col);
            let rows = a.row.min(b.row)..=a.row.max(b.row);
            Ok(cols
                .flat_map(|c| rows.clone().map(move |r| Vertex::new(c, r)))
                .collect())
        }
    }
}

/// Text values escape `\` and `]`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One node: its properties in order, values unescaped.
#[derive(Debug, Default)]
struct Node {
    props: Vec<(String, Vec<String>)>,
}

impl Node {
    fn get<'a>(&'a self, ident: &'a str) -> Option<&'a str> {
        self.all(ident).next()
    }

    fn has(&self, ident: &str) -> bool {
        self.props.iter().any(|(i, _)| i == ident)
    }

    fn all<'a>(&'a self, ident: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.props
            .iter()
            .filter(move |(i, _)| i == ident)
            .flat_map(|(_, values)| values.iter().map(String::as_str))
    }
}

/// How deeply variations may nest before the record is refused (the reader recurses per level).
const MAX_DEPTH: usize = 256;

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            chars: text.chars().peekable(),
        }
    }

    fn skip_space(&mut self) {
        while self.chars.next_if(|c| c.is_whitespace()).is_some() {}
    }

    fn main_line(mut self) -> Result<Vec<Node>, SgfError> {
        self.skip_space();
        if self.chars.peek() != Some(&'(') {
            return Err(SgfError::Malformed("a record starts with '('".into()));
        }
        let mut nodes = Vec::new();
        self.tree(&mut nodes, true, 0)?;
        // Further games of a collection are ignored.
        Ok(nodes)
    }

    /// Reads one game tree; its nodes join `main` when it lies on the main line.
    fn tree(&mut self, main: &mut Vec<Node>, on_main: bool, depth: usize) -> Result<(), SgfError> {
        if depth > MAX_DEPTH {
            return Err(SgfError::Malformed(
                "variations are nested too deeply".into(),
            ));
        }
        self.chars.next(); // '('
        self.skip_space();
        if self.chars.peek() != Some(&';') {
            return Err(SgfError::Malformed(
                "a game tree must start with a node ';'".into(),
            ));
        }
        while self.chars.next_if_eq(&';').is_some() {
            let node = self.node()?;
            if on_main {
                main.push(node);
            }
            self.skip_space();
        }
        let mut first_child = true;
        loop {
            self.skip_space();
            match self.chars.peek() {
                Some('(') => {
                    self.tree(main, on_main && first_child, depth + 1)?;
                    first_child = false;
                }
                Some(')') => {
                    self.chars.next();
                    return Ok(());
                }
                None => {
                    return Err(SgfError::Malformed(
                        "a game tree is not closed with ')'".into(),
                    ))
                }
                Some(c) => {
                    return Err(SgfError::Malformed(format!(
                        "unexpected {c:?} between nodes"
                    )))
                }
            }
        }
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_space();
            // An identifier starts with a capital; FF[3] allowed lowercase letters after it.
            if !self.chars.peek().is_some_and(char::is_ascii_uppercase) {
                return Ok(node);
            }
            let mut ident = String::new();
            while let Some(c) = self.chars.next_if(char::is_ascii_alphabetic) {
                // The lowercase letters carry no meaning.
                if c.is_ascii_uppercase() {
                    ident.push(c);
                }
            }
            let mut values = Vec::new();
            loop {
                self.skip_space();
                if self.chars.next_if_eq(&'[').is_none() {
                    break;
                }
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(SgfError::Malformed(format!(
                    "property {ident} has no value"
                )));
            }
            node.props.push((ident, values));
        }
    }

    /// A value after its '[': up to the first unescaped ']'.
    fn value(&mut self) -> Result<String, SgfError> {
        let mut value = String::new();
        loop {
            match self.chars.next() {
                None => {
                    return Err(SgfError::Malformed(
                        "a property value is not closed with ']'".into(),
                    ))
                }
                Some(']') => return Ok(value),
                Some('\\') => match self.chars.next() {
                    // An escaped line break is a soft break: it vanishes.
                    Some('\n') => {}
                    Some(c) => value.push(c),
                    None => {}
                },
                Some(c) => value.push(c),
            }
        }
    }
}
