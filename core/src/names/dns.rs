//! DNS names as the API server checks them (RFC 1123 labels and subdomains, RFC 1035 labels),
//! API groups and kinds.

/// RFC 1123 label: lowercase alphanumerics and `-`, 1–63 characters, alphanumeric at both ends.
pub fn is_dns_label(s: &str) -> bool {
    s.len() <= 63 && is_label_shaped(s)
}

/// Lowercase alphanumerics and `-`, at least one, alphanumeric at both ends (the API server's
/// `dns1123LabelFmt`, with no length of its own).
pub(crate) fn is_label_shaped(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// RFC 1035 label: an RFC 1123 label that starts with a letter (the apiserver's rule for
/// versions, plurals, singulars, short names, categories and lowercased kinds).
pub fn is_dns1035_label(s: &str) -> bool {
    is_dns_label(s) && s.starts_with(|c: char| c.is_ascii_lowercase())
}

/// RFC 1123 subdomain as the API server checks it: dot-separated labels, at most 253
/// characters in all (a label may be longer than 63 here: `IsDNS1123Subdomain` only checks the
/// whole length).
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_label_shaped)
}

/// `s` in lowercase ASCII letters and digits, each run of other characters one `-`, none at
/// either end (`My__Operator.` → `my-operator`): a DNS label's characters, not its length.
pub fn dashed(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c.is_ascii_alphanumeric() {
            true => out.push(c.to_ascii_lowercase()),
            false if !out.is_empty() && !out.ends_with('-') => out.push('-'),
            false => {}
        }
    }
    let trimmed = out.trim_end_matches('-').len();
    out.truncate(trimmed);
    out
}

/// An API group: a DNS subdomain with at least one dot (`cache.example.com`).
pub fn is_group(s: &str) -> bool {
    is_dns_subdomain(s) && s.contains('.')
}

/// A kind as kubegen takes it: CamelCase ASCII letters and digits, as a Rust type is named (the
/// apiserver only asks that its lower case is an RFC 1035 label).
pub fn is_kind(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_at_most_63_characters_subdomains_253_in_all() {
        let label = |n| "a".repeat(n);
        assert!(is_dns_label(&label(63)));
        assert!(!is_dns_label(&label(64)));
        // The API server's `IsDNS1123Subdomain` checks only the whole length.
        assert!(is_dns_subdomain(&label(64)));
        assert!(is_dns_subdomain(&format!("{}.example.com", label(100))));
        assert!(is_dns_subdomain(&label(253)));
        assert!(!is_dns_subdomain(&label(254)));
    }

    #[test]
    fn names_are_lowercase_alphanumerics_and_dashes_with_alphanumeric_ends() {
        for good in ["a", "a-b", "0abc", "cache.example.com", "x-1.y-2"] {
            assert!(is_dns_subdomain(good), "{good}");
        }
        for bad in ["", "A", "a_b", "-a", "a-", "a..b", ".a", "a.", "a.-b"] {
            assert!(!is_dns_subdomain(bad), "{bad}");
        }
        assert!(is_dns1035_label("v1") && !is_dns1035_label("1v"));
        assert!(is_group("cache.example.com") && !is_group("cache"));
    }

    #[test]
    fn dashed_keeps_letters_and_digits_and_one_dash_between_runs() {
        assert_eq!(dashed("My__Operator."), "my-operator");
        assert_eq!(dashed("CronJob.spec.x[*]"), "cronjob-spec-x");
        assert_eq!(dashed("Ölmotor"), "lmotor");
        assert_eq!(dashed("_"), "");
    }
}
