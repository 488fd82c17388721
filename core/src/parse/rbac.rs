//! `#[rbac(...)]`: one RBAC rule, parsed and checked at compile time.
//!
//! Keys: those of the registry's [`RBAC`] section. Lists take both [`List`] forms. Every
//! problem is reported at once, each at the key or value it is about.

use darling::util::SpannedValue;
use darling::{Error, FromMeta, Result};
use proc_macro2::{Span, TokenStream};
use syn::{Expr, Lit};

use super::registry::RBAC;
use super::values::{List, did_you_mean, give_up, known_metas};
use crate::names::is_dns_label;
use crate::rbac::{
    ALL_VERBS, RESOURCE_VERBS, RbacRule, SPECIAL_VERBS, URL_VERBS, role_name_problem,
};

/// The attribute's keys, as written.
#[derive(Debug, FromMeta)]
struct Raw {
    groups: Option<SpannedValue<Groups>>,
    resources: Option<SpannedValue<List>>,
    resource_names: Option<SpannedValue<List>>,
    verbs: Option<SpannedValue<List>>,
    urls: Option<SpannedValue<List>>,
    namespace: Option<SpannedValue<String>>,
    role_name: Option<SpannedValue<String>>,
}

/// `groups`: a [`List`] in which `""` is the core group. An empty part of a `;` list
/// (`"apps;"`) is refused: a stray `;` would silently grant the core group.
#[derive(Debug)]
struct Groups(List);

impl FromMeta for Groups {
    fn from_value(lit: &Lit) -> Result<Self> {
        let list = List::from_value(lit)?;
        if list.0.len() > 1 && list.0.iter().any(String::is_empty) {
            return Err(Error::custom(format!(
                "`groups = \"{}\"` has an empty part: write the core group as `core`, or \
                 use the array form `[\"\", \"apps\"]`",
                list.0.join(";")
            )));
        }
        Ok(Groups(list))
    }

    fn from_expr(expr: &Expr) -> Result<Self> {
        match expr {
            Expr::Lit(lit) => Self::from_value(&lit.lit),
            Expr::Group(group) => Self::from_expr(&group.expr),
            _ => List::from_expr(expr).map(Groups),
        }
    }
}

/// Parses the arguments of one `#[rbac(...)]` attribute (the tokens inside the
/// parentheses). The rule's `loc` is left for the caller to fill.
pub fn parse(tokens: TokenStream) -> Result<RbacRule> {
    let mut errors = Error::accumulator();
    let (known, whole) = match known_metas(tokens, &RBAC.names(), &[], &mut errors) {
        Ok(metas) => metas,
        Err(e) => return give_up(errors, e),
    };
    let raw = match Raw::from_list(&known) {
        Ok(raw) => raw,
        Err(e) => return give_up(errors, e),
    };
    check(&raw, whole, &mut errors);
    let list = |l: &Option<SpannedValue<List>>| l.as_ref().map(|l| l.0.clone()).unwrap_or_default();
    errors.finish_with(RbacRule {
        groups: raw
            .groups
            .as_ref()
            .map(|g| g.0.0.clone())
            .unwrap_or_default(),
        resources: list(&raw.resources),
        resource_names: list(&raw.resource_names),
        verbs: list(&raw.verbs),
        urls: list(&raw.urls),
        namespace: raw.namespace.as_ref().map(|n| n.to_string()),
        role_name: raw.role_name.as_ref().map(|n| n.to_string()),
        loc: None,
    })
}

/// Every check on a parsed attribute. `whole` spans the attribute's arguments, for missing
/// keys; it is `None` when a key was unknown, and then missing keys are not reported.
fn check(raw: &Raw, whole: Option<Span>, errors: &mut darling::error::Accumulator) {
    // Reports `message` at `span`; nothing when `span` is `None`.
    let mut err = |span: Option<Span>, message: String| {
        if let Some(span) = span {
            errors.push(Error::custom(message).with_span(&span));
        }
    };
    if let Some(groups) = &raw.groups
        && groups.0.0.is_empty()
    {
        err(
            Some(groups.span()),
            "`groups` is empty: give at least one API group (`groups = \"\"` is the core group)"
                .into(),
        );
    }
    for (key, list, what) in [
        (
            "resources",
            &raw.resources,
            "resource, such as `pods` or `deployments/status`",
        ),
        (
            "resource_names",
            &raw.resource_names,
            "name, or leave `resource_names` out to allow every name",
        ),
        (
            "verbs",
            &raw.verbs,
            "verb, such as `\"get;list;watch\"`, or `\"*\"` for all",
        ),
        ("urls", &raw.urls, "non-resource URL, such as `/metrics`"),
    ] {
        match list {
            Some(l) if l.0.is_empty() => err(
                Some(l.span()),
                format!("`{key}` is empty: give at least one {what}"),
            ),
            Some(l) if l.0.iter().any(String::is_empty) => err(
                Some(l.span()),
                format!(
                    "`{key}` has an empty entry: give at least one {what}, without empty entries"
                ),
            ),
            _ => {}
        }
    }

    match &raw.verbs {
        None => err(
            whole,
            "missing `verbs`: give the verbs the rule allows, such as `verbs = \"get;list;watch\"`"
                .into(),
        ),
        Some(verbs) => {
            let (known, kind, other, other_kind): (Vec<&str>, _, Vec<&str>, _) =
                if raw.urls.is_some() {
                    (
                        URL_VERBS.to_vec(),
                        "non-resource `urls`",
                        [RESOURCE_VERBS, SPECIAL_VERBS].concat(),
                        "resources",
                    )
                } else {
                    (
                        [RESOURCE_VERBS, SPECIAL_VERBS].concat(),
                        "resources",
                        URL_VERBS.to_vec(),
                        "non-resource `urls`",
                    )
                };
            let listing = format!(
                "the verbs for {kind} are {}, or `*` for all",
                known.join(", ")
            );
            for (verb, span) in verbs
                .entries()
                .filter(|(v, _)| !v.is_empty() && *v != ALL_VERBS && !known.contains(v))
            {
                let message = if other.contains(&verb) {
                    format!("verb `{verb}` is for {other_kind}, not {kind}: {listing}")
                } else {
                    format!(
                        "unknown verb `{verb}`{}; {listing}",
                        did_you_mean(&verb.to_lowercase(), &known)
                    )
                };
                err(Some(span), message);
            }
        }
    }

    if let Some(urls) = &raw.urls {
        for (key, span) in [
            ("groups", raw.groups.as_ref().map(|g| g.span())),
            ("resources", raw.resources.as_ref().map(|r| r.span())),
            (
                "resource_names",
                raw.resource_names.as_ref().map(|r| r.span()),
            ),
        ] {
            if let Some(span) = span {
                err(
                    Some(span),
                    format!(
                        "`{key}` cannot be combined with `urls`: a rule covers either resources or non-resource URLs; write a second `#[rbac]` for the other"
                    ),
                );
            }
        }
        if let Some(namespace) = &raw.namespace {
            err(Some(namespace.span()), "`namespace` cannot be combined with `urls`: non-resource URLs exist only in ClusterRoles; remove `namespace`".into());
        }
        for url in urls.0.iter().filter(|u| !u.is_empty()) {
            let star = url.find('*');
            if !(url.starts_with('/') || url == ALL_VERBS)
                || star.is_some_and(|i| i + 1 != url.len())
            {
                err(
                    Some(urls.span()),
                    format!(
                        "`urls` entry `{url}` must be a path starting with `/`; a `*` may only end it (`/debug/*`), or stand alone for every URL"
                    ),
                );
            }
        }
    } else if raw.resources.is_none() {
        err(whole, "missing `resources`: a rule covers `resources` (with `groups`), or non-resource `urls`".into());
    } else if raw.groups.is_none() {
        err(whole, "missing `groups`: give the API group of the resources; `groups = \"\"` (or `\"core\"`) is the core group".into());
    }

    if let (Some(names), Some(resources)) = (&raw.resource_names, &raw.resources)
        && let Some(wildcard) = resources
            .0
            .iter()
            .find(|r| *r == "*" || r.starts_with("*/"))
    {
        err(
            Some(names.span()),
            format!(
                "`resource_names` cannot be combined with the wildcard resource `{wildcard}`: names identify objects of one resource; list the resources instead"
            ),
        );
    }

    if let Some(namespace) = &raw.namespace
        && !is_dns_label(namespace)
    {
        err(
            Some(namespace.span()),
            format!(
                "`namespace = \"{}\"` is not a valid namespace: it must be a DNS-1123 label (lowercase letters, digits and `-`, at most 63 characters, starting and ending with a letter or digit)",
                namespace.as_str()
            ),
        );
    }
    if let Some(name) = &raw.role_name
        && let Some(problem) = role_name_problem(name)
    {
        err(
            Some(name.span()),
            format!(
                "`role_name = \"{}\"` is not a valid object name: {problem}",
                name.as_str()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_is_the_accepted_set() {
        for key in RBAC.names() {
            let e = parse(key.parse().unwrap()).unwrap_err();
            assert!(!e.to_string().contains("Unknown field"), "{key}: {e}");
        }
        let e = parse("group = \"apps\"".parse().unwrap()).unwrap_err();
        assert!(e.to_string().contains("Unknown field"), "{e}");
    }

    fn parse_str(src: &str) -> Result<RbacRule> {
        parse(src.parse().expect("tokens"))
    }

    /// The messages of every error `src` gives; each must carry a span.
    fn errors(src: &str) -> Vec<String> {
        let error = parse_str(src).expect_err(src);
        error
            .into_iter()
            .map(|e| {
                assert!(e.has_span(), "{src}: `{e}` has no span");
                e.to_string()
            })
            .collect()
    }

    fn one_error(src: &str) -> String {
        let errors = errors(src);
        assert_eq!(errors.len(), 1, "{src}: {errors:#?}");
        errors.into_iter().next().unwrap_or_default()
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_every_key_in_both_list_forms() {
        let rule = parse_str(
            r#"groups = ["", "apps"], resources = "deployments;deployments/status",
               resource_names = ["a"], verbs = "get;list", namespace = "ns", role_name = "r""#,
        )
        .unwrap();
        assert_eq!(
            rule,
            RbacRule {
                groups: strings(&["", "apps"]),
                resources: strings(&["deployments", "deployments/status"]),
                resource_names: strings(&["a"]),
                verbs: strings(&["get", "list"]),
                urls: vec![],
                namespace: Some("ns".into()),
                role_name: Some("r".into()),
                loc: None,
            }
        );
        let rule = parse_str(r#"urls = ["/metrics", "/debug/*"], verbs = "get""#).unwrap();
        assert_eq!(rule.urls, ["/metrics", "/debug/*"]);
    }

    #[test]
    fn the_core_group_is_a_group_not_an_empty_list() {
        assert_eq!(
            parse_str(r#"groups = "", resources = "pods", verbs = "get""#)
                .unwrap()
                .groups,
            [""]
        );
        assert_eq!(
            parse_str(r#"groups = "core", resources = "pods", verbs = "get""#)
                .unwrap()
                .groups,
            ["core"]
        );
        let e = one_error(r#"groups = [], resources = "pods", verbs = "get""#);
        assert_eq!(
            e,
            "`groups` is empty: give at least one API group (`groups = \"\"` is the core group)"
        );
        let e = one_error(r#"groups = "apps;", resources = "pods", verbs = "get""#);
        assert!(
            e.starts_with("`groups = \"apps;\"` has an empty part: write the core group as `core`"),
            "{e}"
        );
    }

    #[test]
    fn special_and_wildcard_verbs_are_known() {
        for verbs in [
            "*",
            "bind;escalate",
            "impersonate",
            "approve;sign;attest",
            "use",
            "deletecollection;get;*",
        ] {
            parse_str(&format!(
                r#"groups = "g", resources = "r", verbs = "{verbs}""#
            ))
            .unwrap();
        }
        parse_str(r#"urls = "/healthz", verbs = "get;post;put;head;options;*""#).unwrap();
    }

    #[test]
    fn unknown_key_suggests_the_closest() {
        let e = one_error(r#"grups = "apps", verbs = "get", urls = "/a""#);
        assert_eq!(e, "Unknown field: `grups`. Did you mean `groups`?");
        let e = one_error(r#"roleName = "x", urls = "/a", verbs = "get""#);
        assert!(
            e.starts_with("Unknown field: `roleName`. Did you mean `role_name`?"),
            "{e}"
        );
    }

    /// The text each error of `src` underlines.
    fn underlined(src: &str) -> Vec<String> {
        let error = parse_str(src).expect_err(src);
        error
            .flatten()
            .into_iter()
            .map(|e| {
                let (start, end) = (e.span().start(), e.span().end());
                assert_eq!((start.line, end.line), (1, 1), "{src}");
                src.chars()
                    .skip(start.column)
                    .take(end.column - start.column)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn an_unknown_verb_is_underlined_alone() {
        let src = r#"groups = "", resources = "pods", verbs = "get; lsit;wacth""#;
        assert_eq!(underlined(src), ["lsit", "wacth"]);
        let src = r#"groups = "", resources = "pods", verbs = ["get", "lsit"]"#;
        assert_eq!(underlined(src), [r#""lsit""#]);
        // Where offsets into the value are not offsets into the token, the whole literal.
        let src = r##"groups = "", resources = "pods", verbs = r#"get;lsit"#"##;
        assert_eq!(underlined(src), [r##"r#"get;lsit"#"##]);
    }

    #[test]
    fn unknown_verb_suggests_the_closest() {
        let e = one_error(r#"groups = "", resources = "pods", verbs = "get;lsit""#);
        assert_eq!(
            e,
            "unknown verb `lsit`. Did you mean `list`?; the verbs for resources are get, list, \
             watch, create, update, patch, delete, deletecollection, bind, escalate, \
             impersonate, approve, sign, attest, use, or `*` for all"
        );
        let e = one_error(r#"groups = "", resources = "pods", verbs = ["Watch"]"#);
        assert!(
            e.starts_with("unknown verb `Watch`. Did you mean `watch`?"),
            "{e}"
        );
        let e = one_error(r#"groups = "", resources = "pods", verbs = "frobnicate""#);
        assert!(
            e.starts_with("unknown verb `frobnicate`; the verbs for resources"),
            "{e}"
        );
        let e = one_error(r#"urls = "/metrics", verbs = "list""#);
        assert!(e.starts_with("verb `list` is for resources, not non-resource `urls`: the verbs for non-resource `urls` are get, post, put, patch, delete, head, options"), "{e}");
        let e = one_error(r#"groups = "", resources = "pods", verbs = "post""#);
        assert!(
            e.starts_with("verb `post` is for non-resource `urls`, not resources"),
            "{e}"
        );
    }

    #[test]
    fn empty_lists_and_entries() {
        for (src, expect) in [
            (
                r#"groups = "", resources = [], verbs = "get""#,
                "`resources` is empty: give at least one resource",
            ),
            (
                r#"groups = "", resources = "", verbs = "get""#,
                "`resources` has an empty entry",
            ),
            (
                r#"groups = "", resources = "pods", verbs = []"#,
                "`verbs` is empty: give at least one verb",
            ),
            (
                r#"groups = "", resources = "pods", verbs = "get;""#,
                "`verbs` has an empty entry",
            ),
            (
                r#"groups = "", resources = "pods", resource_names = [], verbs = "get""#,
                "`resource_names` is empty",
            ),
            (
                r#"urls = [], verbs = "get""#,
                "`urls` is empty: give at least one non-resource URL",
            ),
        ] {
            let e = one_error(src);
            assert!(e.starts_with(expect), "{src}: {e}");
        }
    }

    #[test]
    fn missing_keys() {
        for (src, expect) in [
            (
                r#"groups = "", resources = "pods""#,
                "missing `verbs`: give the verbs the rule allows, such as `verbs = \"get;list;watch\"`",
            ),
            (
                r#"groups = "apps", verbs = "get""#,
                "missing `resources`: a rule covers `resources` (with `groups`), or non-resource `urls`",
            ),
            (
                r#"resources = "pods", verbs = "get""#,
                "missing `groups`: give the API group of the resources; `groups = \"\"` (or `\"core\"`) is the core group",
            ),
        ] {
            assert_eq!(one_error(src), expect, "{src}");
        }
    }

    #[test]
    fn urls_stand_alone_in_the_cluster_role() {
        let errors = errors(
            r#"urls = "/metrics", groups = "", resources = "pods", resource_names = "x", verbs = "get", namespace = "ns""#,
        );
        assert_eq!(
            errors,
            [
                "`groups` cannot be combined with `urls`: a rule covers either resources or non-resource URLs; write a second `#[rbac]` for the other",
                "`resources` cannot be combined with `urls`: a rule covers either resources or non-resource URLs; write a second `#[rbac]` for the other",
                "`resource_names` cannot be combined with `urls`: a rule covers either resources or non-resource URLs; write a second `#[rbac]` for the other",
                "`namespace` cannot be combined with `urls`: non-resource URLs exist only in ClusterRoles; remove `namespace`",
            ]
        );
        let e = one_error(r#"urls = "metrics", verbs = "get""#);
        assert!(
            e.starts_with("`urls` entry `metrics` must be a path starting with `/`"),
            "{e}"
        );
        let e = one_error(r#"urls = "/a/*/b", verbs = "get""#);
        assert!(e.starts_with("`urls` entry `/a/*/b` must be a path"), "{e}");
        parse_str(r#"urls = "*", verbs = "get""#).unwrap();
    }

    #[test]
    fn resource_names_need_named_resources() {
        for resources in ["*", "*/status"] {
            let e = one_error(&format!(
                r#"groups = "", resources = "pods;{resources}", resource_names = "a", verbs = "get""#
            ));
            assert_eq!(
                e,
                format!(
                    "`resource_names` cannot be combined with the wildcard resource `{resources}`: names identify objects of one resource; list the resources instead"
                )
            );
        }
        parse_str(r#"groups = "", resources = "*", verbs = "get""#).unwrap();
    }

    #[test]
    fn namespace_and_role_name_are_checked() {
        let e = one_error(r#"groups = "", resources = "pods", verbs = "get", namespace = "My_NS""#);
        assert!(
            e.starts_with(
                "`namespace = \"My_NS\"` is not a valid namespace: it must be a DNS-1123 label"
            ),
            "{e}"
        );
        for (name, problem) in [
            ("a/b", "it may not contain `/`"),
            ("a%b", "it may not contain `%`"),
            ("..", "`.` and `..` are not allowed"),
            (".", "`.` and `..` are not allowed"),
            ("", "it is empty"),
        ] {
            let e = one_error(&format!(
                r#"groups = "", resources = "pods", verbs = "get", role_name = "{name}""#
            ));
            assert_eq!(
                e,
                format!("`role_name = \"{name}\"` is not a valid object name: {problem}")
            );
        }
        parse_str(r#"groups = "", resources = "pods", verbs = "get", role_name = "system:x.y""#)
            .unwrap();
    }

    #[test]
    fn problems_are_reported_together() {
        let errors = errors(
            r#"grups = "", resources = "pods", verbs = "lsit", namespace = "-x", role_name = "a/b""#,
        );
        // The misspelled `grups` is not reported again as a missing `groups`.
        assert_eq!(errors.len(), 4, "{errors:#?}");
        assert!(errors[0].contains("Did you mean `groups`?"), "{errors:#?}");
        assert!(
            errors.iter().any(|e| e.contains("Did you mean `list`?")),
            "{errors:#?}"
        );
        assert!(
            errors.iter().any(|e| e.starts_with("`namespace = \"-x\"`")),
            "{errors:#?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with("`role_name = \"a/b\"`")),
            "{errors:#?}"
        );
    }

    #[test]
    fn malformed_values_are_errors() {
        let e = one_error(r#"groups = "", resources = "pods", verbs = get"#);
        assert!(e.contains("expected"), "{e}");
        let e = one_error(r#"groups = "", resources = "pods", verbs = "get", verbs = "list""#);
        assert!(e.contains("Duplicate field `verbs`"), "{e}");
        assert!(parse_str(r#""pods""#).is_err());
    }
}
