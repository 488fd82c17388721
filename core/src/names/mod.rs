//! The naming rules of Kubernetes objects, each written once: DNS labels and subdomains, API
//! groups and kinds ([`is_dns_label`], [`is_group`], [`is_kind`]), property names as CEL
//! escapes them ([`cel_name`]), Kubernetes version names and their priority ([`KubeVersion`],
//! [`kube_order`]), the plural of a kind as controller-gen computes it ([`pluralize`]), and the
//! name a misspelled one was meant to be ([`nearest`]), and the approval the API server asks of
//! a CRD in a Kubernetes group ([`approval_problem`]). The derive, `gen-cli`, the scaffold, CRD
//! assembly, webhooks and the checks all use these.

mod approval;
mod cel;
mod dns;
mod plural;
mod version;

pub use approval::{APPROVAL_ANNOTATION, approval_problem, is_protected_group};
pub use cel::{cel_field, cel_name};
pub use dns::{dashed, is_dns_label, is_dns_subdomain, is_dns1035_label, is_group, is_kind};
pub use plural::pluralize;
pub use version::{KubeVersion, Stability, kube_order};

/// How a "did you mean" ends a message: `. Did you mean `x`?` ([`did_you_mean`], and
/// darling's own wording); front ends turn it into a `help:`.
pub const SUGGESTION: &str = ". Did you mean `";

/// `. Did you mean `c`?` for the candidate `c` [`nearest`] to `input`, or nothing.
pub fn did_you_mean(input: &str, candidates: &[&str]) -> String {
    nearest(input, candidates)
        .map(|c| format!("{SUGGESTION}{c}`?"))
        .unwrap_or_default()
}

/// The candidate closest to `input`, if one is close enough to be what was meant (the "did you
/// mean" of every message).
pub fn nearest<'a>(input: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(input, c), *c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}
