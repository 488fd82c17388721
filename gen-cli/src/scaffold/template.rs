//! The templates under `gen-cli/templates/`, compiled into the binary, and their one
//! substitution: `{{key}}` is replaced by the value of `key`.

/// `template` with every `{{key}}` of `vars` replaced by its value.
///
/// # Panics
///
/// When a `{{...}}` is left over: a template and the code filling it disagree (a test renders
/// every template).
pub fn render(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in vars {
        out = out.replace(&format!("{{{{{key}}}}}"), value);
    }
    if let Some(start) = out.find("{{") {
        let end = out[start..].find("}}").map_or(out.len(), |e| start + e + 2);
        panic!("template placeholder {} has no value", &out[start..end]);
    }
    out
}

/// A template file, by its path under `gen-cli/templates/`.
macro_rules! template {
    ($path:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $path))
    };
}
pub(crate) use template;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_every_placeholder() {
        let out = render("{{a}}-{{b}}-{{a}}", &[("a", "x"), ("b", "y")]);
        assert_eq!(out, "x-y-x");
    }

    #[test]
    #[should_panic(expected = "template placeholder {{c}} has no value")]
    fn a_missing_value_is_a_bug() {
        render("{{a}} {{c}}", &[("a", "x")]);
    }
}
