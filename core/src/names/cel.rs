//! Property names as CEL sees them.

/// A property name as CEL sees it: names that are not CEL identifiers are escaped the way the
/// apiserver escapes them (`__dash__`, `__dot__`, `__slash__`, `__underscores__`, and
/// `__keyword__` for CEL reserved words); a name it cannot escape stays as it is.
pub fn cel_field(name: &str) -> String {
    cel_name(name).unwrap_or_else(|| name.to_string())
}

/// The name CEL knows a property by (`k8s.io/apiserver/pkg/cel`'s escaping), `None` for a
/// name it cannot escape (a leading digit, a character other than letters, digits, `_`, `.`,
/// `-` and `/`).
pub fn cel_name(name: &str) -> Option<String> {
    const RESERVED: [&str; 21] = [
        "true",
        "false",
        "null",
        "in",
        "as",
        "break",
        "const",
        "continue",
        "else",
        "for",
        "function",
        "if",
        "import",
        "let",
        "loop",
        "package",
        "namespace",
        "return",
        "var",
        "void",
        "while",
    ];
    if name.starts_with(|c: char| c.is_ascii_digit())
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'))
    {
        return None;
    }
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    Some(
        name.replace("__", "__underscores__")
            .replace('.', "__dot__")
            .replace('-', "__dash__")
            .replace('/', "__slash__"),
    )
}

#[cfg(test)]
mod tests {
    use super::cel_field;

    #[test]
    fn cel_names_are_escaped_like_the_apiserver() {
        assert_eq!(cel_field("foo"), "foo");
        assert_eq!(cel_field("x-y"), "x__dash__y");
        assert_eq!(cel_field("a.b/c"), "a__dot__b__slash__c");
        assert_eq!(cel_field("a__b"), "a__underscores__b");
        assert_eq!(cel_field("namespace"), "__namespace__");
        assert_eq!(cel_field("while"), "__while__");
        assert_eq!(super::cel_name("1x"), None);
    }
}
