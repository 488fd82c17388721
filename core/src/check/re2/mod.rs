//! Go's regular expressions (RE2 syntax, as `regexp.Compile` parses it): kube-apiserver compiles
//! a CRD's `pattern`, and CEL's `matches()` its literal regexes, with Go's `regexp`, so a pattern
//! is accepted here exactly when Go accepts it, and refused with Go's error.
//!
//! This follows Go's `regexp/syntax` parser step by step (Perl flags: `(?i)`-style groups, named
//! captures in both forms, `\pN` and `\p{Name}` classes, POSIX `[[:alpha:]]` classes, `\Q...\E`,
//! octal and hex escapes) without building the matcher: only what decides the verdict is kept
//! (the shape of the tree, for Go's limits on repeat counts, size and depth). What differs from
//! Rust's `regex` crate (both ways) is pinned by the table Go itself recorded
//! (`core/tests/patterns/verdicts.json`, written by `tools/go-regexp-record`).

use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

/// Why Go's `regexp.Compile` refuses a pattern: its error code and the part it quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Go's `syntax.ErrorCode`, e.g. `invalid nested repetition operator`.
    pub code: &'static str,
    /// The part of the pattern the error is about, e.g. `++`.
    pub expr: String,
}

impl fmt::Display for Error {
    /// Go's wording: ``error parsing regexp: invalid nested repetition operator: `++` ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

const INVALID_CHAR_RANGE: &str = "invalid character class range";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const MISSING_BRACKET: &str = "missing closing ]";
const MISSING_PAREN: &str = "missing closing )";
const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const UNEXPECTED_PAREN: &str = "unexpected )";
const NESTING_DEPTH: &str = "expression nests too deeply";
const LARGE: &str = "expression too large";

/// Go's limits: a repeat count, the parse tree's height, the compiled program's size.
const MAX_REPEAT: i32 = 1000;
const MAX_HEIGHT: usize = 1000;
const MAX_SIZE: u64 = (128 << 20) / 40;

fn error(code: &'static str, expr: &str) -> Error {
    Error {
        code,
        expr: expr.to_string(),
    }
}

/// `Ok` when Go's `regexp.Compile` accepts `pattern`, else Go's error.
pub fn compile(pattern: &str) -> Result<(), Error> {
    let tree = Parser::new(pattern).parse()?;
    if size(&tree) > MAX_SIZE {
        return Err(error(LARGE, pattern));
    }
    if height(&tree) > MAX_HEIGHT {
        return Err(error(NESTING_DEPTH, pattern));
    }
    Ok(())
}

/// What the parse keeps of a regexp: its shape.
#[derive(Debug)]
enum Node {
    /// Matches the empty string.
    Empty,
    /// A run of this many literal characters.
    Literal(u64),
    /// A character class, `.`, or an empty-width assertion (`^`, `\b`, ...).
    Leaf,
    Capture(Box<Node>),
    /// `*` (0, -1), `+` (1, -1), `?` (0, 1) or `{min,max}`.
    Repeat {
        /// `{n,m}` rather than `*`, `+` or `?`.
        counted: bool,
        min: i32,
        /// -1 for no upper bound.
        max: i32,
        sub: Box<Node>,
    },
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
}

/// An open group (or the whole pattern): the finished branches and the current one.
struct Frame {
    capture: bool,
    branches: Vec<Node>,
    current: Vec<Node>,
}

impl Frame {
    fn new(capture: bool) -> Frame {
        Frame {
            capture,
            branches: Vec::new(),
            current: Vec::new(),
        }
    }

    /// The frame's regexp: its branches' alternation, each branch's concatenation.
    fn finish(mut self) -> Node {
        self.branches.push(concat(self.current));
        if self.branches.len() == 1 {
            self.branches.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alternate(self.branches)
        }
    }
}

fn concat(items: Vec<Node>) -> Node {
    let mut merged: Vec<Node> = Vec::new();
    for item in items {
        match (merged.last_mut(), item) {
            (Some(Node::Literal(n)), Node::Literal(m)) => *n += m,
            (_, item) => merged.push(item),
        }
    }
    match merged.len() {
        0 => Node::Empty,
        1 => merged.pop().unwrap_or(Node::Empty),
        _ => Node::Concat(merged),
    }
}

struct Parser<'a> {
    whole: &'a str,
    frames: Vec<Frame>,
}

impl<'a> Parser<'a> {
    fn new(whole: &'a str) -> Self {
        Parser {
            whole,
            frames: vec![Frame::new(false)],
        }
    }

    fn push(&mut self, node: Node) {
        if let Some(frame) = self.frames.last_mut() {
            frame.current.push(node);
        }
    }

    /// The offset of `rest` (a tail of the pattern) in the pattern.
    // `rest.len()` <= `whole.len()`: `rest` is a tail of `whole`, so no underflow.
    fn at(&self, rest: &str) -> usize {
        self.whole.len() - rest.len()
    }

    fn parse(mut self) -> Result<Node, Error> {
        let mut t = self.whole;
        // Where the previous token began, when it was a repetition operator.
        let mut last_repeat: Option<usize> = None;
        loop {
            let mut chars = t.chars();
            let Some(c) = chars.next() else { break };
            // The text behind `c`.
            let after = chars.as_str();
            let start = self.at(t);
            let mut repeat = None;
            t = match c {
                '(' if after.starts_with('?') => self.perl_flags(t)?,
                '(' => {
                    self.frames.push(Frame::new(true));
                    after
                }
                '|' => {
                    if let Some(frame) = self.frames.last_mut() {
                        let branch = concat(std::mem::take(&mut frame.current));
                        frame.branches.push(branch);
                    }
                    after
                }
                ')' => {
                    if self.frames.len() < 2 {
                        return Err(error(UNEXPECTED_PAREN, self.whole));
                    }
                    let frame = self.frames.pop().unwrap_or_else(|| Frame::new(false));
                    let capture = frame.capture;
                    let node = frame.finish();
                    self.push(if capture {
                        Node::Capture(Box::new(node))
                    } else {
                        node
                    });
                    after
                }
                '^' | '$' | '.' => {
                    self.push(Node::Leaf);
                    after
                }
                '[' => self.class(t)?,
                '*' | '+' | '?' => {
                    let (min, max) = match c {
                        '*' => (0, -1),
                        '+' => (1, -1),
                        _ => (0, 1),
                    };
                    repeat = Some(start);
                    self.repeat(false, min, max, start, after, last_repeat)?
                }
                '{' => match parse_repeat(t) {
                    None => {
                        self.push(Node::Literal(1));
                        after
                    }
                    Some((min, max, after)) => {
                        if !(0..=MAX_REPEAT).contains(&min)
                            || max > MAX_REPEAT
                            || max >= 0 && min > max
                        {
                            let end = self.at(after);
                            // `start` and `end` are offsets `at` gave of two tails of
                            // `whole`, the later one second: character boundaries, in
                            // order (so in `repeat` too).
                            return Err(error(INVALID_REPEAT_SIZE, &self.whole[start..end]));
                        }
                        repeat = Some(start);
                        self.repeat(true, min, max, start, after, last_repeat)?
                    }
                },
                '\\' => self.escape(t)?,
                _ => {
                    self.push(Node::Literal(1));
                    after
                }
            };
            last_repeat = repeat;
        }
        if self.frames.len() != 1 {
            return Err(error(MISSING_PAREN, self.whole));
        }
        Ok(self
            .frames
            .pop()
            .map_or(Node::Empty, |frame| frame.finish()))
    }

    /// A repetition operator at `start`, `after` the text behind it: it applies to the last
    /// item, and may not follow another operator (`a**`, `a++`).
    fn repeat(
        &mut self,
        counted: bool,
        min: i32,
        max: i32,
        start: usize,
        after: &'a str,
        last_repeat: Option<usize>,
    ) -> Result<&'a str, Error> {
        let after = after.strip_prefix('?').unwrap_or(after);
        // `last`, `start` and `end` are offsets `at` gave of tails of `whole`, each later than
        // the one before: character boundaries, in order, for the cuts below.
        let end = self.at(after);
        if let Some(last) = last_repeat {
            return Err(error(INVALID_REPEAT_OP, &self.whole[last..end]));
        }
        let Some(sub) = self.frames.last_mut().and_then(|f| f.current.pop()) else {
            return Err(error(MISSING_REPEAT_ARGUMENT, &self.whole[start..end]));
        };
        let node = Node::Repeat {
            counted,
            min,
            max,
            sub: Box::new(sub),
        };
        if counted && (min >= 2 || max >= 2) && !repeat_is_valid(&node, MAX_REPEAT) {
            return Err(error(INVALID_REPEAT_SIZE, &self.whole[start..end]));
        }
        self.push(node);
        Ok(after)
    }

    /// `(?flags)`, `(?flags:...`, `(?P<name>...` and `(?<name>...`.
    fn perl_flags(&mut self, t: &'a str) -> Result<&'a str, Error> {
        let b = t.as_bytes();
        // `t` starts with `(?` (the caller matched it) and the lengths are checked first.
        // `end` is where `find` saw `>`, past the ASCII `(?<` or `(?P<`, so `begin <= end`
        // and both are boundaries; `t[2..]` cuts after `(?`, and `rest` is a tail of `t`.
        let with_p = b.len() > 4 && b[2] == b'P' && b[3] == b'<';
        let with_name = b.len() > 3 && b[2] == b'<';
        if with_p || with_name {
            let begin = if with_name { 3 } else { 4 };
            let Some(end) = t.find('>') else {
                return Err(error(INVALID_NAMED_CAPTURE, t));
            };
            let name = &t[begin..end];
            if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
                return Err(error(INVALID_NAMED_CAPTURE, &t[..=end]));
            }
            self.frames.push(Frame::new(true));
            return Ok(&t[end + 1..]);
        }
        let mut rest = &t[2..];
        let mut negated = false;
        let mut saw_flag = false;
        loop {
            let mut chars = rest.chars();
            let Some(c) = chars.next() else { break };
            rest = chars.as_str();
            match c {
                'i' | 'm' | 's' | 'U' => saw_flag = true,
                '-' if !negated => {
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' if !negated || saw_flag => {
                    if c == ':' {
                        self.frames.push(Frame::new(false));
                    }
                    return Ok(rest);
                }
                _ => break,
            }
        }
        Err(error(INVALID_PERL_OP, &t[..t.len() - rest.len()]))
    }

    /// A backslash outside a class: an assertion, `\Q...\E`, a class, or one character.
    fn escape(&mut self, t: &'a str) -> Result<&'a str, Error> {
        let mut chars = t.chars();
        // The backslash.
        chars.next();
        let body = chars.as_str();
        if let Some(rest) = body.strip_prefix(['A', 'b', 'B', 'z']) {
            self.push(Node::Leaf);
            return Ok(rest);
        }
        if body.starts_with('C') {
            return Err(error(INVALID_ESCAPE, "\\C"));
        }
        if let Some(quoted) = body.strip_prefix('Q') {
            let (quoted, rest) = quoted.split_once("\\E").unwrap_or((quoted, ""));
            for _ in quoted.chars() {
                self.push(Node::Literal(1));
            }
            return Ok(rest);
        }
        if let Some(rest) = unicode_class(t)?.or_else(|| perl_class(t)) {
            self.push(Node::Leaf);
            return Ok(rest);
        }
        let (_, rest) = parse_escape(t)?;
        self.push(Node::Literal(1));
        Ok(rest)
    }

    /// `[...]`: ranges, escapes, `\pN` and Perl classes, POSIX `[:name:]` classes.
    fn class(&mut self, s: &'a str) -> Result<&'a str, Error> {
        let mut chars = s.chars();
        // The `[`.
        chars.next();
        let mut t = chars.as_str();
        if let Some(rest) = t.strip_prefix('^') {
            t = rest;
        }
        let mut first = true;
        loop {
            // A `]` right at the start is a character, after that it closes the class.
            if !first && let Some(rest) = t.strip_prefix(']') {
                self.push(Node::Leaf);
                return Ok(rest);
            }
            first = false;
            if t.len() > 2
                && t.starts_with("[:")
                && let Some(rest) = posix_class(t)?
            {
                t = rest;
                continue;
            }
            if let Some(rest) = unicode_class(t)?.or_else(|| perl_class(t)) {
                t = rest;
                continue;
            }
            let range = t;
            let (lo, rest) = class_char(t, s)?;
            t = rest;
            if let Some(tail) = t.strip_prefix('-')
                && !tail.is_empty()
                && !tail.starts_with(']')
            {
                let (hi, rest) = class_char(tail, s)?;
                t = rest;
                if hi < lo {
                    // `t` is a tail of `range`: the cut is where `t` begins.
                    return Err(error(INVALID_CHAR_RANGE, &range[..range.len() - t.len()]));
                }
            }
        }
    }
}

/// `{n}`, `{n,}` or `{n,m}` at the start of `s`: min, max (-1: none, and min -1 when a number
/// is too big) and the rest; `None` when it is not one (then `{` is a literal).
fn parse_repeat(s: &str) -> Option<(i32, i32, &str)> {
    let s = s.strip_prefix('{')?;
    let (mut min, s) = parse_int(s)?;
    let (max, s) = match s.strip_prefix(',') {
        None => (min, s),
        Some(s) if s.starts_with('}') => (-1, s),
        Some(s) => {
            let (max, s) = parse_int(s)?;
            if max < 0 {
                min = -1;
            }
            (max, s)
        }
    };
    let rest = s.strip_prefix('}')?;
    Some((min, max, rest))
}

/// A decimal number without leading zeros (-1 when too big), and the rest.
fn parse_int(s: &str) -> Option<(i32, &str)> {
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits >= 2 && s.starts_with('0') {
        return None;
    }
    let (number, rest) = s.split_at_checked(digits)?;
    let mut n: i32 = 0;
    for b in number.bytes() {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i32::from(b - b'0');
    }
    Some((n, rest))
}

/// `\d`, `\D`, `\s`, `\S`, `\w` or `\W` at the start of `t`: the rest.
fn perl_class(t: &str) -> Option<&str> {
    t.strip_prefix('\\')?
        .strip_prefix(['d', 'D', 's', 'S', 'w', 'W'])
}

/// `\pN`, `\p{Name}`, `\p{^Name}` (or `\P...`) at the start of `s`: the rest, or `None` when `s`
/// does not start with `\p` or `\P`; a name Go does not know is an error.
fn unicode_class(s: &str) -> Result<Option<&str>, Error> {
    let Some(t) = s.strip_prefix("\\p").or_else(|| s.strip_prefix("\\P")) else {
        return Ok(None);
    };
    let mut chars = t.chars();
    let c = chars.next();
    let (seq, name, rest) = if c == Some('{') {
        let Some(end) = s.find('}') else {
            return Err(error(INVALID_CHAR_RANGE, s));
        };
        // `end` is where `find` saw `}`, past the ASCII `\p{`: 3 <= `end`, all boundaries.
        (&s[..=end], &s[3..end], &s[end + 1..])
    } else {
        let after = chars.as_str();
        // `after` is a tail of `s` behind `\p` and one character: `seq` holds at least
        // those two bytes.
        let seq = &s[..s.len() - after.len()];
        (seq, &seq[2..], after)
    };
    let name = name.strip_prefix('^').unwrap_or(name);
    if !unicode_names().contains(&canonical(name)) {
        return Err(error(INVALID_CHAR_RANGE, seq));
    }
    Ok(Some(rest))
}

/// The names Go's regexp knows in `\p{...}`, as Go compares them.
fn unicode_names() -> &'static HashSet<String> {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        include_str!("unicode_names.txt")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(canonical)
            .collect()
    })
}

/// A class name as Go looks it up: without `_`, `-` and spaces, the first letter upper case and
/// the others lower case (ASCII).
fn canonical(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().filter(|c| !matches!(c, '_' | '-' | ' ')) {
        if out.is_empty() {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// A POSIX class `[:name:]` (or `[:^name:]`) at the start of `t`: the rest; `None` when there is
/// no `:]` after it (the `[` is then a character).
fn posix_class(t: &str) -> Result<Option<&str>, Error> {
    const NAMES: [&str; 14] = [
        "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
        "space", "upper", "word", "xdigit",
    ];
    let Some(i) = t.strip_prefix("[:").and_then(|r| r.find(":]")) else {
        return Ok(None);
    };
    // `:]` starts at `i` in `t[2..]`: `i + 4` is a boundary within `t`, and `name` is `[:...:]`.
    let (name, rest) = t.split_at(i + 4);
    let inner = &name[2..name.len() - 2];
    if !NAMES.contains(&inner.strip_prefix('^').unwrap_or(inner)) {
        return Err(error(INVALID_CHAR_RANGE, name));
    }
    Ok(Some(rest))
}

/// One character of a class (escapes allowed) and the rest; the class must go on.
fn class_char<'a>(t: &'a str, class: &str) -> Result<(u32, &'a str), Error> {
    let mut chars = t.chars();
    match chars.next() {
        None => Err(error(MISSING_BRACKET, class)),
        Some('\\') => parse_escape(t),
        Some(c) => Ok((c as u32, chars.as_str())),
    }
}

/// A one-character escape at the start of `s` (`\n`, `\x41`, `\x{263a}`, `\101`, `\.`): the
/// character and the rest.
fn parse_escape(s: &str) -> Result<(u32, &str), Error> {
    // `t` is always a tail of `s`.
    let invalid = |t: &str| error(INVALID_ESCAPE, &s[..s.len() - t.len()]);
    let mut chars = s.chars();
    // The backslash.
    chars.next();
    let Some(c) = chars.next() else {
        return Err(error(TRAILING_BACKSLASH, ""));
    };
    let mut t = chars.as_str();
    let octal = |t: &str| {
        t.as_bytes()
            .first()
            .is_some_and(|b| (b'0'..=b'7').contains(b))
    };
    match c {
        // A lone digit would be a backreference, which Go does not have.
        '1'..='7' if !octal(t) => Err(invalid(t)),
        '0'..='7' => {
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                if !octal(t) {
                    break;
                }
                // `octal(t)` saw an ASCII first byte.
                r = r * 8 + u32::from(t.as_bytes()[0] - b'0');
                t = &t[1..];
            }
            Ok((r, t))
        }
        'x' => {
            let next = |t: &mut &str| {
                let mut chars = t.chars();
                let c = chars.next()?;
                *t = chars.as_str();
                Some(c)
            };
            let Some(c) = next(&mut t) else {
                return Err(invalid(t));
            };
            if c != '{' {
                let x = c.to_digit(16);
                let y = next(&mut t).and_then(|c| c.to_digit(16));
                return match (x, y) {
                    (Some(x), Some(y)) => Ok((x * 16 + y, t)),
                    _ => Err(invalid(t)),
                };
            }
            // Any number of hex digits in braces, at least one, at most U+10FFFF.
            let mut r = 0;
            let mut digits = 0;
            loop {
                match next(&mut t) {
                    Some('}') if digits > 0 => return Ok((r, t)),
                    Some(c) if c != '}' => match c.to_digit(16) {
                        Some(v) if r * 16 + v <= 0x10_FFFF => {
                            r = r * 16 + v;
                            digits += 1;
                        }
                        _ => return Err(invalid(t)),
                    },
                    _ => return Err(invalid(t)),
                }
            }
        }
        'a' => Ok((7, t)),
        'f' => Ok((12, t)),
        'n' => Ok((10, t)),
        'r' => Ok((13, t)),
        't' => Ok((9, t)),
        'v' => Ok((11, t)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c as u32, t)),
        _ => Err(invalid(t)),
    }
}

/// Go's rule against repeat counts that multiply past 1000 (`(a{100}){100}`).
fn repeat_is_valid(node: &Node, mut n: i32) -> bool {
    if let Node::Repeat {
        counted: true,
        min,
        max,
        ..
    } = node
    {
        let m = if *max < 0 { *min } else { *max };
        if *max == 0 {
            return true;
        }
        if m > n {
            return false;
        }
        if m > 0 {
            n /= m;
        }
    }
    children(node).all(|sub| repeat_is_valid(sub, n))
}

fn children(node: &Node) -> Box<dyn Iterator<Item = &Node> + '_> {
    match node {
        Node::Capture(sub) | Node::Repeat { sub, .. } => Box::new(std::iter::once(&**sub)),
        Node::Concat(subs) | Node::Alternate(subs) => Box::new(subs.iter()),
        Node::Empty | Node::Literal(_) | Node::Leaf => Box::new(std::iter::empty()),
    }
}

/// Go's estimate of the compiled program's size, in instructions.
fn size(node: &Node) -> u64 {
    let s = match node {
        Node::Literal(n) => *n,
        Node::Capture(sub) => 2 + size(sub),
        // `*` may take two instructions, `+` and `?` one.
        Node::Repeat {
            counted: false,
            min: 0,
            max: -1,
            sub,
        } => 2 + size(sub),
        Node::Repeat {
            counted: false,
            sub,
            ..
        } => 1 + size(sub),
        Node::Repeat {
            counted: true,
            min,
            max,
            sub,
        } => {
            let sub = size(sub);
            match (*min as u64, *max) {
                (0, -1) => 2 + sub,
                (min, -1) => 1 + min.saturating_mul(sub),
                (min, max) => (max as u64).saturating_mul(sub) + (max as u64 - min),
            }
        }
        Node::Concat(subs) => subs.iter().map(size).fold(0, u64::saturating_add),
        Node::Alternate(subs) => {
            subs.iter().map(size).fold(0, u64::saturating_add) + subs.len() as u64 - 1
        }
        Node::Empty | Node::Leaf => 1,
    };
    s.max(1)
}

/// The parse tree's height.
fn height(node: &Node) -> usize {
    1 + children(node).map(height).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_error_wording() {
        let e = compile("a++").unwrap_err();
        assert_eq!(
            e.to_string(),
            "error parsing regexp: invalid nested repetition operator: `++`"
        );
    }

    #[test]
    fn names_are_matched_loosely() {
        assert_eq!(canonical("old_italic"), "Olditalic");
        assert_eq!(canonical("LC"), "Lc");
        assert!(compile(r"\p{Greek}\p{greek}\p{Old_Italic}\pL").is_ok());
        assert!(compile(r"\p{Klingon}").is_err());
    }
}
