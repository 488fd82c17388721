//! Parity with controller-gen's RBAC generator: every `+kubebuilder:rbac` marker of
//! controller-tools' `pkg/rbac/testdata/controller.go`, ported to `#[rbac(...)]` arguments
//! in the same order, must give its golden `role.yaml` (kept outside this repository;
//! `fixture_parity::golden` finds it): equal as data, and byte for byte through the YAML
//! writer.

#![cfg(all(feature = "parse", feature = "k8s"))]

use kubegen_core::model::Loc;
use kubegen_core::parse::rbac::parse;
use kubegen_core::rbac::{DEFAULT_ROLE, RbacRule, Role, explain, roles, to_k8s};
use kubegen_core::render::to_yaml_documents;

/// The markers of `pkg/rbac/testdata/controller.go`, with their line numbers there:
/// `resourceNames` is `resource_names`, `roleName` is `role_name`, and the marker list
/// `core;"";some-other-to-deduplicate-with-core` is written in the array form.
const MARKERS: &[(usize, &str)] = &[
    (
        19,
        r#"groups = "batch.io", resources = "cronjobs", verbs = "get;watch;create""#,
    ),
    (
        20,
        r#"groups = "batch.io", resources = "cronjobs/status", verbs = "get;update;patch""#,
    ),
    (21, r#"groups = "art", resources = "jobs", verbs = "get""#),
    (
        22,
        r#"groups = "wave", resources = "jobs", verbs = "get", namespace = "zoo""#,
    ),
    (
        23,
        r#"groups = "batch;batch;batch", resources = "jobs/status", verbs = "watch""#,
    ),
    (
        24,
        r#"groups = "batch;cron", resources = "jobs/status", verbs = "create;get""#,
    ),
    (
        25,
        r#"groups = "art", resources = "jobs", verbs = "get", namespace = "zoo""#,
    ),
    (
        26,
        r#"groups = "cron;batch", resources = "jobs/status", verbs = "get;create""#,
    ),
    (
        27,
        r#"groups = "batch", resources = "jobs/status", verbs = "watch;watch""#,
    ),
    (
        28,
        r#"groups = "art", resources = "jobs", verbs = "get", namespace = "park""#,
    ),
    (
        29,
        r#"groups = "batch.io", resources = "cronjobs", resource_names = "foo;bar;baz", verbs = "get;watch""#,
    ),
    (
        30,
        r#"groups = "deduplicate-verbs", resources = "some", verbs = "get;list""#,
    ),
    (
        31,
        r#"groups = "deduplicate-verbs", resources = "some", verbs = "get""#,
    ),
    (
        32,
        r#"groups = "deduplicate-verbs", resources = "some", verbs = "list""#,
    ),
    (
        33,
        r#"groups = "deduplicate-resources", resources = "one", verbs = "create""#,
    ),
    (
        34,
        r#"groups = "deduplicate-resources", resources = "two", verbs = "create""#,
    ),
    (
        35,
        r#"groups = "deduplicate-resources", resources = "three", verbs = "create""#,
    ),
    (
        36,
        r#"groups = "deduplicate-groups1", resources = "foo", verbs = "patch""#,
    ),
    (
        37,
        r#"groups = "deduplicate-groups2", resources = "foo", verbs = "patch""#,
    ),
    (
        38,
        r#"groups = "deduplicate-groups3", resources = "foo", verbs = "patch""#,
    ),
    (
        39,
        r#"groups = "deduplicate-all", resources = "foo;bar", verbs = "get;list""#,
    ),
    (
        40,
        r#"groups = "deduplicate-all", resources = "foo", verbs = "get""#,
    ),
    (
        41,
        r#"groups = "deduplicate-all", resources = "bar", verbs = "list""#,
    ),
    (
        42,
        r#"groups = "deduplicate-groups4", resources = "xyz", verbs = "get;update;patch""#,
    ),
    (
        43,
        r#"groups = "deduplicate-groups4", resources = "xyz", verbs = "*""#,
    ),
    (
        44,
        r#"groups = "deduplicate-all-group", resources = "foo;bar", verbs = "get;list""#,
    ),
    (
        45,
        r#"groups = "not-deduplicate-resources", resources = "some", verbs = "get""#,
    ),
    (
        46,
        r#"groups = "not-deduplicate-resources", resources = "another", verbs = "list""#,
    ),
    (
        47,
        r#"groups = "not-deduplicate-groups1", resources = "some", verbs = "get""#,
    ),
    (
        48,
        r#"groups = "not-deduplicate-groups2", resources = "some", verbs = "list""#,
    ),
    (49, r#"urls = "/url-to-duplicate", verbs = "get""#),
    (50, r#"urls = "/another/url-to-duplicate", verbs = "get""#),
    (
        51,
        r#"groups = "core", resources = "deduplicate", verbs = "list""#,
    ),
    (52, r#"groups = "", resources = "me", verbs = "list""#),
    (
        53,
        r#"groups = ["core", "", "some-other-to-deduplicate-with-core"], resources = "me", verbs = "list;get""#,
    ),
    (
        54,
        r#"groups = "deduplicate-groups5", resources = "abc", verbs = "get;update;patch;create", namespace = "here""#,
    ),
    (
        55,
        r#"groups = "deduplicate-groups5", resources = "abc", verbs = "*", namespace = "here""#,
    ),
    (
        57,
        r#"groups = "apps", namespace = "infrastructure", role_name = "infra-deployment-manager", resources = "deployments", verbs = "get;list;watch;update;patch""#,
    ),
    (
        58,
        r#"groups = "", namespace = "users", role_name = "user-secrets-reader", resources = "secrets", verbs = "get;list;watch""#,
    ),
    (
        60,
        r#"groups = "apps", namespace = "infrastructure", role_name = "infra-deployment-manager", resources = "statefulsets", verbs = "get;list""#,
    ),
    (
        62,
        r#"groups = "monitoring", namespace = "observability", resources = "prometheuses", verbs = "get;list""#,
    ),
];

const CONTROLLER_GO: &str = "pkg/rbac/testdata/controller.go";

/// controller-gen's `role.yaml`, or `None` when the goldens are absent (see
/// `fixture_parity::golden`).
fn golden_text() -> Option<String> {
    let path = fixture_parity::golden_path("controller-tools/pkg/rbac/testdata/role.yaml")?;
    Some(
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("controller-gen's golden {}: {e}", path.display())),
    )
}

/// The markers parsed as the CLI would: each with its location filled in.
fn rules() -> Vec<RbacRule> {
    MARKERS
        .iter()
        .map(|(line, args)| {
            let tokens = args.parse().unwrap_or_else(|e| panic!("line {line}: {e}"));
            let mut rule = parse(tokens).unwrap_or_else(|e| panic!("line {line}: {e}"));
            rule.loc = Some(Loc::at(CONTROLLER_GO, *line, 1));
            rule
        })
        .collect()
}

fn generated() -> Vec<Role> {
    roles(&rules(), DEFAULT_ROLE)
}

#[test]
fn ports_every_marker() {
    assert_eq!(MARKERS.len(), 41, "controller.go has 41 rbac markers");
    let Some(golden) = golden_text() else { return };
    assert_eq!(
        golden.matches("\nkind: ").count(),
        7,
        "1 ClusterRole + 6 Roles"
    );
}

#[test]
fn role_yaml_equals_the_golden_as_data() {
    let Some(golden) = golden_text() else { return };
    let golden: Vec<serde_json::Value> =
        serde_saphyr::from_multiple(&golden).expect("the golden parses as YAML");
    let ours = to_k8s(&generated());
    assert_eq!(ours.len(), golden.len());
    for (i, (ours, golden)) in ours.iter().zip(&golden).enumerate() {
        assert_eq!(ours, golden, "document {i}");
    }
}

#[test]
fn role_yaml_equals_the_golden_byte_for_byte() {
    let Some(golden) = golden_text() else { return };
    let ours = to_yaml_documents(&to_k8s(&generated()));
    if ours != golden {
        let diff = similar::TextDiff::from_lines(&golden, &ours);
        panic!(
            "role.yaml differs from the golden:\n{}",
            diff.unified_diff().header("golden", "ours")
        );
    }
}

#[test]
fn every_marker_is_traced_to_the_rules_it_feeds() {
    let roles = generated();
    let lines = |role: &Role, rule: usize| -> Vec<usize> {
        role.rules[rule].sources.iter().map(|l| l.line).collect()
    };
    let cluster = &roles[0];
    assert_eq!(cluster.name, "manager-role");
    // Rule 10: `deduplicate-all` three times, merged with `deduplicate-all-group`.
    assert_eq!(
        cluster.rules[9].api_groups,
        ["deduplicate-all", "deduplicate-all-group"]
    );
    assert_eq!(lines(cluster, 9), [39, 40, 41, 44]);
    // Rule 1: the two URL markers.
    assert_eq!(lines(cluster, 0), [49, 50]);
    // Every marker contributes somewhere.
    let mut seen: Vec<usize> = roles
        .iter()
        .flat_map(|r| {
            r.rules
                .iter()
                .flat_map(|rule| rule.sources.iter().map(|l| l.line))
        })
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        MARKERS.iter().map(|(line, _)| *line).collect::<Vec<_>>()
    );

    let text = explain(&roles);
    assert!(
        text.starts_with(
            "ClusterRole manager-role
  rule 1: nonResourceURLs /another/url-to-duplicate, /url-to-duplicate; verbs get
    pkg/rbac/testdata/controller.go:49:1
    pkg/rbac/testdata/controller.go:50:1
  rule 2: apiGroups \"\"; resources deduplicate, me; verbs list
    pkg/rbac/testdata/controller.go:51:1
    pkg/rbac/testdata/controller.go:52:1
"
        ),
        "{text}"
    );
    assert!(
        text.ends_with(
            "Role zoo/manager-role
  rule 1: apiGroups art, wave; resources jobs; verbs get
    pkg/rbac/testdata/controller.go:22:1
    pkg/rbac/testdata/controller.go:25:1
"
        ),
        "{text}"
    );
}
