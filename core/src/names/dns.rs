//! DNS names as the API server checks them (RFC 1123 labels and subdomains, RFC 1035 labels),
//! API groups and kinds.

/// RFC 1123 label: lowercase alphanumerics and `-`, 1–63 characters, alphanumeric at both ends.
pub fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
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

/// RFC 1123 subdomain: dot-separated labels, at most 253 characters.
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_dns_label)
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
