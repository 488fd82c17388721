//! The emitter: block layout, indentation and line folding, after libyaml as ported in
//! go-yaml v2 (`emitterc.go`), driven the way yaml.v2's encoder drives it.
//!
//! The emitter keeps libyaml's state: the current column (counted in characters), the
//! indentation stack, and the `whitespace` / `indention` flags that decide whether a space
//! or a line break must be written before the next token. Settings are yaml.v2's: indent 2,
//! best width 80, unicode output, block collections, and block sequences that are not
//! indented inside a mapping.
//!
//! Folding: while writing a plain or quoted scalar that is not an inline mapping key, a
//! space reached when the column is already past 80 becomes a line break followed by the
//! scalar's indentation (the parent's indent + 2), provided the previous character was not
//! a space (and, for plain and single-quoted text, the next one is not a space). Literal
//! blocks are never folded, and text without spaces cannot be.

use serde_json::{Map, Value};

use super::number::format_number;
use super::order::sort_by_key_order;
use super::scalar::{
    Analysis, Style, analyze, is_break, is_printable, is_space, requested_style, select_style,
};

/// libyaml `best_indent`.
const INDENT: isize = 2;
/// libyaml `best_width`: folding starts once the column is past this.
const WIDTH: usize = 80;
/// libyaml writes a mapping key inline (`key: value`) only up to this many bytes.
const MAX_SIMPLE_KEY_LEN: usize = 128;

/// Where a node sits, as libyaml's emitter tracks it.
#[derive(Debug, Clone, Copy)]
struct Context {
    /// The node is a mapping key or value.
    mapping: bool,
    /// The node is a mapping key written inline, before `: `.
    simple_key: bool,
}

impl Context {
    const ROOT: Context = Context {
        mapping: false,
        simple_key: false,
    };
    const SEQUENCE_ITEM: Context = Context {
        mapping: false,
        simple_key: false,
    };
    const MAPPING_VALUE: Context = Context {
        mapping: true,
        simple_key: false,
    };
    const SIMPLE_KEY: Context = Context {
        mapping: true,
        simple_key: true,
    };
}

/// Renders one document (no `---`), ending with a line break.
pub(crate) fn document(value: &Value) -> String {
    let mut emitter = Emitter::new();
    emitter.node(value, Context::ROOT);
    // DOCUMENT-END: finish the last line.
    emitter.write_indent();
    emitter.out
}

/// A single-document libyaml emitter writing into a string.
struct Emitter {
    out: String,
    /// Characters written on the current line.
    column: usize,
    /// The current indentation; -1 before the root node.
    indent: isize,
    /// The last character written is whitespace (no separating space needed).
    whitespace: bool,
    /// Only indentation has been written on the current line so far.
    indention: bool,
}

impl Emitter {
    fn new() -> Self {
        Emitter {
            out: String::new(),
            column: 0,
            indent: -1,
            whitespace: true,
            indention: true,
        }
    }

    fn node(&mut self, value: &Value, ctx: Context) {
        match value {
            Value::Null => self.plain_token("null", ctx),
            Value::Bool(b) => self.plain_token(if *b { "true" } else { "false" }, ctx),
            Value::Number(n) => self.plain_token(&format_number(n), ctx),
            Value::String(s) => self.scalar(s, requested_style(s), &analyze(s), ctx),
            Value::Array(items) if items.is_empty() => self.empty_collection("[", "]"),
            Value::Array(items) => self.sequence(items, ctx),
            Value::Object(map) if map.is_empty() => self.empty_collection("{", "}"),
            Value::Object(map) => self.mapping(map),
        }
    }

    /// A null, bool or number: yaml.v2 asks for a plain scalar.
    fn plain_token(&mut self, text: &str, ctx: Context) {
        self.scalar(text, Style::Plain, &analyze(text), ctx);
    }

    /// `[]` or `{}`: libyaml writes empty collections in flow style.
    fn empty_collection(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    fn sequence(&mut self, items: &[Value], ctx: Context) {
        let saved = self.indent;
        // A sequence that is a mapping value (after `key:`) is not indented.
        self.increase_indent(false, ctx.mapping && !self.indention);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::SEQUENCE_ITEM);
        }
        self.indent = saved;
    }

    fn mapping(&mut self, map: &Map<String, Value>) {
        let mut entries: Vec<(&String, &Value)> = map.iter().collect();
        sort_by_key_order(&mut entries, |(k, _)| k.as_str());

        let saved = self.indent;
        self.increase_indent(false, false);
        for (key, value) in entries {
            self.write_indent();
            let analysis = analyze(key);
            if !analysis.multiline && key.len() <= MAX_SIMPLE_KEY_LEN {
                self.scalar(key, requested_style(key), &analysis, Context::SIMPLE_KEY);
                self.write_indicator(":", false, false, false);
            } else {
                // A complex key: `? key` on its own, then `: value`.
                self.write_indicator("?", true, false, true);
                self.scalar(key, requested_style(key), &analysis, Context::MAPPING_VALUE);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, Context::MAPPING_VALUE);
        }
        self.indent = saved;
    }

    fn scalar(&mut self, text: &str, requested: Style, analysis: &Analysis, ctx: Context) {
        let style = select_style(requested, text, analysis, ctx.simple_key);
        let chars: Vec<char> = text.chars().collect();
        let allow_breaks = !ctx.simple_key;
        let saved = self.indent;
        self.increase_indent(true, false);
        match style {
            Style::Plain => self.write_plain(&chars, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(&chars, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(&chars, allow_breaks),
            Style::Literal => self.write_literal(&chars),
        }
        self.indent = saved;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        if self.indent < 0 {
            self.indent = if flow { INDENT } else { 0 };
        } else if !indentless {
            self.indent += INDENT;
        }
    }

    // --- low-level writers (libyaml `put`, `write`, `write_indent`, ...) ---

    /// Writes an ASCII character.
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    /// Copies a character of the scalar.
    fn write(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0).unsigned_abs();
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.write(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn write_plain(&mut self, v: &[char], allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let mut spaces = false;
        let mut breaks = false;
        for (i, &c) in v.iter().enumerate() {
            if is_space(c) {
                let next_is_space = v.get(i + 1).is_some_and(|n| is_space(*n));
                if allow_breaks && !spaces && self.column > WIDTH && !next_is_space {
                    self.write_indent();
                } else {
                    self.write(c);
                }
                spaces = true;
            } else if c == '\n' {
                // LF is the only break a plain or single-quoted scalar holds (the others make
                // the text double-quoted: `analyze`); it is written twice (folding).
                if !breaks {
                    self.put_break();
                }
                self.put_break();
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, v: &[char], allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let mut spaces = false;
        let mut breaks = false;
        for (i, &c) in v.iter().enumerate() {
            if is_space(c) {
                let inner = i > 0 && v.get(i + 1).is_some_and(|next| !is_space(*next));
                if allow_breaks && !spaces && self.column > WIDTH && inner {
                    self.write_indent();
                } else {
                    self.write(c);
                }
                spaces = true;
            } else if c == '\n' {
                // LF is the only break a plain or single-quoted scalar holds (the others make
                // the text double-quoted: `analyze`); it is written twice (folding).
                if !breaks {
                    self.put_break();
                }
                self.put_break();
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.write(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, v: &[char], allow_breaks: bool) {
        // libyaml's BOM test looks at the start of the string, not at the current
        // character: a string that starts with U+FEFF has every character escaped.
        let starts_with_bom = v.first() == Some(&'\u{FEFF}');
        self.write_indicator("\"", true, false, false);
        let mut spaces = false;
        for (i, &c) in v.iter().enumerate() {
            if !is_printable(c) || starts_with_bom || is_break(c) || c == '"' || c == '\\' {
                self.write_escape(c);
                spaces = false;
            } else if is_space(c) {
                if allow_breaks && !spaces && self.column > WIDTH && i > 0 && i + 1 < v.len() {
                    self.write_indent();
                    // A space right after the fold would be eaten by the reader: escape it.
                    if v.get(i + 1).is_some_and(|next| is_space(*next)) {
                        self.put('\\');
                    }
                } else {
                    self.write(c);
                }
                spaces = true;
            } else {
                self.write(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// A double-quoted escape sequence, as libyaml spells it.
    fn write_escape(&mut self, c: char) {
        self.put('\\');
        let short = match c {
            '\0' => Some('0'),
            '\u{7}' => Some('a'),
            '\u{8}' => Some('b'),
            '\t' => Some('t'),
            '\n' => Some('n'),
            '\u{B}' => Some('v'),
            '\u{C}' => Some('f'),
            '\r' => Some('r'),
            '\u{1B}' => Some('e'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            '\u{85}' => Some('N'),
            '\u{A0}' => Some('_'),
            '\u{2028}' => Some('L'),
            '\u{2029}' => Some('P'),
            _ => None,
        };
        if let Some(s) = short {
            self.put(s);
            return;
        }
        let code = u32::from(c);
        let (prefix, digits) = match code {
            0..=0xFF => ('x', 2),
            0x100..=0xFFFF => ('u', 4),
            _ => ('U', 8),
        };
        self.put(prefix);
        for k in (0..digits).rev() {
            let digit = (code >> (4 * k)) & 0xF;
            self.put(char::from_digit(digit, 16).map_or('0', |d| d.to_ascii_uppercase()));
        }
    }

    fn write_literal(&mut self, v: &[char]) {
        self.write_indicator("|", true, false, false);
        self.write_block_scalar_hints(v);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in v {
            // LF is the only break a literal block holds (`analyze`).
            if c == '\n' {
                self.put_break();
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// The indentation indicator (when the text starts with a space or a break) and the
    /// chomping indicator: `-` without a final break, none for exactly one, `+` for more.
    fn write_block_scalar_hints(&mut self, v: &[char]) {
        if v.first().is_some_and(|c| is_space(*c) || is_break(*c)) {
            let hint = char::from_digit(INDENT.unsigned_abs() as u32, 10).unwrap_or('2');
            self.write_indicator(&hint.to_string(), false, false, false);
        }
        let chomp = match v {
            [] => Some('-'),
            [.., last] if !is_break(*last) => Some('-'),
            [_] => Some('+'),
            [.., before, _] if is_break(*before) => Some('+'),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(&chomp.to_string(), false, false, false);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Expected texts were produced by yaml.v2 v2.4.0 (JSON → `yaml.Unmarshal` →
    //! `yaml.Marshal`) on the same values, but for the one departure (`escapes_and_unicode`).

    use super::document;
    use serde_json::json;

    #[test]
    fn block_layout() {
        let value = json!({"spec": {
            "versions": [
                {"name": "v1", "served": true, "additionalPrinterColumns": [], "schema": {}},
                {"name": "v2", "x": null}
            ],
            "matrix": [[1, 2], [], [[3]]],
            "n": [1.5, -0.5, 5.0, 1e21]
        }});
        assert_eq!(
            document(&value),
            "spec:
  matrix:
  - - 1
    - 2
  - []
  - - - 3
  \"n\":
  - 1.5
  - -0.5
  - 5
  - 1e+21
  versions:
  - additionalPrinterColumns: []
    name: v1
    schema: {}
    served: true
  - name: v2
    x: null
"
        );
    }

    #[test]
    fn root_values() {
        assert_eq!(document(&json!("abc")), "abc\n");
        assert_eq!(document(&json!("a\nb")), "|-\n  a\n  b\n");
        assert_eq!(document(&json!("")), "\"\"\n");
        assert_eq!(document(&json!(null)), "null\n");
        assert_eq!(document(&json!([])), "[]\n");
        assert_eq!(document(&json!({})), "{}\n");
        assert_eq!(document(&json!(["a", {"b": 1}])), "- a\n- b: 1\n");
    }

    const LONG: &str = "This is a long description that will certainly need to be folded because it is longer than eighty characters.";

    #[test]
    fn plain_scalars_fold_past_column_80() {
        let value = json!({
            "description": LONG,
            "list": [LONG],
            "deep": {"deeper": {"deepest": LONG}}
        });
        assert_eq!(
            document(&value),
            "deep:
  deeper:
    deepest: This is a long description that will certainly need to be folded because
      it is longer than eighty characters.
description: This is a long description that will certainly need to be folded because
  it is longer than eighty characters.
list:
- This is a long description that will certainly need to be folded because it is longer
  than eighty characters.
"
        );
    }

    #[test]
    fn quoted_scalars_fold_too() {
        let value = json!({
            "single": format!("*{LONG}"),
            "double": "This is a long description\twith a tab that will certainly need to be folded because  it is longer than eighty characters.",
            "double2": format!("{}\t  two spaces", "x".repeat(80)),
        });
        assert_eq!(
            document(&value),
            format!(
                "double: \"This is a long description\\twith a tab that will certainly need to be folded
  because  it is longer than eighty characters.\"
double2: \"{}\\t
  \\ two spaces\"
single: '*This is a long description that will certainly need to be folded because
  it is longer than eighty characters.'
",
                "x".repeat(80)
            )
        );
    }

    #[test]
    fn tokens_without_spaces_are_never_folded() {
        let url = format!("https://example.com/{}", "a".repeat(100));
        assert_eq!(
            document(&json!({"pattern": url})),
            format!("pattern: {url}\n")
        );
    }

    #[test]
    fn literal_blocks_and_their_indicators() {
        let value = json!({
            "strip": "a\nb", "clip": "a\nb\n", "keep": "a\nb\n\n", "indented": " a\nb",
            "nl": "\n", "blank": "a\n\nb", "space_break": "a \nb"
        });
        assert_eq!(
            document(&value),
            "blank: |-
  a

  b
clip: |
  a
  b
indented: |2-
   a
  b
keep: |+
  a
  b

nl: |2+

space_break: \"a \\nb\"
strip: |-
  a
  b
"
        );
    }

    #[test]
    fn keys_quoting_and_complex_keys() {
        let long_key = "k".repeat(129);
        let value = json!({
            long_key.clone(): "v", "multi\nline": ["x"], "200": "", "": "true", "a b: c": "1:20"
        });
        assert_eq!(
            document(&value),
            format!(
                "\"\": \"true\"
\"200\": \"\"
'a b: c': \"1:20\"
? {long_key}
: v
? |-
  multi
  line
: - x
"
            )
        );
        // 128 bytes still fit an inline key.
        let key = "k".repeat(128);
        assert_eq!(document(&json!({key.clone(): 1})), format!("{key}: 1\n"));
    }

    #[test]
    fn escapes_and_unicode() {
        // A string starting with a BOM has every character escaped (libyaml tests the BOM
        // at the start of the string); characters beyond the BMP are escaped; a Unicode
        // line separator is escaped (yaml.v2 writes it raw, which YAML 1.2 readers read
        // otherwise: see `scalar::analyze`).
        let value = json!({
            "bom": "\u{FEFF}ab c", "emoji": "smile 😀", "nbsp": "a\u{A0}b", "ls": "a\u{2028}b",
            "quote": "aren’t"
        });
        assert_eq!(
            document(&value),
            "bom: \"\\uFEFF\\x61\\x62\\x20\\x63\"
emoji: \"smile \\U0001F600\"
ls: \"a\\Lb\"
nbsp: a\u{A0}b
quote: aren’t
"
        );
    }
}
