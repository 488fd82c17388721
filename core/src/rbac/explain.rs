//! `gen-cli rbac --explain`: every generated rule with the attributes it came from.

use std::fmt::Write;

use super::{PolicyRule, Role};

/// A readable listing of `roles`: each role, each of its rules, and under each rule the
/// `file:line:column` of every `#[rbac]` attribute that contributed to it.
///
/// ```text
/// ClusterRole manager-role
///   rule 1: apiGroups "", apps; resources pods; verbs get, list
///     src/controller.rs:12:1
///     src/controller.rs:13:1
/// Role users/secrets-reader
///   rule 1: apiGroups ""; resources secrets; verbs get
///     src/users.rs:4:1
/// ```
pub fn explain(roles: &[Role]) -> String {
    let mut out = String::new();
    for role in roles {
        match &role.namespace {
            None => writeln!(out, "ClusterRole {}", role.name),
            Some(namespace) => writeln!(out, "Role {namespace}/{}", role.name),
        }
        .expect("writing to a String cannot fail");
        for (i, rule) in role.rules.iter().enumerate() {
            writeln!(out, "  rule {}: {}", i + 1, describe(rule))
                .expect("writing to a String cannot fail");
            if rule.sources.is_empty() {
                out.push_str("    (source unknown)\n");
            }
            for loc in &rule.sources {
                writeln!(out, "    {loc}").expect("writing to a String cannot fail");
            }
        }
    }
    out
}

/// `apiGroups "", apps; resources pods; verbs get`, leaving out empty lists.
fn describe(rule: &PolicyRule) -> String {
    [
        ("apiGroups", &rule.api_groups),
        ("nonResourceURLs", &rule.non_resource_urls),
        ("resources", &rule.resources),
        ("resourceNames", &rule.resource_names),
        ("verbs", &rule.verbs),
    ]
    .into_iter()
    .filter(|(_, list)| !list.is_empty())
    .map(|(name, list)| {
        let items: Vec<&str> = list
            .iter()
            .map(|s| if s.is_empty() { "\"\"" } else { s.as_str() })
            .collect();
        format!("{name} {}", items.join(", "))
    })
    .collect::<Vec<_>>()
    .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Loc;
    use crate::rbac::{RbacRule, roles};

    fn rule(groups: &[&str], resources: &[&str], verbs: &[&str], line: usize) -> RbacRule {
        let strings = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        RbacRule {
            groups: strings(groups),
            resources: strings(resources),
            verbs: strings(verbs),
            loc: Some(Loc::at("src/controller.rs", line, 1)),
            ..RbacRule::default()
        }
    }

    #[test]
    fn lists_roles_rules_and_sources() {
        let mut secrets = rule(&["core"], &["secrets"], &["get"], 4);
        secrets.namespace = Some("users".into());
        secrets.role_name = Some("secrets-reader".into());
        let mut metrics = rule(&[], &[], &["get"], 20);
        metrics.urls = vec!["/metrics".into()];
        metrics.loc = None;
        let rules = [
            rule(&["apps"], &["pods"], &["list"], 13),
            rule(&[""], &["pods"], &["list"], 12),
            rule(&["core"], &["secrets"], &["get"], 14),
            secrets,
            metrics,
        ];
        assert_eq!(
            explain(&roles(&rules, "manager-role")),
            "ClusterRole manager-role
  rule 1: nonResourceURLs /metrics; verbs get
    (source unknown)
  rule 2: apiGroups \"\"; resources secrets; verbs get
    src/controller.rs:14:1
  rule 3: apiGroups \"\", apps; resources pods; verbs list
    src/controller.rs:12:1
    src/controller.rs:13:1
Role users/secrets-reader
  rule 1: apiGroups \"\"; resources secrets; verbs get
    src/controller.rs:4:1
"
        );
    }
}
