//! The names a kind goes by in the files: checked once, derived once.

use std::path::PathBuf;

use clap::Args;
use kubegen_core::names::{KubeVersion, is_dns_label, is_kind, resource_plural};

/// Which kind, and where the project is.
#[derive(Debug, Clone, Args)]
pub struct Gvk {
    /// The API group's first label (`webapp` is `webapp.<domain>`).
    #[arg(long)]
    pub group: String,
    /// The version (`v1`, `v1alpha1`, `v2beta3`).
    #[arg(long)]
    pub version: String,
    /// The kind, in UpperCamelCase (`Guestbook`).
    #[arg(long)]
    pub kind: String,
    /// The project folder (made by `kubegen init`).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub project: PathBuf,
}

/// A kind's names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    /// The full API group: `webapp.my.domain`.
    pub group: String,
    /// The version: `v1`.
    pub version: String,
    /// The kind: `GuestbookEntry`.
    pub kind: String,
    /// The resource, as the CRD names it: `guestbookentries`.
    pub plural: String,
    /// The kind in snake case, its modules' name: `guestbook_entry`.
    pub snake: String,
    /// The Rust module of the group and version: `webapp_v1`.
    pub module: String,
    /// The module prefix of every version of the group: `webapp_`.
    pub group_prefix: String,
}

impl Names {
    /// The names of `gvk` in a project of `domain`, or why they are not valid.
    pub fn new(gvk: &Gvk, domain: &str) -> Result<Names, String> {
        if !is_dns_label(&gvk.group) {
            return Err(format!(
                "--group `{}` must be a DNS label: lowercase letters, digits and `-`",
                gvk.group
            ));
        }
        if KubeVersion::parse(&gvk.version).is_none() {
            return Err(format!(
                "--version `{}` must look like `v1`, `v1alpha1` or `v2beta3`",
                gvk.version
            ));
        }
        if !is_kind(&gvk.kind) {
            return Err(format!(
                "--kind `{}` must be UpperCamelCase ASCII letters and digits, like `Guestbook`",
                gvk.kind
            ));
        }
        let group = if domain.is_empty() {
            gvk.group.clone()
        } else {
            format!("{}.{domain}", gvk.group)
        };
        let group_prefix = format!("{}_", gvk.group.replace('-', "_"));
        Ok(Names {
            group,
            version: gvk.version.clone(),
            kind: gvk.kind.clone(),
            plural: resource_plural(&gvk.kind),
            snake: snake_case(&gvk.kind),
            module: format!("{group_prefix}{}", gvk.version),
            group_prefix,
        })
    }
}

/// `GuestbookEntry` → `guestbook_entry`, `HTTPRoute` → `http_route`.
fn snake_case(kind: &str) -> String {
    let chars: Vec<char> = kind.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let starts_word = i > 0
            && c.is_ascii_uppercase()
            // `i > 0` above.
            && (!chars[i - 1].is_ascii_uppercase()
                || chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase()));
        if starts_word {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gvk(group: &str, version: &str, kind: &str) -> Gvk {
        Gvk {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
            project: ".".into(),
        }
    }

    #[test]
    fn derives_every_name() {
        let n = Names::new(&gvk("web-app", "v1beta2", "GuestbookEntry"), "my.domain").unwrap();
        assert_eq!(n.group, "web-app.my.domain");
        assert_eq!(n.plural, "guestbookentries");
        assert_eq!(n.snake, "guestbook_entry");
        assert_eq!(n.module, "web_app_v1beta2");
        assert_eq!(snake_case("HTTPRoute"), "http_route");
    }

    #[test]
    fn rejects_bad_names_with_the_rule() {
        let err = |g, v, k| Names::new(&gvk(g, v, k), "d").unwrap_err();
        assert!(err("Web", "v1", "A").contains("DNS label"));
        assert!(err("web", "1", "A").contains("v1alpha1"));
        assert!(err("web", "v1gamma1", "A").contains("v1alpha1"));
        assert!(err("web", "v1", "guestbook").contains("UpperCamelCase"));
    }
}
