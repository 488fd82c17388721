//! `kubegen init`, `create api` and `create webhook` as a newcomer uses them: the project they
//! write builds offline against this workspace and passes its own tests, its manifests are
//! fresh, its CRDs structural and its samples valid; and what the commands refuse. The tests
//! that build a project are the slow tier (`slow_*`, CONTRIBUTING.md: "The test tiers").

mod support {
    pub mod scaffold;
}

use std::fs;

use kubegen_core::check::structural::violations;
use kubegen_core::check::value::{Admission, admit};
use kubegen_core::model::Schema;
use serde_json::Value;
use support::scaffold::*;

#[test]
fn slow_the_newcomers_project_builds_passes_its_tests_and_its_manifests_are_valid() {
    let tmp = temp_dir("newcomer");
    let dir = tmp.path();
    let project = newcomer(dir);

    cargo(&project, &["test"]);
    let manifest = project.join("Cargo.toml");
    ok(
        &project,
        &[
            "manifests",
            "--check",
            "--manifest-path",
            manifest.to_str().unwrap(),
        ],
    );

    for (kind, plural, version, sample) in [
        ("Guestbook", "guestbooks", "v1", "webapp_v1_guestbook.yaml"),
        ("Guestbook", "guestbooks", "v2", "webapp_v2_guestbook.yaml"),
        (
            "GuestbookPolicy",
            "guestbookpolicies",
            "v1",
            "webapp_v1_guestbook_policy.yaml",
        ),
    ] {
        let crd_file = project.join(format!("config/crd/bases/webapp.my.domain_{plural}.yaml"));
        let crd = documents(&crd_file).remove(0);
        assert_eq!(crd["spec"]["names"]["kind"], kind);
        let versions = crd["spec"]["versions"].as_array().unwrap();
        let served = versions.iter().find(|v| v["name"] == version).unwrap();
        let schema: Schema =
            serde_json::from_value(served["schema"]["openAPIV3Schema"].clone()).unwrap();
        assert_eq!(violations(&schema), Vec::<String>::new(), "{kind}");
        let object = documents(&project.join("config/samples").join(sample)).remove(0);
        let how = Admission {
            root: true,
            strict: true,
        };
        let stored = admit(&schema, &object, how).unwrap_or_else(|e| panic!("{sample}: {e}"));
        assert_eq!(stored["spec"]["size"], 1);
    }
    let scope = |plural: &str| {
        let file = project.join(format!("config/crd/bases/webapp.my.domain_{plural}.yaml"));
        documents(&file)[0]["spec"]["scope"].clone()
    };
    assert_eq!(scope("guestbooks"), "Namespaced");
    assert_eq!(scope("guestbookpolicies"), "Cluster");

    // The role: what the controllers call, and the leader election Lease in the namespace.
    let role = documents(&project.join("config/rbac/role.yaml"));
    let rules = serde_json::to_string(&role).unwrap();
    for needed in [
        "guestbooks/status",
        "guestbookpolicies",
        "leases",
        "guestbook-operator-system",
    ] {
        assert!(rules.contains(needed), "{needed} in {rules}");
    }
    let webhooks = documents(&project.join("config/webhook/manifests.yaml"));
    let kinds: Vec<&Value> = webhooks.iter().map(|w| &w["kind"]).collect();
    assert_eq!(
        kinds,
        [
            "MutatingWebhookConfiguration",
            "ValidatingWebhookConfiguration"
        ]
    );
    // The webhook server's network policy joins the metrics one (kubebuilder v4's pair).
    let policy = documents(&project.join("config/network-policy/allow-webhook-traffic.yaml"));
    assert_eq!(policy[0]["kind"], "NetworkPolicy");
    assert_eq!(policy[0]["spec"]["ingress"][0]["ports"][0]["port"], 9443);
    let policies = documents(&project.join("config/network-policy/kustomization.yaml"));
    assert_eq!(
        policies[0]["resources"],
        serde_json::json!(["allow-metrics-traffic.yaml", "allow-webhook-traffic.yaml"])
    );
    let guestbooks = documents(&project.join("config/crd/bases/webapp.my.domain_guestbooks.yaml"));
    assert_eq!(guestbooks[0]["spec"]["conversion"]["strategy"], "Webhook");

    // kustomize accepts the tree, when kubectl is here to say so.
    if let Some(stdout) = kustomize(&project) {
        for expected in [
            "name: guestbook-operator-controller-manager",
            "namespace: guestbook-operator-system",
            "cert-manager.io/inject-ca-from: guestbook-operator-system/guestbook-operator-serving-cert",
            "name: guestbook-operator-webhook-service",
            "secretName: webhook-server-cert",
            "name: guestbooks.webapp.my.domain",
        ] {
            assert!(stdout.contains(expected), "{expected} in:\n{stdout}");
        }
    }
}

#[test]
fn init_refuses_a_folder_that_is_not_empty() {
    let tmp = temp_dir("not-empty");
    let dir = tmp.path();
    fs::write(dir.join("notes.txt"), "mine\n").unwrap();
    let out = kubegen(dir, &["init", "--domain", "my.domain", "--name", "op"]);
    let (_, stderr) = texts(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("is not empty (it has notes.txt)"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(fs::read_dir(dir).unwrap().count(), 1, "nothing written");
}

/// As a newcomer gets it: the CLI installed with `cargo install --path gen-cli`, `init` with no
/// flags in a folder outside the workspace. The project builds on this checkout's packages,
/// copied into its `vendor/`: its build context (as `docker build .` sends it) holds every
/// source the build resolves, and the Dockerfile's cargo step and the CI recipe's cargo steps
/// pass there offline.
#[test]
fn slow_installed_cli_scaffolds_a_project_that_builds_from_its_own_folder() {
    let tmp = temp_dir("install");
    let root = tmp.path();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    let install =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["install", "--offline", "--locked", "--debug", "--path"])
            .arg(workspace().join("gen-cli"))
            .arg("--root")
            .arg(root.join("bin-root"))
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
    assert!(install.status.success(), "{}", texts(&install).1);
    let installed = root.join("bin-root/bin/kubegen");
    let dir = root.join("op");
    fs::create_dir_all(&dir).unwrap();
    // As from a newcomer's shell: not under `cargo run` or `cargo test`.
    let out = std::process::Command::new(&installed)
        .args(["init", "--domain", "example.com"])
        .env_remove("CARGO_PKG_NAME")
        .env_remove("CARGO")
        .current_dir(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stdout, "", "the report is on stderr");
    assert!(stderr.contains("Next: kubegen create api"), "{stderr}");
    assert!(
        stderr.contains("created: vendor/kubegen-core ("),
        "{stderr}"
    );
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        manifest.contains(&format!(
            "[dependencies.kubegen]\npackage = \"kubegen-rs\"\nversion = \"={version}\"\n"
        )),
        "the dependency it has once kubegen is published:\n{manifest}"
    );
    assert!(
        manifest.contains("features = [\"std\", \"v1_36\"]"),
        "{manifest}"
    );

    let context = root.join("context");
    copy_context(&dir, &context);
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(context.join("Cargo.toml"))
        .other_options(vec!["--offline".to_string(), "--locked".to_string()])
        .exec()
        .unwrap();
    let kubegen = metadata
        .packages
        .iter()
        .find(|p| p.name.as_str() == "kubegen-rs")
        .expect("kubegen resolves");
    assert_eq!(
        kubegen.manifest_path.as_std_path(),
        context.join("vendor/kubegen-rs/Cargo.toml"),
        "kubegen from the project's vendor/"
    );
    let lib = |root: &std::path::Path| fs::read_to_string(root.join("src/lib.rs")).unwrap();
    assert_eq!(lib(&context.join("vendor/kubegen-rs")), lib(&workspace()));
    for package in &metadata.packages {
        if package.source.is_none() {
            assert!(
                package.manifest_path.starts_with(&context),
                "{} comes from outside the build context: {}",
                package.name,
                package.manifest_path
            );
        }
    }

    // The Dockerfile's cargo step, debug (so that this workspace's compiled dependencies are
    // reused; what is resolved and from where is the same).
    let dockerfile = fs::read_to_string(context.join("Dockerfile")).unwrap();
    assert!(dockerfile.contains("\nCOPY . .\n"), "{dockerfile}");
    let step = dockerfile
        .lines()
        .find_map(|l| l.strip_prefix("RUN cargo build "))
        .and_then(|l| l.split(" && ").next())
        .expect("a `RUN cargo build` step");
    let mut build = vec!["build"];
    build.extend(step.split_whitespace().filter(|a| *a != "--release"));
    assert!(build.contains(&"--locked"), "{step}");
    cargo(&context, &build);

    // The CI recipe: each cargo step as written, and the image built from the checkout.
    let ci = documents(&context.join(".github/workflows/ci.yml")).remove(0);
    let runs: Vec<&str> = ci["jobs"]["build"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect();
    assert!(runs.contains(&"docker build -t op:ci ."), "{runs:?}");
    let cargo_steps: Vec<Vec<&str>> = runs
        .iter()
        .filter_map(|r| r.strip_prefix("cargo "))
        .map(|r| r.split_whitespace().collect())
        .collect();
    assert!(cargo_steps.contains(&vec!["test", "--locked"]), "{runs:?}");
    // The CLI the recipe installs from git is the one installed above.
    let (installs, builds): (Vec<_>, Vec<_>) = cargo_steps
        .iter()
        .partition(|s| s.first() == Some(&"install"));
    assert!(
        installs.iter().any(|s| s.ends_with(&["gen-cli"])),
        "{runs:?}"
    );
    for step in builds {
        cargo(&context, step);
    }
    // The steps that run the CLI, as written, with the installed one first on the PATH.
    let cli_steps: Vec<&str> = runs
        .iter()
        .copied()
        .filter(|r| !r.starts_with("cargo ") && r.contains("kubegen "))
        .collect();
    assert!(
        cli_steps
            .iter()
            .any(|r| r.contains("kubegen validate config/samples/")),
        "{runs:?}"
    );
    let path = std::env::join_paths(std::iter::once(root.join("bin-root/bin")).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    // Each step's output, every step passing if `pass`, or one failing.
    let run_cli_steps = |pass: bool| {
        let mut all = String::new();
        let mut failed = false;
        for step in &cli_steps {
            let out = std::process::Command::new("sh")
                .args(["-c", step])
                .env("PATH", &path)
                .current_dir(&context)
                .output()
                .unwrap();
            let (stdout, stderr) = texts(&out);
            assert!(out.status.success() || !pass, "{step}:\n{stdout}\n{stderr}");
            failed |= !out.status.success();
            all += &format!("{stdout}{stderr}");
        }
        assert_eq!(failed, !pass, "{all}");
        all
    };
    // A new project has no samples yet.
    run_cli_steps(true);

    // In the same folder (its vendored packages are built once): what the derive cannot see
    // from one type fails `cargo test` as it fails `kubegen manifests`, each at its place: a
    // printer column into the fields of a Kubernetes type (the status's `Condition`), an enum
    // default that is no variant, a CEL rule over another type's field (the `cel` feature on).
    let created = std::process::Command::new(&installed)
        .args(words(
            "create api --group webapp --version v1 --kind Guestbook",
        ))
        .current_dir(&context)
        .output()
        .unwrap();
    assert!(created.status.success(), "{}", texts(&created).1);
    // The sample `create api` writes is one the API server would admit, and one over the
    // bound of `size` is not.
    let sample = context.join("config/samples/webapp_v1_guestbook.yaml");
    let written_sample = fs::read_to_string(&sample).unwrap();
    let out = run_cli_steps(true);
    assert!(out.contains("validated 1 object:"), "{out}");
    fs::write(&sample, written_sample.replace("size: 1\n", "size: 11\n")).unwrap();
    let out = run_cli_steps(false);
    assert!(out.contains("spec.size"), "{out}");
    fs::write(&sample, written_sample).unwrap();
    let types = context.join("src/api/webapp_v1/guestbook.rs");
    fs::write(
        &types,
        with_three_mistakes(&fs::read_to_string(&types).unwrap()),
    )
    .unwrap();
    let tested = cargo_output(&context, &["test", "--features", "kubegen/cel"]);
    let (stdout, stderr) = texts(&tested);
    assert!(!tested.status.success(), "{stdout}");
    let failed = stdout
        .split("---- api::tests::every_crd_is_valid stdout ----")
        .nth(1)
        .unwrap_or_else(|| panic!("every_crd_is_valid fails:\n{stdout}\n{stderr}"));
    let written = fs::read_to_string(&types).unwrap();
    let line_of = |needle: &str| {
        let n = written.lines().position(|l| l.contains(needle)).unwrap() + 1;
        format!("src/api/webapp_v1/guestbook.rs:{n}:")
    };
    for (mistake, at) in [
        (
            "`.status.conditions[0].stauts` names `stauts`, which is not a field there",
            line_of(".status.conditions[0].stauts"),
        ),
        (
            "\"Fast\" is not one of the enum values",
            line_of("default = \"Fast\""),
        ),
        ("self.mode == 1", line_of("rule = \"self.mode == 1\"")),
    ] {
        assert!(failed.contains(mistake), "{mistake} in:\n{failed}");
        assert!(failed.contains(&at), "{at} in:\n{failed}");
    }
    // `kubegen manifests` reports each type's own problems first, the CRD's once they are
    // fixed.
    let manifests = || {
        let out = std::process::Command::new(&installed)
            .arg("manifests")
            .current_dir(&context)
            .output()
            .unwrap();
        assert!(!out.status.success());
        texts(&out).1
    };
    let cli = manifests();
    for mistake in ["self.mode == 1", "\"Fast\" is not one of the enum values"] {
        assert!(
            cli.contains(mistake),
            "{mistake} from `kubegen manifests`:\n{cli}"
        );
    }
    let fixed = written
        .replace(
            "#[kube_marker(x_validation(rule = \"self.mode == 1\"))]\n",
            "",
        )
        .replace("default = \"Fast\"", "default = \"Quick\"");
    fs::write(&types, fixed).unwrap();
    let cli = manifests();
    let mistake = "`.status.conditions[0].stauts` names `stauts`, which is not a field there";
    assert!(
        cli.contains(mistake),
        "{mistake} from `kubegen manifests`:\n{cli}"
    );
    assert!(
        !failed.contains("Diagnostic {") && !failed.contains("Errors("),
        "readable, not Debug:\n{failed}"
    );
}

/// The types `create api` writes, with three mistakes only the whole CRD shows.
fn with_three_mistakes(types: &str) -> String {
    let mistakes = [
        (
            "#[kube_marker(printcolumn(name = \"Age\"",
            "#[kube_marker(x_validation(rule = \"self.mode == 1\"))]\n\
             #[kube_marker(printcolumn(name = \"Ready\", json_path = \".status.conditions[0].stauts\"))]\n\
             #[kube_marker(printcolumn(name = \"Age\"",
        ),
        (
            "    pub foo: Option<String>,\n}",
            "    pub foo: Option<String>,\n    \
             #[kube_marker(default = \"Fast\")]\n    \
             #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    \
             pub mode: Option<Mode>,\n}\n\n\
             #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]\n\
             pub enum Mode {\n    Slow,\n    Quick,\n}",
        ),
    ];
    let mut types = types.to_string();
    for (at, with) in mistakes {
        assert!(types.contains(at), "{at} in the scaffolded types");
        types = types.replacen(at, with, 1);
    }
    types
}

#[test]
fn rerunning_never_overwrites_and_changes_nothing() {
    let tmp = temp_dir("rerun");
    let dir = tmp.path();
    let project = init(dir);
    let path = project.to_str().unwrap();
    let readme = project.join("README.md");
    fs::write(&readme, "# My operator\n").unwrap();
    let kubegen_path = workspace();
    let again = [
        "init",
        "--domain",
        "my.domain",
        "--force",
        "--kubegen-path",
        kubegen_path.to_str().unwrap(),
        path,
    ];
    let out = ok(dir, &again);
    let kept = "kept (exists with other content; not overwritten): guestbook-operator/README.md";
    assert!(out.contains(kept), "{out}");
    assert!(
        !out.contains("created:") && !out.contains("updated:"),
        "{out}"
    );
    assert_eq!(fs::read_to_string(&readme).unwrap(), "# My operator\n");

    let api = words("create api --group webapp --version v1 --kind Guestbook");
    ok(&project, &api);
    let before = snapshot(&project);
    let hook = words("create webhook --group webapp --version v1 --kind Guestbook --defaulting");
    ok(&project, &hook);
    let with_webhook = snapshot(&project);
    assert_ne!(before, with_webhook);
    let out = ok(&project, &hook);
    assert!(
        !out.contains("created:") && !out.contains("updated:"),
        "{out}"
    );
    assert_eq!(snapshot(&project), with_webhook, "a second run is a no-op");
}

#[test]
fn the_same_kind_twice_is_an_error_and_a_new_version_is_added() {
    let tmp = temp_dir("twice");
    let dir = tmp.path();
    let project = init(dir);
    let api = words("create api --group webapp --version v1 --kind Guestbook");
    ok(&project, &api);
    let before = snapshot(&project);
    let out = kubegen(&project, &api);
    let (_, stderr) = texts(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains(
            "Guestbook v1 of webapp.my.domain exists already (src/api/webapp_v1/guestbook.rs)"
        ),
        "{stderr}"
    );
    assert_eq!(snapshot(&project), before, "nothing changed");

    let v2 = words("create api --group webapp --version v2 --kind Guestbook");
    let out = ok(&project, &v2);
    assert!(out.contains("v2 is marked `storage_version`"), "{out}");
    assert!(out.contains("the Guestbook controller exists"), "{out}");
    let crd = documents(&project.join("config/crd/bases/webapp.my.domain_guestbooks.yaml"));
    let versions: Vec<(Value, Value)> = crd[0]["spec"]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["name"].clone(), v["storage"].clone()))
        .collect();
    assert_eq!(
        versions,
        [("v1".into(), false.into()), ("v2".into(), true.into())],
        "both versions, v2 stored"
    );

    let conversion =
        words("create webhook --group webapp --version v2 --kind Guestbook --conversion");
    ok(&project, &conversion);
    let crd = documents(&project.join("config/crd/bases/webapp.my.domain_guestbooks.yaml"));
    let service = &crd[0]["spec"]["conversion"]["webhook"]["clientConfig"]["service"];
    assert_eq!(
        service["name"], "guestbook-operator-webhook-service",
        "{crd:?}"
    );
}

#[test]
fn the_types_and_the_controller_can_come_one_after_the_other() {
    let tmp = temp_dir("parts");
    let dir = tmp.path();
    let project = init(dir);
    let api = |extra: &str| {
        let args = [
            "create",
            "api",
            "--group",
            "ship",
            "--version",
            "v1beta1",
            "--kind",
            "Frigate",
            extra,
        ];
        kubegen(&project, &args)
    };
    let out = api("--resource=false");
    assert!(!out.status.success());
    let (_, stderr) = texts(&out);
    assert!(
        stderr.contains("--resource=false needs the types of Frigate v1beta1"),
        "{stderr}"
    );

    assert!(api("--controller=false").status.success());
    assert!(project.join("src/api/ship_v1beta1/frigate.rs").is_file());
    assert!(!project.join("src/controller/frigate.rs").exists());
    let main = fs::read_to_string(project.join("src/main.rs")).unwrap();
    assert!(!main.contains("controller::frigate::run"), "{main}");

    assert!(api("--resource=false").status.success());
    let main = fs::read_to_string(project.join("src/main.rs")).unwrap();
    assert!(
        main.contains("let manager = manager.controller(controller::frigate::run);"),
        "{main}"
    );
    let role = fs::read_to_string(project.join("config/rbac/role.yaml")).unwrap();
    assert!(role.contains("frigates/status"), "{role}");
}

#[test]
fn a_missing_marker_is_an_error_that_writes_nothing() {
    let tmp = temp_dir("marker");
    let dir = tmp.path();
    let project = init(dir);
    let main = project.join("src/main.rs");
    let without = fs::read_to_string(&main)
        .unwrap()
        .replace("    // kubegen:scaffold:manager\n", "");
    fs::write(&main, &without).unwrap();
    let before = snapshot(&project);
    let api = words("create api --group webapp --version v1 --kind Guestbook");
    let out = kubegen(&project, &api);
    let (_, stderr) = texts(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains(
            "src/main.rs: no line with the marker `kubegen:scaffold:manager`; add these lines \
             yourself:\n"
        ) && stderr.contains("    let manager = manager.controller(controller::guestbook::run);\n"),
        "{stderr}"
    );
    assert_eq!(snapshot(&project), before, "nothing written");
}

/// Every file under `dir` with its content.
fn snapshot(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(snapshot(&path));
        } else {
            files.push((path.clone(), fs::read_to_string(&path).unwrap_or_default()));
        }
    }
    files.sort();
    files
}
