//! The `kubegen` binary on small workspaces written to temporary folders: what it writes, what
//! it refuses, and how it reports problems (`file:line:col`, exit code 1, nothing written).

mod support {
    pub mod workspace;
}

use std::fs;
use std::process::Command;

use support::workspace::*;

/// Whether `err` reports `expected` (`file:line:col: level: message`) as rustc does: the
/// headline, then the `-->` line with the location.
fn diagnosed(err: &str, expected: &str) -> bool {
    let mut parts = expected.splitn(4, ": ");
    let (Some(loc), Some(level), Some(first), rest) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        panic!("`{expected}` is not `file:line:col: level: message`");
    };
    let message = match rest {
        Some(rest) => format!("{first}: {rest}"),
        None => first.to_string(),
    };
    let headline = format!("{level}: {message}");
    let lines: Vec<&str> = err.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        line.starts_with(&headline)
            && lines[i + 1..]
                .iter()
                .map(|l| l.trim_start())
                .find(|l| l.starts_with("-->"))
                .is_some_and(|at| at == format!("--> {loc}"))
    })
}

const WIDGET: &str = r#"
use kubegen::{rbac, CustomResource, KubeSchema};

/// WidgetSpec is a widget.
#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v1", kind = "Widget", status = "WidgetStatus")]
pub struct WidgetSpec {
    #[kube_marker(minimum = 1)]
    pub size: i32,
    pub parts: Vec<Part>,
}

#[derive(KubeSchema)]
pub struct WidgetStatus {
    pub ready: Option<bool>,
}

#[derive(KubeSchema)]
pub struct Part {
    pub name: String,
}

#[rbac(groups = "example.com", resources = "widgets", verbs = "get;list;watch")]
pub fn reconcile() {}
"#;

const CRD: &str = "api/config/crd/bases/example.com_widgets.yaml";
const ROLE: &str = "api/config/rbac/role.yaml";

#[test]
fn writes_the_config_tree_then_checks_it() {
    let ws = Workspace::new("writes");
    ws.write("api/src/lib.rs", WIDGET);
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let crd = ws.read(CRD);
    assert!(crd.starts_with(HEADER), "{crd}");
    assert!(crd.contains("  name: widgets.example.com\n"), "{crd}");
    assert!(
        crd.contains("\n                    name:\n                      type: string\n"),
        "{crd}"
    );
    let role = ws.read(ROLE);
    assert!(
        role.contains("kind: ClusterRole\nmetadata:\n  name: manager-role\n"),
        "{role}"
    );

    let fresh = ws.run(&["manifests", "--check"]);
    assert!(fresh.status.success(), "{}", stderr(&fresh));

    ws.write(
        "api/src/lib.rs",
        &WIDGET.replace("minimum = 1", "minimum = 2"),
    );
    let stale = ws.run(&["manifests", "--check"]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        stdout(&stale).contains("-                minimum: 1\n+                minimum: 2\n"),
        "{}",
        stdout(&stale)
    );
    assert!(
        stderr(&stale).contains("stale: api/config/crd/bases/example.com_widgets.yaml"),
        "{}",
        stderr(&stale)
    );
    assert_eq!(ws.read(CRD), crd, "--check writes nothing");
    // The fix is named as it runs where the user is: the installed binary, or `cargo run`
    // inside kubegen's own workspace (which tells the program its package).
    let check = |package: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kubegen"));
        command.args(["manifests", "--check"]).current_dir(&ws.root);
        match package {
            Some(p) => command.env("CARGO_PKG_NAME", p),
            None => command.env_remove("CARGO_PKG_NAME"),
        };
        command.output().unwrap()
    };
    let installed = check(None);
    assert!(
        stderr(&installed).contains("help: run `kubegen manifests`"),
        "{}",
        stderr(&installed)
    );
    let in_repo = check(Some("gen-cli"));
    assert!(
        stderr(&in_repo).contains("help: run `cargo run -p gen-cli -- manifests`"),
        "{}",
        stderr(&in_repo)
    );
}

#[test]
fn stdout_prints_instead_of_writing() {
    let ws = Workspace::new("stdout");
    ws.write("api/src/lib.rs", WIDGET);
    let out = ws.run(&["crd", "--stdout"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with(HEADER));
    assert!(!ws.exists(CRD));
}

#[test]
fn a_source_that_does_not_parse_is_located_and_nothing_is_written() {
    let ws = Workspace::new("parse");
    ws.write("api/src/lib.rs", "pub mod api;\n");
    ws.write(
        "api/src/api.rs",
        &format!("{WIDGET}\npub struct Broken {{ x: }}\n"),
    );
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        diagnosed(&err, "api/src/api.rs:26:24: error: syntax error"),
        "{err}"
    );
    assert!(!ws.exists("api/config"), "nothing is written");
}

#[test]
fn a_missing_module_file_is_reported_at_the_mod_item() {
    let ws = Workspace::new("module");
    ws.write("api/src/lib.rs", &format!("pub mod gone;\n{WIDGET}"));
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--> api/src/lib.rs:1:1\n"), "{err}");
    assert!(
        err.contains("gone.rs") && err.contains("gone/mod.rs"),
        "{err}"
    );
    assert!(!ws.exists("api/config"));
}

#[test]
fn attribute_errors_are_located_several_at_once() {
    let ws = Workspace::new("attr");
    let bad = WIDGET
        .replace("minimum = 1", "minimun = 1")
        .replace("verbs = \"get;list;watch\"", "verbs = \"get;lsit\"");
    ws.write("api/src/lib.rs", &bad);
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        diagnosed(&err, "api/src/lib.rs:8:19: error: Unknown field: `minimun`"),
        "{err}"
    );
    // The suggestion is a help that shows the fixed line, as rustc's do.
    assert!(
        err.contains("help: a key with a similar name exists: `minimum`\n")
            && err.contains("#[kube_marker(minimum = 1)]"),
        "{err}"
    );
    assert!(
        err.contains("help: a value with a similar name exists: `list`"),
        "{err}"
    );
    assert!(!ws.exists("api/config"));
}

#[test]
fn checks_the_derive_cannot_see_are_made_with_locations() {
    let ws = Workspace::new("deep");
    let bad = WIDGET.replace(
        "pub parts: Vec<Part>,",
        "#[kube_marker(list_type = \"map\", list_map_keys = \"id\")]\n    pub parts: Vec<Part>,\n    #[kube_marker(min_length = 2)]\n    pub count: Count,",
    ) + "\n#[derive(KubeSchema)]\n#[serde(transparent)]\npub struct Count(pub u32);\n";
    ws.write("api/src/lib.rs", &bad);
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        diagnosed(
            &err,
            "api/src/lib.rs:11:9: error: `list_map_keys` names `id`, which is not a field of the items (JSON names: name)"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "`min_length` applies to strings, but this is integer\n  --> api/src/lib.rs:13:9"
        ),
        "{err}"
    );
}

#[test]
fn unknown_types_are_named_with_the_fix() {
    let ws = Workspace::new("unknown");
    ws.write(
        "api/src/lib.rs",
        &WIDGET.replace("pub size: i32,", "pub size: std::time::Duration,"),
    );
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--> api/src/lib.rs:9:26\n"), "{err}");
    assert!(
        err.contains(
            "`std::time::Duration` is a type from another crate that kubegen does not know"
        ),
        "{err}"
    );
    assert!(err.contains("schemaless"), "{err}");
}

#[test]
fn an_error_inside_a_type_alias_of_another_file_is_located_there() {
    let ws = Workspace::new("alias");
    ws.write(
        "api/src/lib.rs",
        &WIDGET
            .replace("pub size: i32,", "pub size: types::Sizes,")
            .replace("use kubegen::", "mod types;\nuse kubegen::"),
    );
    // The alias's type starts on line 2 and the unknown type is on its second line.
    ws.write(
        "api/src/types.rs",
        "/// Sizes by name.\npub type Sizes = std::collections::BTreeMap<\n    String,\n    Duraton,\n>;\n",
    );
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--> api/src/lib.rs:10:22\n"), "{err}");
    assert!(
        err.contains("in type alias `Sizes` (api/src/types.rs:4:5): "),
        "{err}"
    );
    assert!(err.contains("cannot resolve type `Duraton`"), "{err}");
}

#[test]
fn a_package_that_is_not_a_member_is_an_error() {
    let ws = Workspace::new("member");
    ws.write("api/src/lib.rs", WIDGET);
    let out = ws.run(&["manifests", "-p", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("package `nope` is not a member of the workspace (members: api)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_protected_group_needs_the_approval_annotation() {
    let ws = Workspace::new("protected");
    let protected = WIDGET.replace("group = \"example.com\"", "group = \"widgets.k8s.io\"");
    ws.write("api/src/lib.rs", &protected);
    let err = ws.fails(&["manifests"]);
    let message = kubegen_core::names::approval_problem("widgets.k8s.io", None).unwrap();
    assert!(
        diagnosed(&err, &format!("api/src/lib.rs:6:23: error: {message}")),
        "{err}"
    );
    assert!(
        message.contains("protected groups must have approval annotation")
            && message.contains(
                "annotations = \"api-approved.kubernetes.io=https://github.com/kubernetes/enhancements/pull/NNNN\""
            ),
        "{message}"
    );
    assert!(!ws.exists("api/config"), "nothing is written");

    let approved = protected.replace(
        "#[derive(CustomResource)]",
        "#[derive(CustomResource)]\n#[kube_marker(annotations = \"api-approved.kubernetes.io=https://github.com/kubernetes/enhancements/pull/1111\")]",
    );
    ws.write("api/src/lib.rs", &approved);
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let crd = ws.read("api/config/crd/bases/widgets.k8s.io_widgets.yaml");
    assert!(
        crd.contains(
            "api-approved.kubernetes.io: https://github.com/kubernetes/enhancements/pull/1111"
        ),
        "{crd}"
    );
}

#[test]
fn never_overwrites_a_file_it_did_not_write() {
    let ws = Workspace::new("theirs");
    ws.write("api/src/lib.rs", WIDGET);
    ws.write(ROLE, "# mine\nkind: ClusterRole\n");
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("was not written by kubegen"),
        "{}",
        stderr(&out)
    );
    assert_eq!(ws.read(ROLE), "# mine\nkind: ClusterRole\n");
    assert!(
        !ws.exists(CRD),
        "nothing is written when one file is refused"
    );
}

#[test]
fn a_crd_whose_kind_is_gone_is_removed() {
    let ws = Workspace::new("stale");
    ws.write("api/src/lib.rs", WIDGET);
    assert!(ws.run(&["manifests"]).status.success());
    ws.write("api/config/crd/bases/notes.yaml", "hand: written\n");
    ws.write("api/src/lib.rs", &WIDGET.replace("Widget\"", "Gadget\""));
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("removed: api/config/crd/bases/example.com_widgets.yaml"),
        "{}",
        stderr(&out)
    );
    assert!(!ws.exists(CRD));
    assert!(ws.exists("api/config/crd/bases/example.com_gadgets.yaml"));
    assert!(
        ws.exists("api/config/crd/bases/notes.yaml"),
        "files kubegen did not write stay"
    );
}

#[test]
fn versions_of_one_kind_merge_and_conflicts_name_both() {
    let ws = Workspace::new("versions");
    let v2 = WIDGET
        .replace("version = \"v1\"", "version = \"v2\", storage_version")
        .replace("use kubegen::{rbac, CustomResource, KubeSchema};", "use kubegen::{CustomResource, KubeSchema};")
        .replace("#[rbac(groups = \"example.com\", resources = \"widgets\", verbs = \"get;list;watch\")]\npub fn reconcile() {}", "");
    ws.write("api/src/lib.rs", "pub mod v1;\npub mod v2;\n");
    ws.write("api/src/v1.rs", WIDGET);
    ws.write("api/src/v2.rs", &v2);
    let out = ws.run(&["crd"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let crd = ws.read(CRD);
    assert!(
        crd.contains("  - name: v1\n") && crd.contains("  - name: v2\n"),
        "{crd}"
    );
    assert!(
        crd.contains("    served: true\n    storage: false\n"),
        "{crd}"
    );

    ws.write(
        "api/src/v1.rs",
        &WIDGET.replace("version = \"v1\"", "version = \"v1\", namespaced"),
    );
    ws.write(
        "api/src/v2.rs",
        &v2.replace(", storage_version", ", scope = \"Cluster\""),
    );
    let out = ws.run(&["crd"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "versions v1 (api/src/v1.rs:7:12) and v2 (api/src/v2.rs:7:12) give different `scope`"
        ),
        "{err}"
    );
    assert!(
        err.contains("none of the versions v1, v2 is marked `storage_version`"),
        "{err}"
    );
}

/// The paths in messages are relative to where the command runs.
#[test]
fn locations_are_relative_to_the_current_folder() {
    let ws = Workspace::new("relative");
    ws.write(
        "api/src/lib.rs",
        &WIDGET.replace("minimum = 1", "minimum = \"1\""),
    );
    let out = ws.run(&["manifests", "--manifest-path", "api/Cargo.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("\n --> api/src/lib.rs:8:29\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn cel_rules_must_parse_type_check_and_fit_the_cost_budget() {
    let ws = Workspace::new("cel");
    let bad = WIDGET.replace(
        "pub struct WidgetSpec {",
        "#[kube_marker(x_validation(rule = \"self.sise > 0\", message = \"typo\"))]\npub struct WidgetSpec {",
    );
    ws.write("api/src/lib.rs", &bad);
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    // Worded as the derive words it: the type's rules are checked with the type, each
    // problem at the part of its rule at fault (the derive underlines the whole literal).
    assert!(
        diagnosed(
            &err,
            "api/src/lib.rs:7:36: error: WidgetSpec: rule `self.sise > 0`: selects `sise`, which is not a field there (fields: parts, size)"
        ),
        "{err}"
    );
    assert!(
        err.contains("\n  |                                    ^^^^^^^^^\n"),
        "{err}"
    );

    ws.write(
        "api/src/lib.rs",
        &WIDGET.replace(
            "#[kube_marker(minimum = 1)]",
            "#[kube_marker(x_validation(rule = \"self >\"))]",
        ),
    );
    let err = stderr(&ws.run(&["manifests"]));
    assert!(
        diagnosed(&err, "api/src/lib.rs:8:39: error: invalid CEL rule"),
        "{err}"
    );

    ws.write("api/src/lib.rs", &with_tags(None));
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        diagnosed(
            &err,
            "api/src/lib.rs:7:35: error: WidgetSpec: rule `self.tags.all(t, t.contains('a'))`: \
             estimated cost 329857577778 exceeds the apiserver's limit of 10000000 by factor of \
             more than 100x; add `max_items = 100` (maxItems) on `.tags`, `max_length = 256` \
             (maxLength) on `.tags[*]`: the estimate would become 10703"
        ),
        "{err}"
    );
}

/// The widget with `tags` (at most `max_items`) and a rule reading every tag.
fn with_tags(max_items: Option<u32>) -> String {
    let bound = max_items.map_or(String::new(), |n| {
        format!("#[kube_marker(max_items = {n})]\n    ")
    });
    WIDGET
        .replace(
            "pub struct WidgetSpec {",
            "#[kube_marker(x_validation(rule = \"self.tags.all(t, t.contains('a'))\", message = \"no a\"))]\npub struct WidgetSpec {",
        )
        .replace(
            "    pub parts: Vec<Part>,",
            &format!("    pub parts: Vec<Part>,\n    {bound}pub tags: Vec<String>,"),
        )
}

/// A rule whose estimated cost is within 10% of the apiserver's limit is accepted, with a
/// warning at the kind.
#[test]
fn a_cel_cost_near_the_limit_is_a_warning() {
    let ws = Workspace::new("cel-near");
    ws.write("api/src/lib.rs", &with_tags(Some(30)));
    for args in [&["manifests"][..], &["manifests", "--check"]] {
        let out = ws.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            diagnosed(
                &err,
                "api/src/lib.rs:8:12: warning: .spec: rule \
                 `self.tags.all(t, t.contains('a'))`: estimated cost 9437313 is within 10% of \
                 the apiserver's limit of 10000000"
            ),
            "{err}"
        );
    }
    ws.write("api/src/lib.rs", &with_tags(Some(20)));
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(!err.contains("estimated cost"), "{err}");
    // The only warning left: the lower `maxItems` breaks objects already stored.
    assert!(
        err.contains("warning: breaking change to `widgets.example.com` v1 .spec.tags: maximum decreased: 30 -> 20"),
        "{err}"
    );
}

#[test]
fn out_dir_and_role_name_are_honored() {
    let ws = Workspace::new("flags");
    let with_helper = WIDGET.replace(
        "#[derive(CustomResource)]\n",
        "#[derive(CustomResource)]\n#[rbac(groups = \"example.com\", resources = \"widgets/status\", verbs = \"update;patch\")]\n",
    );
    ws.write("api/src/lib.rs", &with_helper);
    let out = ws.run(&[
        "manifests",
        "--out-dir",
        "deploy",
        "--role-name",
        "widget-operator",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(ws.exists("api/deploy/crd/bases/example.com_widgets.yaml"));
    let role = ws.read("api/deploy/rbac/role.yaml");
    assert!(role.contains("  name: widget-operator\n"), "{role}");
    assert!(
        role.contains("  - widgets/status\n  verbs:\n  - patch\n  - update\n"),
        "{role}"
    );
    assert!(!ws.exists("api/config"));
}

#[test]
fn a_serde_default_function_without_a_schema_default_is_a_warning() {
    let ws = Workspace::new("serde-default");
    let src = WIDGET
        .replace(
            "    pub size: i32,",
            "    #[serde(default = \"three\")]\n    pub size: i32,",
        )
        .replace(
            "#[derive(KubeSchema)]\npub struct Part {",
            "#[derive(KubeSchema)]\n#[serde(default = \"Part::sample\")]\npub struct Part {",
        );
    ws.write("api/src/lib.rs", &src);
    for args in [&["manifests"][..], &["manifests", "--check"]] {
        let out = ws.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            diagnosed(
                &err,
                "api/src/lib.rs:10:9: warning: `#[serde(default = \"three\")]` \
                 has no schema default: the API server will not fill this field in"
            ),
            "{err}"
        );
        assert!(
            err.contains("`#[kube_marker(default = ...)]` (or `default_json`) with the value `three()` returns"),
            "{err}"
        );
        assert!(
            diagnosed(
                &err,
                "api/src/lib.rs:21:12: warning: `#[serde(default = \"Part::sample\")]` \
                 fills missing fields from `Part::sample()`"
            ),
            "{err}"
        );
        assert!(err.contains("the schema has none for `name`"), "{err}");
    }
    assert!(ws.exists(CRD), "a warning does not stop the writing");

    ws.write(
        "api/src/lib.rs",
        &src.replace("minimum = 1", "minimum = 1, default = 3")
            .replace(
                "pub name: String,",
                "#[kube_marker(default = \"x\")]\n    pub name: String,",
            ),
    );
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(!err.contains("fills missing fields"), "{err}");
    // The only warnings left: the new defaults change objects already stored.
    assert!(
        err.contains("default added when there was none previously: 3"),
        "{err}"
    );
}

/// Two packages, `api` and `web` (a Gadget); which one kubegen reaches first does not matter.
fn two_packages(name: &str) -> Workspace {
    let ws = Workspace::with_members(name, &["api", "web"]);
    ws.write("api/src/lib.rs", WIDGET);
    ws.write("web/src/lib.rs", &WIDGET.replace("Widget\"", "Gadget\""));
    ws
}

const WEB_CRD: &str = "web/config/crd/bases/example.com_gadgets.yaml";
const WEB_ROLE: &str = "web/config/rbac/role.yaml";

#[test]
fn a_file_in_the_way_in_one_package_stops_every_package() {
    let ws = two_packages("in-the-way");
    ws.write(WEB_ROLE, "# mine\n");
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error: web/config/rbac/role.yaml: exists and was not written by kubegen"),
        "{err}"
    );
    assert!(!ws.exists("api/config"), "nothing is written in api: {err}");
    assert!(!ws.exists(WEB_CRD));

    // The other way round, and every file in the way is named.
    ws.write(ROLE, "# mine too\n");
    let err = stderr(&ws.run(&["manifests"]));
    assert!(
        err.contains("error: api/config/rbac/role.yaml: exists"),
        "{err}"
    );
    assert!(
        err.contains("error: web/config/rbac/role.yaml: exists"),
        "{err}"
    );
    fs::remove_file(ws.root.join(WEB_ROLE)).unwrap();
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        !ws.exists(WEB_ROLE) && !ws.exists(WEB_CRD),
        "nothing is written in web"
    );
    assert!(!ws.exists(CRD));

    fs::remove_file(ws.root.join(ROLE)).unwrap();
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(ws.exists(CRD) && ws.exists(WEB_CRD));
}

#[test]
fn a_schema_error_in_one_package_stops_every_package() {
    let ws = two_packages("schema-error");
    let broken = |kind: &str| {
        WIDGET.replace("Widget\"", &format!("{kind}\"")).replace(
            "#[kube_marker(minimum = 1)]",
            "#[kube_marker(min_length = 1)]",
        )
    };
    ws.write("web/src/lib.rs", &broken("Gadget"));
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--> web/src/lib.rs:9:9"), "{err}");
    assert!(!ws.exists("api/config"), "nothing is written in api: {err}");

    ws.write("web/src/lib.rs", &WIDGET.replace("Widget\"", "Gadget\""));
    ws.write("api/src/lib.rs", &broken("Widget"));
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--> api/src/lib.rs:9:9\n"),
        "{}",
        stderr(&out)
    );
    assert!(!ws.exists("web/config"), "nothing is written in web");
}

const HOOKS: &str = "api/config/webhook/manifests.yaml";

/// A validating and a mutating webhook on different items, the mutating one with the default
/// path.
const WEBHOOKS: &str = r#"
use kubegen::{webhook, webhook_configuration};

#[webhook(mutating = false, failure_policy = "fail", side_effects = "None", groups = "example.com",
    resources = "widgets", verbs = "create;update", versions = "v1",
    name = "validate.widgets.example.com", admission_review_versions = "v1",
    url = "https://hooks.example.com/validate")]
pub struct Validator;

#[webhook(mutating = true, failure_policy = "ignore", side_effects = "NoneOnDryRun",
    groups = "example.com", resources = "widgets", verbs = "create", versions = "v1",
    name = "default.widgets.example.com", admission_review_versions = "v1")]
pub fn default() {}

#[webhook_configuration(mutating = true, name = "widget-defaulter")]
pub mod names {}
"#;

#[test]
fn webhooks_are_written_mutating_first_and_removed_when_gone() {
    let ws = Workspace::new("webhooks");
    ws.write("api/src/lib.rs", WEBHOOKS);
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let hooks = ws.read(HOOKS);
    assert!(hooks.starts_with(HEADER), "{hooks}");
    let mutating = hooks
        .find("kind: MutatingWebhookConfiguration\nmetadata:\n  name: widget-defaulter\n")
        .expect("the renamed mutating configuration");
    let validating = hooks
        .find("kind: ValidatingWebhookConfiguration\nmetadata:\n  name: validating-webhook-configuration\n")
        .expect("the validating configuration");
    assert!(mutating < validating, "{hooks}");
    assert!(
        hooks.contains("      path: /mutate-example-com-v1-widget\n"),
        "{hooks}"
    );
    assert!(
        hooks.contains("    url: https://hooks.example.com/validate\n"),
        "{hooks}"
    );
    assert!(hooks.contains("  failurePolicy: Ignore\n"), "{hooks}");
    let only = ws.run(&["webhook", "--stdout"]);
    assert!(only.status.success(), "{}", stderr(&only));
    assert!(stdout(&only).contains(&hooks), "{}", stdout(&only));
    assert!(!stdout(&only).contains("ClusterRole"), "{}", stdout(&only));

    ws.write("api/src/lib.rs", WIDGET);
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!ws.exists(HOOKS), "no webhook, no file");
}

#[test]
fn two_names_for_one_configuration_are_an_error_at_the_second() {
    let ws = Workspace::new("webhook-names");
    ws.write(
        "api/src/lib.rs",
        &format!(
            "{WEBHOOKS}\n#[webhook_configuration(mutating = true, name = \"bar\")]\npub fn other() {{}}\n"
        ),
    );
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        diagnosed(
            &err,
            "api/src/lib.rs:18:1: error: a second `#[webhook_configuration]` names the mutating configuration `bar`; it is already named `widget-defaulter` at api/src/lib.rs:15:1"
        ),
        "{err}"
    );
    assert!(!ws.exists(HOOKS));
}

#[test]
fn webhook_errors_are_located() {
    let ws = Workspace::new("webhook-errors");
    ws.write(
        "api/src/lib.rs",
        &WEBHOOKS.replace("verbs = \"create\"", "verbs = \"craete\""),
    );
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        diagnosed(&err, "api/src/lib.rs:11:61: error: ")
            && err.contains("unknown verb `craete`; the operations are")
            && err.contains("help: a value with a similar name exists: `create`"),
        "{err}"
    );
}

#[test]
fn a_conversion_webhook_goes_into_the_crd_of_several_versions_only() {
    let ws = Workspace::new("conversion");
    let v1 = WIDGET.replace(
        "version = \"v1\",",
        "version = \"v1\", conversion(webhook(url = \"https://convert.example.com/widgets\")),",
    );
    let v2 = WIDGET.replace("version = \"v1\"", "version = \"v2\", storage_version");
    ws.write("api/src/lib.rs", "pub mod v1;\npub mod v2;\n");
    ws.write("api/src/v1.rs", &v1);
    ws.write("api/src/v2.rs", &v2);
    let out = ws.run(&["crd"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let crd = ws.read(CRD);
    assert!(
        crd.contains(
            "  conversion:\n    strategy: Webhook\n    webhook:\n      clientConfig:\n        \
             url: https://convert.example.com/widgets\n      conversionReviewVersions:\n      - v1\n"
        ),
        "{crd}"
    );

    ws.write("api/src/lib.rs", "pub mod v1;\n");
    let out = ws.run(&["crd"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("api/src/v1.rs:")
            && err
                .contains("`conversion` converts between versions, and Widget has only version v1"),
        "{err}"
    );
}

/// `api` with a `PodSpec` field and a k8s-openapi dependency enabling `feature`.
fn pod_workspace(name: &str, feature: &str) -> Workspace {
    let ws = Workspace::new(name);
    ws.write(
        "api/Cargo.toml",
        &format!(
            "[package]\nname = \"api\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nkubegen = \"0.1.0\"\n\
             k8s-openapi = {{ version = \"0.29.0\", features = [\"{feature}\"] }}\n"
        ),
    );
    ws.write(
        "api/src/lib.rs",
        &WIDGET.replace(
            "pub parts: Vec<Part>,",
            "pub parts: Vec<Part>,\n    pub pod: k8s_openapi::api::core::v1::PodSpec,",
        ),
    );
    ws
}

#[test]
fn the_kubernetes_version_is_the_one_the_package_names() {
    let newest = pod_workspace("k8s-latest", "latest");
    let out = newest.run(&["crd", "--stdout"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("evictionResponders:"));

    // Kubernetes 1.36's PodSpec has no `evictionResponders` (new in 1.37).
    let older = pod_workspace("k8s-1-36", "v1_36");
    let out = older.run(&["crd", "--stdout"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let crd = stdout(&out);
    assert!(crd.contains("containers:") && !crd.contains("evictionResponders:"));
}

#[test]
fn a_kubernetes_version_without_tables_is_an_error_naming_the_supported_ones() {
    let ws = pod_workspace("k8s-1-32", "v1_32");
    let out = ws.run(&["manifests"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("no tables for Kubernetes 1.32")
            && err.contains("supported: v1_33, v1_34, v1_35, v1_36, v1_37"),
        "{err}"
    );
    assert!(!ws.exists(CRD));
}

/// `--message-format json`: one object per diagnostic on standard output, with rustc's field
/// names, the span as bytes, lines and columns.
#[test]
fn diagnostics_as_json_carry_rustc_fields() {
    let ws = Workspace::new("json");
    ws.write(
        "api/src/lib.rs",
        &WIDGET.replace("minimum = 1", "minimun = 1"),
    );
    let out = ws.run(&["manifests", "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(objects.len(), 1, "{text}");
    let d = &objects[0];
    assert_eq!(d["$message_type"], "diagnostic");
    assert_eq!(d["level"], "error");
    assert_eq!(d["message"], "Unknown field: `minimun`");
    let span = &d["spans"][0];
    assert_eq!(span["file_name"], "api/src/lib.rs");
    assert_eq!(span["is_primary"], true);
    assert_eq!(
        (span["line_start"].as_u64(), span["column_start"].as_u64()),
        (Some(8), Some(19))
    );
    assert_eq!(span["column_end"].as_u64(), Some(26), "`minimun` alone");
    let source = ws.read("api/src/lib.rs");
    let (start, end) = (
        span["byte_start"].as_u64().unwrap() as usize,
        span["byte_end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&source[start..end], "minimun");
    assert!(
        d["rendered"]
            .as_str()
            .unwrap()
            .contains("--> api/src/lib.rs:8:19"),
        "{d}"
    );
    let help = &d["children"][0];
    assert_eq!(help["level"], "help");
    assert_eq!(help["spans"][0]["suggested_replacement"], "minimum");
    assert_eq!(help["spans"][0]["byte_start"], span["byte_start"]);
    assert!(
        stderr(&out).is_empty(),
        "JSON goes to stdout only: {}",
        stderr(&out)
    );
}

/// `--color always` colors (ANSI escapes); `never`, and `auto` on a pipe, do not.
#[test]
fn colors_as_asked() {
    let ws = Workspace::new("color");
    ws.write(
        "api/src/lib.rs",
        &WIDGET.replace("minimum = 1", "minimun = 1"),
    );
    let colored = stderr(&ws.run(&["manifests", "--color", "always"]));
    assert!(colored.contains("\u{1b}["), "{colored:?}");
    for args in [&["manifests", "--color", "never"][..], &["manifests"]] {
        let plain = stderr(&ws.run(args));
        assert!(!plain.contains('\u{1b}'), "{args:?}: {plain:?}");
        assert!(
            diagnosed(&plain, "api/src/lib.rs:8:19: error: Unknown field"),
            "{plain}"
        );
    }
}

/// A member `api` with features (`beta` by default, `gamma`), and a member `tools` with one.
fn featured(name: &str) -> Workspace {
    let ws = Workspace::with_members(name, &["api", "tools"]);
    ws.write(
        "api/Cargo.toml",
        "[package]\nname = \"api\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [features]\ndefault = [\"beta\"]\nbeta = []\ngamma = [\"beta\"]\n\n\
         [dependencies]\nkubegen = \"0.1.0\"\n",
    );
    ws.write(
        "api/src/lib.rs",
        r#"
use kubegen::CustomResource;

#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    pub size: i32,
    #[cfg(feature = "beta")]
    pub beta: i32,
    #[cfg_attr(feature = "gamma", kube_marker(maximum = 9))]
    #[cfg_attr(not(feature = "gamma"), cfg(any()))]
    pub gamma: i32,
}
"#,
    );
    ws.write(
        "tools/Cargo.toml",
        "[package]\nname = \"tools\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [features]\nfast = []\n\n[dependencies]\nkubegen = \"0.1.0\"\n",
    );
    ws.write("tools/src/lib.rs", "");
    ws
}

#[test]
fn sources_are_read_with_each_packages_features_as_cargo_decides_them() {
    let ws = featured("features");
    let crd = |flags: &[&str]| {
        let out = ws.run(&[&["crd", "--stdout"], flags].concat());
        assert!(out.status.success(), "{flags:?}: {}", stderr(&out));
        let crd = stdout(&out);
        (crd.contains("beta:"), crd.contains("maximum: 9"))
    };
    assert_eq!(crd(&[]), (true, false), "the default features");
    assert_eq!(crd(&["--no-default-features"]), (false, false));
    assert_eq!(
        crd(&["--no-default-features", "--features", "gamma"]),
        (true, true)
    );
    assert_eq!(crd(&["--features", "api/gamma tools/fast"]), (true, true));
    assert_eq!(
        crd(&["--features", "fast"]),
        (true, false),
        "`fast` is `tools`' only"
    );
    assert_eq!(crd(&["--all-features"]), (true, true));
    assert_eq!(crd(&["-p", "api", "-F", "gamma"]), (true, true));
}

#[test]
fn an_unknown_feature_names_the_package_and_a_near_name() {
    let ws = featured("unknown-feature");
    let err = ws.fails(&["manifests", "--features", "gama"]);
    assert!(
        err.contains("error: none of the selected packages (`api`, `tools`) has a feature `gama`")
            && err.contains("help: did you mean `gamma` (of package `api`)?"),
        "{err}"
    );
    let err = ws.fails(&["manifests", "-p", "api", "--features", "bta"]);
    assert!(
        err.contains("error: package `api` has no feature `bta`")
            && err.contains("help: did you mean `beta`?"),
        "{err}"
    );
    let err = ws.fails(&["crd", "--features", "tools/gamma"]);
    assert!(
        err.contains("error: package `tools` has no feature `gamma`")
            && err.contains("note: its features: `fast`"),
        "{err}"
    );
    assert!(!ws.exists(CRD), "nothing is written");
}

#[test]
fn a_malformed_cfg_is_located_and_nothing_is_written() {
    let ws = Workspace::new("bad-cfg");
    ws.write(
        "api/src/lib.rs",
        "use kubegen::CustomResource;\n\
         #[derive(CustomResource)]\n\
         #[kube_marker(group = \"example.com\", version = \"v1\", kind = \"Widget\")]\n\
         pub struct WidgetSpec {\n    #[cfg(feature = 1)]\n    pub size: i32,\n}\n",
    );
    let err = ws.fails(&["manifests"]);
    assert!(
        reports(
            &err,
            "api/src/lib.rs:5:21",
            "a `cfg` value must be a string literal"
        ),
        "{err}"
    );
    assert!(!ws.exists(CRD));
}
