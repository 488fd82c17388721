//! Scalar style choice: plain, single-quoted, double-quoted or literal block.
//!
//! Two steps, as in yaml.v2:
//! 1. the encoder (`encode.go: stringv`) asks for a literal block when the string contains
//!    `\n`, for double quotes when the plain text would resolve to a non-string
//!    ([`super::resolve`]), and for a plain scalar otherwise;
//! 2. the emitter (`emitterc.go: yaml_emitter_analyze_scalar` and
//!    `yaml_emitter_select_scalar_style`) downgrades that request when the text does not
//!    allow it: plain → single quotes → double quotes, literal → double quotes.
//!
//! All scalars here are block-context scalars: kubegen never writes a flow collection
//! with content (only `[]` and `{}`), so libyaml's flow-context rules do not apply.

use super::resolve::needs_quotes;

/// A scalar presentation style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// Unquoted text.
    Plain,
    /// `'text'`, with `'` doubled.
    SingleQuoted,
    /// `"text"`, with backslash escapes.
    DoubleQuoted,
    /// `|` block, with chomping and indentation indicators as needed.
    Literal,
}

/// The style yaml.v2's encoder asks for when writing a string.
pub(crate) fn requested_style(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else if needs_quotes(s) {
        Style::DoubleQuoted
    } else {
        Style::Plain
    }
}

/// What libyaml learns about a scalar's text before choosing its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Analysis {
    /// The text contains a line break.
    pub(crate) multiline: bool,
    /// The text may be written plain in block context.
    pub(crate) block_plain_allowed: bool,
    /// The text may be single-quoted.
    pub(crate) single_quoted_allowed: bool,
    /// The text may be written as a literal (or folded) block.
    pub(crate) block_allowed: bool,
}

/// libyaml `yaml_emitter_analyze_scalar`, with unicode output enabled, and one departure:
/// a line or paragraph separator (U+2028, U+2029) is a special character, so the text is
/// double-quoted and the separator escaped (`\L`, `\P`). yaml.v2 writes it raw, in single
/// quotes or a literal block, as a line break followed by the indentation: YAML 1.1 readers
/// (yaml.v2, yaml.v3, libyaml) take it for a break and drop the indentation, YAML 1.2 readers
/// (serde-saphyr, what kube-rs reads YAML with) keep the indentation as text or refuse a
/// literal block. The escaped form reads back the same in both.
pub(crate) fn analyze(s: &str) -> Analysis {
    if s.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let chars: Vec<char> = s.chars().collect();
    let mut block_indicators = s.starts_with("---") || s.starts_with("...");
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut preceded_by_whitespace = true;
    let mut previous_space = false;
    let mut previous_break = false;

    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = chars.get(i + 1).is_none_or(|n| is_blank(*n));
        let last = i + 1 == chars.len();
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }

        if !is_printable(c) || is_unicode_separator(c) {
            special_characters = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blankz(c);
    }

    let mut analysis = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        analysis.block_plain_allowed = false;
    }
    if trailing_space {
        analysis.block_allowed = false;
    }
    if break_space {
        analysis.block_plain_allowed = false;
        analysis.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        analysis.block_plain_allowed = false;
        analysis.single_quoted_allowed = false;
        analysis.block_allowed = false;
    }
    if line_breaks || block_indicators {
        analysis.block_plain_allowed = false;
    }
    analysis
}

/// libyaml `yaml_emitter_select_scalar_style` for an untagged block-context scalar.
/// `simple_key` is true for a mapping key written inline (`key: value`).
pub(crate) fn select_style(
    requested: Style,
    text: &str,
    analysis: &Analysis,
    simple_key: bool,
) -> Style {
    let mut style = requested;
    if simple_key && analysis.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain && (!analysis.block_plain_allowed || (text.is_empty() && simple_key)) {
        style = Style::SingleQuoted;
    }
    if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
        style = Style::DoubleQuoted;
    }
    if style == Style::Literal && (!analysis.block_allowed || simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

/// libyaml `is_space`.
pub(crate) fn is_space(c: char) -> bool {
    c == ' '
}

/// libyaml `is_blank`: space or tab.
pub(crate) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// libyaml `is_break`: CR, LF, NEL, LS, PS.
pub(crate) fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// U+2028 (line separator) or U+2029 (paragraph separator): a line break for YAML 1.1, text
/// for YAML 1.2.
fn is_unicode_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// libyaml `is_blankz`: blank, break or NUL.
fn is_blankz(c: char) -> bool {
    is_blank(c) || is_break(c) || c == '\0'
}

/// libyaml `is_printable`: LF, printable ASCII, U+00A0..U+D7FF and U+E000..U+FFFD except
/// the BOM. Tabs, other control characters and everything beyond the BMP (emoji) are not.
pub(crate) fn is_printable(c: char) -> bool {
    matches!(c, '\n' | '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        && c != '\u{FEFF}'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The style a string value (not a key) gets.
    fn value_style(s: &str) -> Style {
        select_style(requested_style(s), s, &analyze(s), false)
    }

    /// The style a string mapping key gets when written inline.
    fn key_style(s: &str) -> Style {
        select_style(requested_style(s), s, &analyze(s), true)
    }

    #[test]
    fn ordinary_text_is_plain() {
        for s in [
            "string",
            "CronJob is the Schema for the cronjobs API",
            "https://example.com/a#b",
            "a:b",
            "-foo",
            ":foo",
            "?x",
            "foo#bar",
            "a,b[c]{d}",
            "aren’t",
            "<<<",
            "a'b",
            "a\"b",
            "..x",
        ] {
            assert_eq!(value_style(s), Style::Plain, "{s:?}");
        }
    }

    #[test]
    fn indicators_and_edge_spaces_single_quote() {
        for s in [
            "*",
            "{}",
            "[]",
            "!has(self.x)",
            "&a",
            "'q'",
            "\"q\"",
            "%x",
            "@x",
            "`x`",
            "|x",
            ">x",
            "#x",
            ",x",
            "- x",
            "-",
            ": x",
            "?",
            "? x",
            "a #b",
            "a: b",
            "a:",
            " a",
            "a ",
            "---x",
            "...",
            "...x",
        ] {
            assert_eq!(value_style(s), Style::SingleQuoted, "{s:?}");
        }
    }

    #[test]
    fn values_that_resolve_otherwise_double_quote() {
        for s in [
            "124",
            "true",
            "",
            "null",
            "~",
            "1:20",
            "1.5",
            "0x1F",
            "2001-12-14",
            "yes",
        ] {
            assert_eq!(value_style(s), Style::DoubleQuoted, "{s:?}");
        }
    }

    #[test]
    fn multiline_text_is_literal_unless_not_allowed() {
        assert_eq!(value_style("a\nb"), Style::Literal);
        assert_eq!(value_style("a\n"), Style::Literal);
        assert_eq!(value_style(" a\nb"), Style::Literal); // indentation indicator, not quotes
        assert_eq!(value_style("a\n b"), Style::Literal); // a break followed by a space
        assert_eq!(value_style("a \nb"), Style::DoubleQuoted); // a space before a break
        assert_eq!(value_style("a\nb "), Style::DoubleQuoted); // trailing space
        assert_eq!(value_style("a\n\tb"), Style::DoubleQuoted); // tab: not printable
    }

    #[test]
    fn special_characters_double_quote() {
        for s in [
            "a\tb",
            "bell\u{7}",
            "emoji 😀",
            "\u{FEFF}bom",
            "del\u{7F}",
            "cr\rlf",
        ] {
            assert_eq!(value_style(s), Style::DoubleQuoted, "{s:?}");
        }
        // Line and paragraph separators are escaped, also in text that would be a literal
        // block (yaml.v2 writes them raw: see `analyze`).
        for s in ["a\u{2028}b", "a\u{2029}", "a\nb\u{2028}", "\u{2029}\n"] {
            assert_eq!(value_style(s), Style::DoubleQuoted, "{s:?}");
        }
    }

    #[test]
    fn keys() {
        assert_eq!(key_style("description"), Style::Plain);
        assert_eq!(
            key_style("x-kubernetes-preserve-unknown-fields"),
            Style::Plain
        );
        assert_eq!(key_style(""), Style::DoubleQuoted);
        assert_eq!(key_style("200"), Style::DoubleQuoted);
        assert_eq!(key_style("a b: c"), Style::SingleQuoted);
        assert_eq!(key_style("a\nb"), Style::DoubleQuoted);
    }

    #[test]
    fn analysis_flags() {
        let a = analyze("a\n b");
        assert!(a.multiline && a.block_allowed && !a.single_quoted_allowed);
        let a = analyze("plain");
        assert!(!a.multiline && a.block_plain_allowed && a.single_quoted_allowed);
        let a = analyze("");
        assert!(a.block_plain_allowed && !a.block_allowed);
    }
}
