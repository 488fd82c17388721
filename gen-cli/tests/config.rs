//! The project configuration (`[package.metadata.kubegen]`, `[workspace.metadata.kubegen]`
//! and the flags of the same names) on small workspaces: every key, their precedence, and the
//! layouts refused.

mod support {
    pub mod workspace;
}

use support::workspace::*;

const GADGET: &str = r#"
use kubegen::{rbac, webhook, CustomResource};

/// GadgetSpec is the desired state of a gadget, described at some length.
#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v1", kind = "Gadget")]
pub struct GadgetSpec {
    /// How many gadgets to run. A longer sentence follows the first one.
    pub size: i32,
}

#[rbac(groups = "example.com", resources = "gadgets", verbs = "get;list;watch")]
pub fn reconcile() {}

#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "example.com",
    resources = "gadgets", verbs = "create", versions = "v1",
    name = "default.gadgets.example.com", admission_review_versions = "v1",
    url = "https://hooks.example.com/default")]
pub fn default() {}
"#;

const BOILERPLATE: &str = "/*\nCopyright YEAR The Gadget Authors.\n\nLicensed under the Apache License, Version 2.0.\n*/\n";

/// A workspace of one member, `api`, declaring a Gadget, with `table` added to the manifest
/// at `path`.
fn gadget(name: &str, path: &str, table: &str) -> Workspace {
    let ws = Workspace::new(name);
    ws.write("api/src/lib.rs", GADGET);
    append(&ws, path, table);
    ws
}

/// A workspace of two members: `api` declares a Gadget, `web` a Widget.
fn two_members(name: &str) -> Workspace {
    let ws = Workspace::with_members(name, &["api", "web"]);
    ws.write("api/src/lib.rs", GADGET);
    let widget = GADGET
        .replace("Gadget", "Widget")
        .replace("gadget", "widget");
    ws.write("web/src/lib.rs", &widget);
    ws
}

/// Appends `text` to the manifest at `path`.
fn append(ws: &Workspace, path: &str, text: &str) {
    let old = ws.read(path);
    ws.write(path, &format!("{old}\n{text}"));
}

#[test]
fn a_helm_chart_layout_with_a_license_header() {
    let ws = gadget(
        "config-helm",
        "api/Cargo.toml",
        "[package.metadata.kubegen]\n\
         crd-dir = \"../charts/gadget/crds\"\n\
         rbac-dir = \"../charts/gadget/templates\"\n\
         webhook-dir = \"../charts/gadget/templates\"\n\
         role-name = \"gadget-manager\"\n\
         role-file = \"manager-role.yaml\"\n\
         max-desc-len = 0\n\
         header-file = \"../hack/boilerplate.go.txt\"\n\
         year = 2026\n",
    );
    ws.write("hack/boilerplate.go.txt", BOILERPLATE);
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let license = "# Copyright 2026 The Gadget Authors.\n#\n# Licensed under the Apache License, Version 2.0.\n";
    let crd = ws.read("charts/gadget/crds/example.com_gadgets.yaml");
    assert!(crd.starts_with(&format!("{license}{HEADER}---\n")), "{crd}");
    assert!(!crd.contains("description:"), "max-desc-len = 0: {crd}");
    let role = ws.read("charts/gadget/templates/manager-role.yaml");
    assert!(role.starts_with(license), "{role}");
    assert!(role.contains("  name: gadget-manager\n"), "{role}");
    let hooks = ws.read("charts/gadget/templates/manifests.yaml");
    assert!(hooks.starts_with(license), "{hooks}");
    assert!(!ws.exists("api/config"), "nothing in the default layout");

    let fresh = ws.run(&["manifests", "--check"]);
    assert!(fresh.status.success(), "{}", stderr(&fresh));

    // A hand-written file beside kubegen's is never touched; kubegen's own file of a kind that
    // is gone is removed, header or not.
    ws.write("charts/gadget/crds/theirs.yaml", "kind: Theirs\n");
    ws.write(
        "api/src/lib.rs",
        &GADGET.replace("#[derive(CustomResource)]", ""),
    );
    let stale = ws.fails(&["manifests", "--check"]);
    assert!(
        stale.contains("would remove: charts/gadget/crds/example.com_gadgets.yaml"),
        "{stale}"
    );
    let out = ws.run(&["manifests"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!ws.exists("charts/gadget/crds/example.com_gadgets.yaml"));
    assert_eq!(ws.read("charts/gadget/crds/theirs.yaml"), "kind: Theirs\n");
}

#[test]
fn flags_override_the_package_which_overrides_the_workspace() {
    let ws = two_members("config-precedence");
    ws.write("hack/boilerplate.go.txt", BOILERPLATE);
    ws.write("api/header.txt", "# api's own YEAR header\n");
    ws.write("flag-header.txt", "Flag header YEAR.\n");
    append(
        &ws,
        "Cargo.toml",
        "[workspace.metadata.kubegen]\n\
         crd-dir = \"deploy/crds\"\n\
         rbac-dir = \"deploy/rbac\"\n\
         webhook-dir = \"deploy/webhook\"\n\
         docs-dir = \"deploy/docs\"\n\
         role-name = \"workspace-role\"\n\
         role-file = \"workspace.yaml\"\n\
         max-desc-len = 0\n\
         header-file = \"hack/boilerplate.go.txt\"\n\
         year = \"2020\"\n",
    );
    append(
        &ws,
        "api/Cargo.toml",
        "[package.metadata.kubegen]\n\
         crd-dir = \"crds\"\n\
         rbac-dir = \"rbac\"\n\
         webhook-dir = \"webhook\"\n\
         docs-dir = \"reference\"\n\
         role-name = \"package-role\"\n\
         role-file = \"package.yaml\"\n\
         max-desc-len = 30\n\
         header-file = \"header.txt\"\n\
         year = 2021\n",
    );
    for command in ["manifests", "docs"] {
        let out = ws.run(&[command]);
        assert!(out.status.success(), "{}", stderr(&out));
    }

    // `web` has no table: the workspace's keys, its paths under `web/`, the header file
    // relative to the workspace's manifest.
    let crd = ws.read("web/deploy/crds/example.com_widgets.yaml");
    assert!(
        crd.starts_with("# Copyright 2020 The Gadget Authors.\n"),
        "{crd}"
    );
    assert!(!crd.contains("description:"), "{crd}");
    let role = ws.read("web/deploy/rbac/workspace.yaml");
    assert!(role.contains("  name: workspace-role\n"), "{role}");
    assert!(ws.exists("web/deploy/webhook/manifests.yaml"));
    let page = ws.read("web/deploy/docs/example.com_v1.md");
    assert!(
        page.starts_with("<!--\nCopyright 2020 The Gadget Authors.\n"),
        "{page}"
    );

    // `api`'s own keys win, its header file relative to its manifest.
    let crd = ws.read("api/crds/example.com_gadgets.yaml");
    assert!(
        crd.starts_with(&format!("# api's own 2021 header\n{HEADER}")),
        "{crd}"
    );
    assert!(
        crd.contains("description: GadgetSpec is the desired...\n"),
        "max-desc-len = 30: {crd}"
    );
    let role = ws.read("api/rbac/package.yaml");
    assert!(role.contains("  name: package-role\n"), "{role}");
    assert!(ws.exists("api/webhook/manifests.yaml"));
    assert!(ws.exists("api/reference/example.com_v1.md"));

    // The flags win over both; a flag's header file is relative to the current folder.
    let out = ws.run(&[
        "manifests",
        "-p",
        "api",
        "--crd-dir",
        "flag/crds",
        "--rbac-dir",
        "flag/rbac",
        "--webhook-dir",
        "flag/webhook",
        "--role-name",
        "flag-role",
        "--role-file",
        "flag.yaml",
        "--max-desc-len",
        "0",
        "--header-file",
        "flag-header.txt",
        "--year",
        "2022",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let crd = ws.read("api/flag/crds/example.com_gadgets.yaml");
    assert!(
        crd.starts_with(&format!("# Flag header 2022.\n{HEADER}")),
        "{crd}"
    );
    assert!(!crd.contains("description:"), "{crd}");
    let role = ws.read("api/flag/rbac/flag.yaml");
    assert!(role.contains("  name: flag-role\n"), "{role}");
    assert!(ws.exists("api/flag/webhook/manifests.yaml"));
    let out = ws.run(&["docs", "-p", "api", "--docs-dir", "flag/docs"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(ws.exists("api/flag/docs/example.com_v1.md"));
}

#[test]
fn a_folder_configured_twice_is_an_error_and_nothing_is_written() {
    let ws = two_members("config-twice");
    for member in ["api", "web"] {
        append(
            &ws,
            &format!("{member}/Cargo.toml"),
            "[package.metadata.kubegen]\ncrd-dir = \"../chart/crds\"\n",
        );
    }
    let err = ws.fails(&["manifests"]);
    assert!(
        err.contains("`api`'s crd-dir and `web`'s crd-dir both write to ")
            && err.contains("chart/crds: a folder kubegen writes is configured twice"),
        "{err}"
    );
    assert!(!ws.exists("chart") && !ws.exists("api/config") && !ws.exists("web/config"));

    // Within one package: the RBAC file in the folder of CRDs (kubegen removes the stale
    // files there) is refused too.
    let err = ws.fails(&["manifests", "-p", "api", "--rbac-dir", "../chart/crds"]);
    assert!(
        err.contains("`api`'s crd-dir and `api`'s rbac-dir both write to "),
        "{err}"
    );
}

#[test]
fn a_folder_outside_the_workspace_is_an_error_at_its_key() {
    let ws = gadget(
        "config-outside",
        "api/Cargo.toml",
        "[package.metadata.kubegen]\ndocs-dir = \"docs\"\ncrd-dir = \"../../elsewhere\"\n",
    );
    let err = ws.fails(&["manifests"]);
    assert!(
        reports(
            &err,
            "api/Cargo.toml:11:1",
            "`crd-dir` `../../elsewhere` of `api` is "
        ) && err.contains("outside the workspace"),
        "{err}"
    );
    assert!(!ws.exists("api/config"));
    let ws = gadget(
        "config-outside-docs",
        "Cargo.toml",
        "[workspace.metadata.kubegen]\ndocs-dir = \"../../site/api\"\n",
    );
    let err = ws.fails(&["docs"]);
    assert!(
        reports(
            &err,
            "Cargo.toml:6:1",
            "`docs-dir` `../../site/api` of `api` is "
        ) && err.contains("outside the workspace"),
        "{err}"
    );
    assert!(!ws.root.join("../site").exists());
}

#[test]
fn a_folder_outside_the_workspace_given_as_a_flag_is_written_but_never_over_a_foreign_file() {
    let ws = gadget("config-outside-flag", "Cargo.toml", "");
    // Beside the workspace, as the package (`api/`) sees it: `../../<name>`.
    let name = format!("kubegen-cli-outside-{}", std::process::id());
    let outside = ws.root.parent().unwrap().join(&name);
    let _ = std::fs::remove_dir_all(&outside);
    let beside = |dir: &str| format!("../../{name}/{dir}");
    let runs: [(&[&str], &str); 5] = [
        (&["docs", "--out"], "site/api/example.com_v1.md"),
        (
            &["manifests", "--out-dir"],
            "all/crd/bases/example.com_gadgets.yaml",
        ),
        (&["crd", "--crd-dir"], "crds/example.com_gadgets.yaml"),
        (&["rbac", "--rbac-dir"], "rbac/role.yaml"),
        (&["webhook", "--webhook-dir"], "hooks/manifests.yaml"),
    ];
    for (args, file) in runs {
        let dir = match args[0] {
            "manifests" => "all",
            _ => file.rsplit_once('/').unwrap().0,
        };
        let out = ws.run(&[args[0], args[1], &beside(dir)]);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let written = std::fs::read_to_string(outside.join(file))
            .unwrap_or_else(|e| panic!("{args:?}: {file}: {e}"));
        assert!(written.contains("Code generated by kubegen"), "{written}");
    }
    assert!(outside.join("all/rbac/role.yaml").exists());

    // A file there that kubegen did not write stays as it is, and nothing is written.
    let theirs = outside.join("theirs/example.com_v1.md");
    std::fs::create_dir_all(theirs.parent().unwrap()).unwrap();
    std::fs::write(&theirs, "# Our own notes\n").unwrap();
    let err = ws.fails(&["docs", "--out", &beside("theirs")]);
    assert!(
        err.contains("example.com_v1.md: exists and was not written by kubegen"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "# Our own notes\n"
    );
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn unknown_keys_wrong_values_and_missing_headers_are_located() {
    let ws = gadget(
        "config-keys",
        "Cargo.toml",
        "[workspace.metadata.kubegen]\ncrd_dir = \"crds\"\n",
    );
    append(
        &ws,
        "api/Cargo.toml",
        "[package.metadata.kubegen]\nmax-desc-len = \"short\"\nrole-file = \"rbac/role.yaml\"\nheader-file = \"missing.txt\"\ngenerate-embedded-object-meta = \"no\"\n",
    );
    let err = ws.fails(&["manifests"]);
    assert!(
        reports(
            &err,
            "Cargo.toml:6:1",
            "unknown key `crd_dir` in the kubegen table"
        ) && err.contains("did you mean `crd-dir`?"),
        "{err}"
    );
    // Once the workspace's key is fixed, each of the package's problems is reported.
    let fixed = ws.read("Cargo.toml").replace("crd_dir", "crd-dir");
    ws.write("Cargo.toml", &fixed);
    let err = ws.fails(&["manifests"]);
    assert!(
        reports(
            &err,
            "api/Cargo.toml:10:1",
            "`max-desc-len` must be a whole number, 0 or more"
        ),
        "{err}"
    );
    assert!(
        reports(
            &err,
            "api/Cargo.toml:11:1",
            "`role-file` is a file name, not a path"
        ),
        "{err}"
    );
    assert!(
        reports(
            &err,
            "api/Cargo.toml:12:1",
            "cannot read the header file api/missing.txt"
        ),
        "{err}"
    );
    assert!(
        reports(
            &err,
            "api/Cargo.toml:13:1",
            "`generate-embedded-object-meta` must be `true` or `false`"
        ),
        "{err}"
    );
    assert!(!ws.exists("api/crds") && !ws.exists("api/config"));
}
