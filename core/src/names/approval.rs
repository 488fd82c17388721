//! Protected API groups, as the API server's CRD validation has them (apiextensions'
//! `validateAPIApproval`): a CRD whose group is `k8s.io`, `kubernetes.io` or a subdomain of
//! either is refused without the annotation [`APPROVAL_ANNOTATION`], whose value must be a URL (the
//! pull request of the API review that approved it) or start with `unapproved`.

/// The approval annotation.
pub const APPROVAL_ANNOTATION: &str = "api-approved.kubernetes.io";

/// Whether `group` belongs to the Kubernetes project (`*.k8s.io`, `*.kubernetes.io`).
pub fn is_protected_group(group: &str) -> bool {
    ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|root| group == *root || group.strip_suffix(root).is_some_and(|g| g.ends_with('.')))
}

/// Why the API server refuses the CRD of `group` whose approval annotation is `approval`, if
/// it does: its reason, and the fix.
pub fn approval_problem(group: &str, approval: Option<&str>) -> Option<String> {
    if !is_protected_group(group) {
        return None;
    }
    let approval = approval.unwrap_or_default();
    let fix = format!(
        "give the pull request of its API review, `annotations = \"{APPROVAL_ANNOTATION}=https://github.com/kubernetes/enhancements/pull/NNNN\"`, \
         or a reason starting with `unapproved`, `annotations = \"{APPROVAL_ANNOTATION}=unapproved, <reason>\"`"
    );
    if approval.is_empty() {
        Some(format!(
            "group `{group}` is protected (`*.k8s.io`, `*.kubernetes.io`): the API server \
             refuses its CRD without the annotation `{APPROVAL_ANNOTATION}` (protected groups must have \
             approval annotation); {fix}"
        ))
    } else if approval.starts_with("unapproved") || is_url(approval) {
        None
    } else {
        Some(format!(
            "`{APPROVAL_ANNOTATION}={approval}` is neither a URL nor a reason starting with `unapproved`: \
             the API server refuses the CRD of the protected group `{group}`; {fix}"
        ))
    }
}

/// A URL with a scheme and a host, as Go's `url.ParseRequestURI` reads one: `scheme://host...`
/// (the scheme a letter, then letters, digits, `+`, `-` or `.`), without control characters
/// and with a host of no spaces.
fn is_url(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once("://") else {
        return false;
    };
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    scheme_ok
        && !host.is_empty()
        && !host.contains(' ')
        && !text.chars().any(|c| c.is_ascii_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_groups_are_the_kubernetes_domains_and_their_subdomains() {
        for group in [
            "k8s.io",
            "kubernetes.io",
            "gateway.networking.k8s.io",
            "x.kubernetes.io",
        ] {
            assert!(is_protected_group(group), "{group}");
        }
        for group in [
            "gateway.networking.x-k8s.io",
            "notk8s.io",
            "k8s.io.example.com",
            "example.com",
        ] {
            assert!(!is_protected_group(group), "{group}");
        }
    }

    #[test]
    fn the_annotation_is_a_url_or_starts_with_unapproved() {
        let group = "gateway.networking.k8s.io";
        let pr = "https://github.com/kubernetes-sigs/gateway-api/pull/3328";
        assert_eq!(approval_problem(group, Some(pr)), None);
        assert_eq!(
            approval_problem(group, Some("unapproved, experimental-only")),
            None
        );
        assert_eq!(approval_problem("example.com", None), None);
        let missing = approval_problem(group, None).unwrap();
        assert!(
            missing.contains("without the annotation `api-approved.kubernetes.io`"),
            "{missing}"
        );
        assert!(missing.contains("pull/NNNN"), "{missing}");
        assert_eq!(
            approval_problem(group, Some("")),
            approval_problem(group, None)
        );
        for bad in [
            "approved",
            "github.com/kubernetes/enhancements/pull/1111",
            "https://",
            "https://a b/",
        ] {
            let p = approval_problem(group, Some(bad)).unwrap_or_else(|| panic!("{bad}"));
            assert!(p.contains("is neither a URL nor"), "{p}");
        }
    }
}
