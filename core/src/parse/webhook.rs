//! `#[webhook(...)]` and `#[webhook_configuration(...)]`: parsed and checked at compile time
//! with controller-gen's rules, every problem at the key it is about.

use darling::util::SpannedValue;
use darling::{Error, FromMeta, Result};
use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;

use super::registry::{WEBHOOK, WEBHOOK_CONFIGURATION};
use super::values::{List, Num, did_you_mean, give_up, known_metas};
use crate::webhook::{ConfigurationName, SideEffects, VERBS, Webhook, Word, name_problem};

/// The attribute's keys, as written.
#[derive(Debug, FromMeta)]
struct Raw {
    mutating: Option<SpannedValue<bool>>,
    failure_policy: Option<SpannedValue<String>>,
    match_policy: Option<SpannedValue<String>>,
    side_effects: Option<SpannedValue<String>>,
    timeout_seconds: Option<SpannedValue<Num>>,
    groups: Option<SpannedValue<List>>,
    resources: Option<SpannedValue<List>>,
    verbs: Option<SpannedValue<List>>,
    versions: Option<SpannedValue<List>>,
    name: Option<SpannedValue<String>>,
    path: Option<SpannedValue<String>>,
    url: Option<SpannedValue<String>>,
    service_name: Option<SpannedValue<String>>,
    service_namespace: Option<SpannedValue<String>>,
    service_port: Option<SpannedValue<Num>>,
    admission_review_versions: Option<SpannedValue<List>>,
    reinvocation_policy: Option<SpannedValue<String>>,
    patch: Option<SpannedValue<String>>,
    #[darling(rename = "crate")]
    crate_path: Option<SpannedValue<String>>,
}

/// Keys controller-gen takes that kubegen refuses, with why.
const REFUSED: &[(&str, &str)] = &[(
    "webhook_versions",
    "`webhook_versions` is not needed: kubegen writes admissionregistration.k8s.io/v1 only \
     (v1beta1 is no longer served by Kubernetes); remove it",
)];

/// Parses the arguments of one `#[webhook(...)]` (the tokens inside the parentheses). The
/// webhook's `loc` is left for the caller to fill.
pub fn parse(tokens: TokenStream) -> Result<Webhook> {
    parse_with_crate(tokens).map(|(webhook, _)| webhook)
}

/// Like [`parse`], with the attribute's `crate = "..."`: the path the handler's generated
/// module names kubegen by (see [`crate_path`](super::markers::crate_path)); it changes no
/// manifest.
pub fn parse_with_crate(tokens: TokenStream) -> Result<(Webhook, Option<syn::Path>)> {
    let mut errors = Error::accumulator();
    let (known, whole) = match known_metas(tokens, &WEBHOOK.names(), REFUSED, &mut errors) {
        Ok(metas) => metas,
        Err(e) => return give_up(errors, e),
    };
    let raw = match Raw::from_list(&known) {
        Ok(raw) => raw,
        Err(e) => return give_up(errors, e),
    };
    let mut checked = Checked {
        errors: &mut errors,
        whole,
    };
    let webhook = checked.webhook(&raw);
    let path = raw
        .crate_path
        .as_ref()
        .and_then(|p| errors.handle(super::markers::crate_path(p)));
    errors.finish_with((webhook, path))
}

/// The path one item's `#[webhook]`s name kubegen by (a handler's generated module), from the
/// `crate = "..."` each gives (in source order, `None` where one gives none): the one given,
/// the same wherever it is given; a second, different one is an error at it.
pub fn one_crate(given: Vec<Option<syn::Path>>) -> Result<Option<syn::Path>> {
    let mut errors = Error::accumulator();
    let mut first: Option<syn::Path> = None;
    for path in given.into_iter().flatten() {
        match &first {
            None => first = Some(path),
            Some(f) if quote::quote!(#f).to_string() == quote::quote!(#path).to_string() => {}
            Some(_) => errors.push(
                Error::custom(
                    "`crate` is given twice with different values; give it once (one path names \
                     kubegen for the item)",
                )
                .with_span(&path),
            ),
        }
    }
    errors.finish_with(first)
}

/// `. Did you mean `X`?` for the first of `words` close to `value`, in any case.
fn near_miss(value: &str, words: &[&str]) -> String {
    let value = value.to_lowercase();
    words
        .iter()
        .find(|w| !did_you_mean(&value, &[&w.to_lowercase()]).is_empty())
        .map(|w| format!(". Did you mean `{w}`?"))
        .unwrap_or_default()
}

/// The checks' error sink.
struct Checked<'a> {
    errors: &'a mut darling::error::Accumulator,
    whole: Option<Span>,
}

impl Checked<'_> {
    fn at(&mut self, span: Span, message: String) {
        self.errors.push(Error::custom(message).with_span(&span));
    }

    /// A required key: its value, or an error at the whole attribute.
    fn required<'v, T>(
        &mut self,
        value: &'v Option<SpannedValue<T>>,
        key: &str,
        hint: &str,
    ) -> Option<&'v SpannedValue<T>> {
        if value.is_none()
            && let Some(span) = self.whole
        {
            self.at(span, format!("missing `{key}`: {hint}"));
        }
        value.as_ref()
    }

    /// One of `W`'s words, matched case-insensitively; any other value is an error
    /// (controller-gen passes an unknown `failure_policy` through, for the API server to
    /// refuse).
    fn word<W: Word>(&mut self, value: &SpannedValue<String>, key: &str) -> Option<W> {
        let found = W::ALL
            .iter()
            .find(|w| w.as_str().eq_ignore_ascii_case(value));
        if found.is_none() {
            let words: Vec<&str> = W::ALL.iter().map(|w| w.as_str()).collect();
            self.at(
                value.span(),
                format!(
                    "unknown `{key}` `{}`{}; expected one of: {}",
                    value.as_str(),
                    near_miss(value, &words),
                    words.join(", ")
                ),
            );
        }
        found.copied()
    }

    /// A whole number in `min..=max`; `why` says what the range is.
    fn whole_number(
        &mut self,
        n: &SpannedValue<Num>,
        key: &str,
        min: i32,
        max: i32,
        why: &str,
    ) -> i32 {
        let value = n.0;
        if value.fract() != 0.0 || value < f64::from(min) || value > f64::from(max) {
            self.at(
                n.span(),
                format!("`{key} = {value}` is out of range: {why}"),
            );
        }
        value as i32
    }

    /// A non-empty list without empty entries.
    fn list(&mut self, value: Option<&SpannedValue<List>>, key: &str) -> Vec<String> {
        let Some(value) = value else {
            return Vec::new();
        };
        if value.0.is_empty() || value.0.iter().any(String::is_empty) {
            self.at(
                value.span(),
                format!("`{key}` must list at least one entry, none empty"),
            );
        }
        value.0.clone()
    }

    fn webhook(&mut self, raw: &Raw) -> Webhook {
        let mutating = self
            .required(
                &raw.mutating,
                "mutating",
                "`mutating = true` for a mutating webhook, `false` for a validating one",
            )
            .is_some_and(|m| **m);
        let failure_policy = self
            .required(
                &raw.failure_policy,
                "failure_policy",
                "`failure_policy = \"fail\"` or `\"ignore\"`",
            )
            .and_then(|f| self.word(f, "failure_policy"))
            .unwrap_or_default();
        let match_policy = raw
            .match_policy
            .as_ref()
            .and_then(|m| self.word(m, "match_policy"));
        let side_effects = match self.required(
            &raw.side_effects,
            "side_effects",
            "admissionregistration v1 requires it: `\"None\"` or `\"NoneOnDryRun\"`",
        ) {
            None => SideEffects::default(),
            Some(s) if ["some", "unknown"].contains(&s.to_lowercase().as_str()) => {
                self.at(s.span(), format!("`side_effects = \"{}\"` is not allowed by admissionregistration v1: use `\"None\"` or `\"NoneOnDryRun\"`, and make the webhook free of side effects on dry runs", s.as_str()));
                SideEffects::default()
            }
            Some(s) => self.word(s, "side_effects").unwrap_or_default(),
        };
        let timeout_seconds = raw
            .timeout_seconds
            .as_ref()
            .map(|t| self.whole_number(t, "timeout_seconds", 1, 30, "it must be between 1 and 30"));
        let groups = self.required(
            &raw.groups,
            "groups",
            "the API groups of the resources; `\"core\"` (or `\"\"`) is the core group",
        );
        let groups = groups.map(|g| g.0.clone()).unwrap_or_default();
        let resources = self.required(
            &raw.resources,
            "resources",
            "the resources the webhook admits, such as `\"cronjobs\"`",
        );
        let resources = self.list(resources, "resources");
        let verbs = self.required(
            &raw.verbs,
            "verbs",
            "the operations, such as `\"create;update\"`",
        );
        if let Some(v) = verbs {
            for (verb, span) in v
                .entries()
                .filter(|(v, _)| !VERBS.contains(&v.to_lowercase().as_str()))
            {
                self.at(span, format!("unknown verb `{verb}`{}; the operations are create, update, delete, connect, or `*` for all", did_you_mean(&verb.to_lowercase(), VERBS)));
            }
        }
        let verbs = self.list(verbs, "verbs");
        let versions = self.required(
            &raw.versions,
            "versions",
            "the API versions, such as `\"v1\"`",
        );
        let versions = self.list(versions, "versions");
        let name = self.required(
            &raw.name,
            "name",
            "a fully qualified name such as `\"validate.cronjob.example.com\"`",
        );
        if let Some(n) = name
            && let Some(problem) = name_problem(n)
        {
            self.at(
                n.span(),
                format!(
                    "`name = \"{}\"` is not a valid webhook name: {problem}",
                    n.as_str()
                ),
            );
        }
        let name = name.map(|n| n.to_string()).unwrap_or_default();
        if let (Some(path), Some(_)) = (&raw.path, &raw.url) {
            self.at(path.span(), "`path` and `url` cannot both be given: `path` is on the webhook service, `url` replaces the service".into());
        }
        if let Some(path) = &raw.path
            && !path.starts_with('/')
        {
            self.at(
                path.span(),
                format!("`path = \"{}\"` must start with `/`", path.as_str()),
            );
        }
        if let Some(url) = &raw.url {
            if !url.starts_with("https://") {
                self.at(
                    url.span(),
                    format!("`url = \"{}\"` must be an `https://` URL", url.as_str()),
                );
            }
            for (key, given) in [
                ("service_name", raw.service_name.as_ref().map(|s| s.span())),
                (
                    "service_namespace",
                    raw.service_namespace.as_ref().map(|s| s.span()),
                ),
                ("service_port", raw.service_port.as_ref().map(|s| s.span())),
            ] {
                if let Some(span) = given {
                    self.at(
                        span,
                        format!(
                            "`{key}` cannot be combined with `url`: the URL replaces the service"
                        ),
                    );
                }
            }
        }
        let service_port = raw.service_port.as_ref().map(|p| {
            self.whole_number(p, "service_port", 1, 65535, "a port is between 1 and 65535")
        });
        let review = self.required(
            &raw.admission_review_versions,
            "admission_review_versions",
            "the AdmissionReview versions the webhook understands, such as `\"v1\"`",
        );
        let admission_review_versions = self.list(review, "admission_review_versions");
        let reinvocation_policy = raw.reinvocation_policy.as_ref().and_then(|r| {
            if raw.mutating.as_ref().is_some_and(|m| !**m) {
                self.at(r.span(), "`reinvocation_policy` is for mutating webhooks only: remove it, or set `mutating = true`".into());
            }
            self.word(r, "reinvocation_policy")
        });
        let patch = raw.patch.as_ref().and_then(|p| match serde_json::from_str::<serde_json::Value>(p) {
            Ok(v @ serde_json::Value::Object(_)) => Some(v),
            Ok(_) => {
                self.at(p.span(), "`patch` must be a JSON object, such as `r#\"{\"objectSelector\": {\"matchLabels\": {\"a\": \"b\"}}}\"#`".into());
                None
            }
            Err(e) => {
                self.at(p.span(), format!("`patch` is not valid JSON: {e}"));
                None
            }
        });
        let string = |s: &Option<SpannedValue<String>>| s.as_ref().map(|s| s.to_string());
        Webhook {
            mutating,
            failure_policy,
            match_policy,
            side_effects,
            timeout_seconds,
            groups,
            resources,
            verbs,
            versions,
            name,
            path: string(&raw.path),
            url: string(&raw.url),
            service_name: string(&raw.service_name),
            service_namespace: string(&raw.service_namespace),
            service_port,
            admission_review_versions,
            reinvocation_policy,
            patch,
            loc: None,
        }
    }
}

/// `#[webhook_configuration(...)]`'s keys.
#[derive(Debug, FromMeta)]
struct RawConfiguration {
    mutating: SpannedValue<bool>,
    name: SpannedValue<String>,
}

/// Parses the arguments of one `#[webhook_configuration(mutating = ..., name = "...")]`.
pub fn parse_configuration(tokens: TokenStream) -> Result<ConfigurationName> {
    let mut errors = Error::accumulator();
    let arguments = tokens.span();
    let (known, _) = match known_metas(tokens, &WEBHOOK_CONFIGURATION.names(), &[], &mut errors) {
        Ok(metas) => metas,
        Err(e) => return give_up(errors, e),
    };
    let raw = match RawConfiguration::from_list(&known) {
        Ok(raw) => raw,
        // darling's "Missing field" has no span: it goes at the attribute's arguments (`e`
        // holds at least one error, as every darling error does).
        Err(e) => {
            let located = e.flatten().into_iter().map(|e| e.with_span(&arguments));
            let located = located.collect();
            return give_up(errors, Error::multiple(located));
        }
    };
    if !is_object_name(&raw.name) {
        errors.push(
            Error::custom(format!(
                "`name = \"{}\"` is not a valid object name: it must be a DNS subdomain \
                 (lowercase letters, digits, `-` and `.`)",
                raw.name.as_str()
            ))
            .with_span(&raw.name.span()),
        );
    }
    errors.finish_with(ConfigurationName {
        mutating: *raw.mutating,
        name: raw.name.to_string(),
        loc: None,
    })
}

fn is_object_name(name: &str) -> bool {
    crate::names::is_dns_subdomain(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::{FailurePolicy, MatchPolicy};

    const VALID: &str = r#"mutating = false, failure_policy = "fail", match_policy = "equivalent",
        side_effects = "none", timeout_seconds = 10, groups = "core;apps", resources = "pods",
        verbs = "Create;update", versions = "v1", name = "validate.pods.example.com",
        admission_review_versions = ["v1", "v1beta1"]"#;

    fn parse_str(src: &str) -> Result<Webhook> {
        parse(src.parse().expect("tokens"))
    }

    /// The messages of every error `src` gives; each must carry a span.
    fn errors(src: &str) -> Vec<String> {
        parse_str(src)
            .expect_err(src)
            .into_iter()
            .map(|e| {
                assert!(e.has_span(), "{src}: `{e}` has no span");
                e.to_string()
            })
            .collect()
    }

    #[test]
    fn keys_are_the_accepted_sets() {
        type Parse = fn(TokenStream) -> Result<()>;
        let sets: [(Vec<&str>, Parse); 2] = [
            (WEBHOOK.names(), |t| parse(t).map(drop)),
            (WEBHOOK_CONFIGURATION.names(), |t| {
                parse_configuration(t).map(drop)
            }),
        ];
        for (keys, parse) in sets {
            for key in keys {
                let e = parse(key.parse().unwrap()).unwrap_err();
                assert!(!e.to_string().contains("Unknown field"), "{key}: {e}");
            }
            let e = parse("mutatin = true".parse().unwrap()).unwrap_err();
            assert!(e.to_string().contains("Unknown field"), "{e}");
        }
    }

    #[test]
    fn parses_and_spells_policies_as_kubernetes() {
        let w = parse_str(VALID).unwrap();
        assert_eq!(w.failure_policy, FailurePolicy::Fail);
        assert_eq!(w.match_policy, Some(MatchPolicy::Equivalent));
        assert_eq!(w.side_effects, SideEffects::None);
        assert_eq!(w.timeout_seconds, Some(10));
        assert_eq!(w.groups, ["core", "apps"]);
        assert_eq!(w.verbs, ["Create", "update"]);
        assert_eq!(w.admission_review_versions, ["v1", "v1beta1"]);
        assert_eq!(w.path, None);
    }

    #[test]
    fn controller_gens_errors() {
        let with = |extra: &str| errors(&format!("{VALID}, {extra}"));
        assert!(with("path = \"/a\", url = \"https://x\"")[0].contains("cannot both be given"));
        assert!(with("reinvocation_policy = \"Never\"")[0].contains("mutating webhooks only"));
        assert!(with("webhook_versions = \"v1beta1\"")[0].contains("v1 only"));
        let timeout = errors(&VALID.replace("timeout_seconds = 10", "timeout_seconds = 40"));
        assert!(timeout[0].contains("between 1 and 30"), "{timeout:?}");
        let negative = errors(&VALID.replace("timeout_seconds = 10", "timeout_seconds = -1"));
        assert!(
            negative[0].contains("`timeout_seconds = -1` is out of range"),
            "{negative:?}"
        );
        let some = errors(&VALID.replace("\"none\"", "\"Some\""));
        assert!(
            some[0].contains("not allowed by admissionregistration v1"),
            "{some:?}"
        );
        let policy = errors(&VALID.replace("\"fail\"", "\"fial\""));
        assert!(policy[0].contains("Did you mean `Fail`?"), "{policy:?}");
        let verb = errors(&VALID.replace("update", "updaet"));
        assert!(verb[0].contains("Did you mean `update`?"), "{verb:?}");
        let name = errors(&VALID.replace("validate.pods.example.com", "pods.io"));
        assert!(name[0].contains("at least three labels"), "{name:?}");
    }

    #[test]
    fn missing_keys_are_named_unless_a_key_is_unknown() {
        let missing =
            errors(&VALID.replace("admission_review_versions = [\"v1\", \"v1beta1\"]", ""));
        assert_eq!(missing.len(), 1, "{missing:?}");
        assert!(missing[0].contains("missing `admission_review_versions`"));
        let unknown = errors("mutatin = true");
        assert_eq!(unknown.len(), 1, "{unknown:?}");
        assert!(unknown[0].contains("mutating"), "{unknown:?}");
    }

    #[test]
    fn patch_must_be_a_json_object() {
        let w = parse_str(&format!(
            "{VALID}, patch = r#\"{{\"objectSelector\": {{}}}}\"#"
        ))
        .unwrap();
        assert_eq!(w.patch, Some(serde_json::json!({"objectSelector": {}})));
        assert!(errors(&format!("{VALID}, patch = \"[1]\""))[0].contains("JSON object"));
    }

    #[test]
    fn configuration_names() {
        let c = parse_configuration("mutating = true, name = \"foo\"".parse().unwrap()).unwrap();
        assert_eq!((c.mutating, c.name.as_str()), (true, "foo"));
        assert!(parse_configuration("mutating = true, name = \"Foo\"".parse().unwrap()).is_err());
    }
}
