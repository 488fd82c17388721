//! CEL rules: each `x-kubernetes-validations` rule must parse (feature `cel`; without it the
//! apiserver is the first to look).

/// Why `rule` is not valid CEL, if it is not.
#[cfg(feature = "cel")]
pub fn syntax_error(rule: &str) -> Option<String> {
    cel::parser::Parser::new()
        .enable_optional_syntax(true)
        .parse(rule)
        .err()
        .map(|e| format!("invalid CEL rule: {e}"))
}

/// Why `rule` is not valid CEL, if it is not (CEL checks are off: feature `cel`).
#[cfg(not(feature = "cel"))]
pub fn syntax_error(_rule: &str) -> Option<String> {
    None
}

#[cfg(all(test, feature = "cel"))]
mod tests {
    use super::syntax_error;

    #[test]
    fn kubernetes_rules_parse() {
        for ok in [
            "self.minReplicas <= self.replicas",
            "has(self.foo) ? self.foo.size() > 0 : true",
            "self.all(x, x.matches('^[a-z]+$'))",
            "oldSelf.optMap(o, o.size()).orValue(0) <= self.size()",
            "self.?foo.orValue('') != 'bar'",
            "!has(oldSelf.optionalString) || has(self.optionalString)",
        ] {
            assert_eq!(syntax_error(ok), None, "{ok}");
        }
        let e = syntax_error("self.a >").unwrap();
        assert!(e.starts_with("invalid CEL rule"), "{e}");
        assert!(syntax_error("self.a == 'open").is_some());
    }
}
