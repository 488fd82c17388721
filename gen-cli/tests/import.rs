//! `kubegen import crd`, measured: every CRD of the corpus (this repository's fixtures, and the
//! controller-tools goldens, crdify examples and Gateway API CRDs of the golden folder) is
//! imported, the Rust written to a temporary crate, and gen-cli's generator run over it without
//! compiling. The regenerated CRD must be the input: byte for byte after the header line (and
//! the generator's own annotation) for files a generator wrote, else equal as JSON; and
//! importing the regenerated CRD must give the same Rust (import is a fixpoint). The files that
//! do not round-trip yet are listed in `ALLOWED`, each with what is lost; one that round-trips
//! while listed fails too, so the list only shrinks.

#[path = "support/control_plane.rs"]
mod control_plane;
#[path = "support/crd_text.rs"]
mod crd_text;
#[path = "support/verdict.rs"]
mod verdict;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crd_text::{GENERATOR_ANNOTATIONS, bytes};
use gen_cli::import::known::Known;
use kubegen_core::known::{Kubernetes, lookup};
use kubegen_core::model::Shape;
use proptest::prelude::*;
use serde_json::Value;

/// The inputs that do not round-trip, by path under their corpus root, with the reason.
const ALLOWED: &[(&str, &str)] = &[
    (
        "controller-tools/pkg/crd/testdata/gen/bar.example.com_foos.v1beta1.yaml",
        V1BETA1,
    ),
    (
        "controller-tools/pkg/crd/testdata/gen/zoo/bar.example.com_zoos.v1beta1.yaml",
        V1BETA1,
    ),
    (
        "controller-tools/pkg/crd/testdata/gen/bar.example.com_foos_maxdesclen.yaml",
        "written with `crd:maxDescLen=10`: apiVersion's and kind's descriptions are cut, which \
         `max-desc-len` (a project setting, not a marker) does",
    ),
    (
        "controller-tools/pkg/crd/testdata/plural/plural.example.com_testquotas.yaml",
        "no `spec` property but a `test` one: kubegen's root always has a `spec`",
    ),
    (
        "controller-tools/pkg/crd/testdata/testdata._cronjobs.yaml",
        "the empty group `\"\"` (controller-gen's test of a package without `+groupName`): \
         kubegen requires a DNS subdomain",
    ),
    (
        "controller-tools/pkg/crd/testdata/testdata.kubebuilder.io_cronjobs.yaml",
        "a version with no `spec` property (v1beta2): kubegen's root always has a `spec`",
    ),
    (
        "crdify/examples/multiple-incompatible.yaml",
        "`required: [size, mode]` out of order (kubegen sorts `required`)",
    ),
    (
        "gateway-api/config/crd/experimental/gateway.networking.k8s.io_referencegrants.yaml",
        EMPTY_SUBRESOURCES,
    ),
    (
        "gateway-api/config/crd/standard/gateway.networking.k8s.io_referencegrants.yaml",
        EMPTY_SUBRESOURCES,
    ),
];

const V1BETA1: &str = "`apiextensions.k8s.io/v1beta1`: the import reads v1 CRDs only (an error)";
const EMPTY_SUBRESOURCES: &str = "`subresources: {}` (no subresource, written empty): no key";

/// One corpus file's outcome.
enum Outcome {
    /// Identical, and a fixpoint.
    Identical,
    /// Why not.
    Differs(String),
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The CRD files of the corpus: (name reported, path).
fn corpus() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    let root = workspace();
    for fixture in fs::read_dir(root.join("fixtures")).unwrap() {
        let dir = fixture.unwrap().path().join("config/crd/bases");
        collect(&root, &dir, &mut files);
    }
    if let Some(golden) = fixture_parity::golden::golden_dir() {
        collect(
            &golden,
            &golden.join("controller-tools/pkg/crd/testdata"),
            &mut files,
        );
        collect(&golden, &golden.join("crdify/examples"), &mut files);
        collect(
            &golden,
            &golden.join("gateway-api/config/crd/standard"),
            &mut files,
        );
        collect(
            &golden,
            &golden.join("gateway-api/config/crd/experimental"),
            &mut files,
        );
    }
    files.sort();
    files
}

/// The `.yaml` files under `dir` (recursively) that hold a CRD.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let path = e.unwrap().path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if path.extension().is_some_and(|x| x == "yaml")
            && fs::read_to_string(&path).is_ok_and(|t| t.contains("kind: CustomResourceDefinition"))
        {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            out.push((name, path));
        }
    }
}

/// The k8s-openapi types an import recognizes, at the version the generator builds for.
fn known() -> &'static Known {
    static KNOWN: OnceLock<Known> = OnceLock::new();
    KNOWN.get_or_init(|| Known::new(&Kubernetes::compiled()))
}

/// The Rust of the CRDs in `text`, and the CRD files gen-cli generates from it.
fn round(name: &str, text: &str, scratch: &Path) -> Result<(String, Vec<String>), String> {
    let input = gen_cli::import::read::Input {
        name: name.to_string(),
        text: text.to_string(),
        in_folder: false,
    };
    let (modules, _lost) = gen_cli::import::modules(&[input], known())
        .map_err(|e| format!("import failed: {}", e.join("; ")))?;
    let sources = gen_cli::import::sources(&modules);
    let _ = fs::remove_dir_all(scratch);
    let mut rust = String::new();
    for (path, content) in &sources {
        let path = scratch.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap();
        rust.push_str(content);
    }
    let generated = verdict::manifests_and_docs(&verdict::package(&scratch.join("src/lib.rs")))
        .map_err(|e| {
            let messages: Vec<String> = e.iter().map(|d| d.message.clone()).collect();
            format!("gen-cli refuses the imported Rust: {}", messages.join("; "))
        })?;
    let crds = generated
        .plan
        .files
        .iter()
        .filter(|(p, _)| p.to_string_lossy().contains("/crd/"))
        .map(|(_, c)| c.clone())
        .collect();
    proc_macro2::extra::invalidate_current_thread_spans();
    Ok((rust, crds))
}

/// The documents as JSON, without generator annotations (and an `annotations` left empty).
fn json(text: &str) -> Vec<Value> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).unwrap();
    docs.into_iter()
        .filter(|d| !d.is_null())
        .map(|mut d| {
            if let Some(a) = d
                .pointer_mut("/metadata/annotations")
                .and_then(Value::as_object_mut)
            {
                a.retain(|k, _| !GENERATOR_ANNOTATIONS.contains(&k.as_str()));
                if a.is_empty() {
                    d["metadata"].as_object_mut().unwrap().remove("annotations");
                }
            }
            d
        })
        .collect()
}

fn check(name: &str, text: &str, scratch: &Path) -> Outcome {
    let (rust, crds) = match round(name, text, scratch) {
        Ok(r) => r,
        Err(e) => return Outcome::Differs(e),
    };
    let regenerated: String = crds.concat();
    // crdify's examples are edited by hand (comments, quoting, key order): compared as JSON.
    // Gateway API's are written by its wrapper of controller-gen's generator.
    let by_generator = !name.starts_with("crdify/");
    let same = if by_generator {
        bytes(text) == bytes(&regenerated)
    } else {
        json(text) == json(&regenerated)
    };
    if !same {
        let (a, b) = if by_generator {
            (bytes(text), bytes(&regenerated))
        } else {
            let pretty = |t: &str| serde_json::to_string_pretty(&json(t)).unwrap();
            (pretty(text), pretty(&regenerated))
        };
        let diff = similar::TextDiff::from_lines(&a, &b)
            .unified_diff()
            .context_radius(1)
            .to_string();
        let head: String = diff.lines().take(24).collect::<Vec<_>>().join("\n");
        return Outcome::Differs(format!("regenerated CRD differs:\n{head}"));
    }
    match round(name, &regenerated, scratch) {
        Ok((again, _)) if again == rust => Outcome::Identical,
        Ok(_) => Outcome::Differs("not a fixpoint: the regenerated CRD imports differently".into()),
        Err(e) => Outcome::Differs(format!("regenerated CRD: {e}")),
    }
}

#[test]
fn import_round_trips_the_corpus() {
    let files = corpus();
    let tmp = scratch("corpus");
    let mut identical = 0;
    let mut failures = Vec::new();
    for (name, path) in &files {
        let text = fs::read_to_string(path).unwrap();
        let allowed = ALLOWED.iter().find(|(n, _)| n == name);
        match (check(name, &text, tmp.path()), allowed) {
            (Outcome::Identical, None) => identical += 1,
            (Outcome::Identical, Some(_)) => {
                identical += 1;
                failures.push(format!("{name}: round-trips: remove it from ALLOWED"));
            }
            (Outcome::Differs(why), None) => failures.push(format!("{name}: {why}")),
            (Outcome::Differs(_), Some(_)) => {}
        }
    }
    // Past the harness's capture, so that every run shows the figure.
    let _ = writeln!(
        std::io::stderr(),
        "import round trip: {identical} of {} CRD files identical, {} allowed to differ",
        files.len(),
        files.len() - identical
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A scratch folder of its own for a test, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kubegen-import-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// Runs `kubegen import crd ARGS` in `dir`: (success, stderr).
fn import(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubegen"))
        .args(["import", "crd"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fixture(relative: &str) -> String {
    workspace()
        .join("fixtures")
        .join(relative)
        .display()
        .to_string()
}

#[test]
fn out_writes_a_library_crate_and_never_a_file_it_did_not_write() {
    let tmp = scratch("out");
    let dir = tmp.path();
    let crd =
        fixture("multiversion/config/crd/bases/testdata.kubebuilder.io_versionedresources.yaml");
    let (ok, stderr) = import(dir, &["--out", "api", &crd]);
    assert!(ok, "{stderr}");
    let manifest = fs::read_to_string(dir.join("api/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("[dependencies.kubegen]\npackage = \"kubegen-rs\"\n"),
        "{manifest}"
    );
    let lib = fs::read_to_string(dir.join("api/src/lib.rs")).unwrap();
    for version in ["v1beta1", "v1beta2"] {
        let module = format!("testdata_kubebuilder_io_{version}");
        assert!(lib.contains(&format!("pub mod {module};")), "{lib}");
        let source = fs::read_to_string(dir.join(format!("api/src/{module}.rs"))).unwrap();
        assert!(
            source.contains(&format!("version = \"{version}\"")),
            "{source}"
        );
        assert!(source.contains("#[derive(CustomResource"), "{source}");
    }

    // Again: the same files, written by kubegen, are rewritten.
    let (ok, stderr) = import(dir, &["--out", "api", &crd]);
    assert!(ok, "{stderr}");

    // A file kubegen did not write stops the whole import: nothing else is written.
    fs::write(dir.join("api/src/lib.rs"), "// mine\n").unwrap();
    let module = dir.join("api/src/testdata_kubebuilder_io_v1beta2.rs");
    fs::remove_file(&module).unwrap();
    let (ok, stderr) = import(dir, &["--out", "api", "--kubegen-version", "0.1.0", &crd]);
    assert!(!ok);
    assert!(
        stderr.contains("lib.rs: exists and was not written by kubegen"),
        "{stderr}"
    );
    assert!(
        !module.exists(),
        "a module was written beside the refused file"
    );
    assert_eq!(
        fs::read_to_string(dir.join("api/src/lib.rs")).unwrap(),
        "// mine\n"
    );
}

#[test]
fn bad_input_names_the_document_the_crd_and_the_schema_path() {
    let tmp = scratch("bad");
    let dir = tmp.path();
    let crd = |name: &str, spec_props: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  \
             name: {name}.example.com\nspec:\n  group: example.com\n  names:\n    kind: W\n    \
             plural: {name}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    \
             storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        \
             properties:\n          spec:\n            type: object\n            properties:\n{spec_props}"
        )
    };
    let cases = [
        (
            "configmap.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n".to_string(),
            "configmap.yaml#1: not a CustomResourceDefinition (kind `ConfigMap`)",
        ),
        (
            "v1beta1.yaml",
            "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n"
                .to_string(),
            "v1beta1.yaml#1: unknown apiVersion `apiextensions.k8s.io/v1beta1`",
        ),
        (
            "untyped.yaml",
            format!(
                "{}---\n{}",
                crd("fine", "              a:\n                type: string\n"),
                crd("ws", "              size:\n                minimum: 1\n")
            ),
            "untyped.yaml#2: CRD ws.example.com: v1 .spec.size: no `type`",
        ),
        (
            "tuple.yaml",
            crd(
                "ts",
                "              pair:\n                type: array\n                items:\n                \
                 - type: string\n",
            ),
            "tuple.yaml#1: CRD ts.example.com: v1 .spec.pair: an array needs one `items` schema",
        ),
    ];
    for (file, text, expected) in cases {
        fs::write(dir.join(file), text).unwrap();
        let (ok, stderr) = import(dir, &["--out", "api", file]);
        assert!(!ok, "{file} was imported");
        assert!(stderr.contains(expected), "{file}: {stderr}");
        assert!(!dir.join("api").exists(), "{file}: files were written");
    }
}

/// The slow tier: a nested `cargo build`. The fixtures' CRDs and Gateway API's standard ones
/// (when the golden folder is there) import into one crate (kubegen vendored from this
/// checkout, as `init` does), which builds and passes clippy with `-D warnings`, offline, in
/// this workspace's target folder (its registry dependencies are built already). `kubegen import
/// go`'s Rust of controller-tools' CronJob testdata and two kubebuilder projects (with their
/// controllers' RBAC) is a module `go` of the same crate. About a minute with kubegen's packages
/// to build.
#[test]
fn slow_an_imported_crate_builds_clippy_clean() {
    let tmp = scratch("build");
    let dir = tmp.path();
    let root = workspace();
    let mut inputs: Vec<String> = fs::read_dir(root.join("fixtures"))
        .unwrap()
        .map(|f| f.unwrap().path().join("config/crd/bases"))
        .filter(|d| d.is_dir())
        .map(|d| d.display().to_string())
        .collect();
    let golden = fixture_parity::golden::golden_dir();
    if let Some(golden) = &golden {
        let gateway = golden.join("gateway-api/config/crd/standard");
        inputs.push(gateway.display().to_string());
    }
    let mut args = vec!["--out", "api"];
    args.extend(inputs.iter().map(String::as_str));
    let (ok, stderr) = import(dir, &args);
    assert!(ok, "{stderr}");
    if let Some(golden) = &golden {
        let multigroup = golden.join("kubebuilder/testdata/project-v4-multigroup");
        let mut go = vec![golden.join("controller-tools/pkg/crd/testdata")];
        for group in fs::read_dir(multigroup.join("api")).unwrap() {
            go.extend(
                fs::read_dir(group.unwrap().path())
                    .unwrap()
                    .map(|v| v.unwrap().path()),
            );
        }
        let tutorial = "kubebuilder/docs/book/src/multiversion-tutorial/testdata/project/api";
        go.extend(["v1", "v2"].map(|v| golden.join(tutorial).join(v)));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubegen"))
            .args(["import", "go", "--module", "api/src/go", "--controllers"])
            .arg(multigroup.join("internal/controller"))
            .arg("--controllers")
            .arg(multigroup.join("internal/webhook"))
            .args(&go)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut lib = fs::read_to_string(dir.join("api/src/lib.rs")).unwrap();
        lib.push_str("pub mod go;\n");
        fs::write(dir.join("api/src/lib.rs"), lib).unwrap();
        // The webhook stubs deny with `kubegen::webhook::Denied`.
        let manifest = fs::read_to_string(dir.join("api/Cargo.toml"))
            .unwrap()
            .replace(
                "[dependencies.kubegen]\n",
                "[dependencies.kubegen]\nfeatures = [\"webhook\"]\n",
            );
        fs::write(dir.join("api/Cargo.toml"), manifest).unwrap();
    }
    fs::copy(root.join("Cargo.lock"), dir.join("api/Cargo.lock")).unwrap();
    let clippy = std::process::Command::new(env!("CARGO"))
        .args(["clippy", "--offline", "--", "-D", "warnings"])
        .env("CARGO_TARGET_DIR", root.join("target"))
        // The version is the crate's own feature (the workspace sets one for its members).
        .env_remove("K8S_OPENAPI_ENABLED_VERSION")
        .current_dir(dir.join("api"))
        .output()
        .unwrap();
    assert!(
        clippy.status.success(),
        "{}",
        String::from_utf8_lossy(&clippy.stderr)
    );
}

#[test]
fn stdin_json_prints_the_rust() {
    let tmp = scratch("stdin");
    let dir = tmp.path();
    let yaml =
        fs::read_to_string(fixture("gen/config/crd/bases/bar.example.com_foos.yaml")).unwrap();
    let docs: Vec<Value> = serde_saphyr::from_multiple(&yaml).unwrap();
    let crd = docs.into_iter().find(|d| !d.is_null()).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kubegen"))
        .args(["import", "crd", "-"])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(crd.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rust = String::from_utf8(out.stdout).unwrap();
    assert!(rust.contains("pub struct FooSpec {"), "{rust}");
    assert!(rust.contains("kind = \"Foo\""), "{rust}");
    assert!(rust.contains("default = \"fooDefaultString\""), "{rust}");
    assert_eq!(fs::read_dir(dir).unwrap().count(), 0, "files were written");
}

#[test]
fn module_writes_the_modules_and_their_mod_rs_into_a_folder() {
    let tmp = scratch("module");
    let dir = tmp.path();
    let crd = fixture("plural/config/crd/bases/plural.example.com_testquotas.yaml");
    let (ok, stderr) = import(dir, &["--module", "src/imported", &crd]);
    assert!(ok, "{stderr}");
    let module = fs::read_to_string(dir.join("src/imported/mod.rs")).unwrap();
    assert!(
        module.contains("pub mod plural_example_com_v1;"),
        "{module}"
    );
    let source = fs::read_to_string(dir.join("src/imported/plural_example_com_v1.rs")).unwrap();
    assert!(source.contains("kind = \"TestQuota\""), "{source}");
    // flect's plural of the kind is the default: not written.
    assert!(!source.contains("plural ="), "{source}");
    assert_eq!(
        fs::read_dir(dir).unwrap().count(),
        1,
        "only src/ is written"
    );
}

/// The schema kubegen renders for the k8s-openapi type at `path` (the generator's version).
fn k8s_schema(path: &str) -> Value {
    let kubernetes = Kubernetes::compiled();
    let Some(Ok(Shape::Known(known))) = lookup(path, Vec::new(), &kubernetes) else {
        panic!("{path} is no k8s-openapi type");
    };
    serde_json::to_value(kubernetes.schema(&known)).unwrap()
}

#[test]
fn subtrees_rendered_as_a_k8s_openapi_type_become_that_type() {
    let condition = k8s_schema("k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition");
    let mut almost = condition.clone();
    almost["properties"]["reason"]["maxLength"] = 100.into();
    let crd = serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {
                    "type": "object",
                    "properties": {
                        "conditions": {"type": "array", "description": "The conditions.",
                            "items": condition, "x-kubernetes-list-type": "map",
                            "x-kubernetes-list-map-keys": ["type"]},
                        "others": {"type": "array", "items": almost},
                        "since": {"type": "string", "format": "date-time",
                            "description": "Since when."},
                        "count": {"type": "string", "format": "int-or-string"},
                    }}}}}}]}
    });
    let tmp = scratch("known");
    // Once through the generator for its bytes, then round-tripped byte for byte.
    let (_, crds) = round("widgets.yaml", &crd.to_string(), tmp.path()).unwrap();
    let text = crds.concat();
    assert!(
        matches!(check("widgets.yaml", &text, tmp.path()), Outcome::Identical),
        "the substituted types do not round-trip"
    );
    let (rust, _) = round("widgets.yaml", &text, tmp.path()).unwrap();
    // Without spaces, and the trailing comma prettyplease leaves in a broken `Option<...,>`.
    let rust = rust
        .split_whitespace()
        .collect::<String>()
        .replace(",>", ">");
    let meta = "k8s_openapi::apimachinery::pkg::apis::meta::v1";
    for field in [
        format!("pubconditions:Option<Vec<{meta}::Condition>>"),
        format!("pubsince:Option<{meta}::Time>"),
        // One keyword apart from Condition: a struct of its own.
        "pubothers:Option<Vec<WidgetSpecOthers>>".to_string(),
        // `format: int-or-string` is no `IntOrString`'s schema.
        "pubcount:Option<String>".to_string(),
    ] {
        assert!(rust.contains(&field), "no `{field}` in {rust}");
    }
}

/// Random structural schema nodes of every kind an import reads, each with the keywords that
/// fit it (value validations, defaults, CEL rules, list and map types, junctors, nullable,
/// descriptions a doc comment holds and ones it cannot).
mod random {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    const NAMES: &[&str] = &["alpha", "betaGamma", "podCIDR", "zeta-eta", "type", "x2"];
    const DESCRIPTIONS: &[&str] = &[
        "A field.",
        "Two lines.\n\nThe second paragraph.",
        "+not a doc comment",
        "trailing space ",
    ];

    /// `keyword: value` in `node` when `value` is drawn.
    fn put(node: &mut Value, keyword: &str, value: Option<Value>) {
        if let Some(v) = value {
            node[keyword] = v;
        }
    }

    fn described(node: Value, description: Option<&str>) -> Value {
        let mut node = node;
        put(&mut node, "description", description.map(Value::from));
        node
    }

    fn description() -> impl Strategy<Value = Option<&'static str>> {
        proptest::option::of(proptest::sample::select(DESCRIPTIONS))
    }

    fn string() -> impl Strategy<Value = Value> {
        (
            proptest::option::of((0i64..4, 0i64..8)),
            proptest::option::of(proptest::sample::select(&["^[a-z]+$", "^v[0-9]$"][..])),
            proptest::option::of(proptest::sample::select(&["date", "uri", "email"][..])),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(length, pattern, format, rule, nullable, documented)| {
                let mut node = json!({"type": "string"});
                if documented {
                    node["title"] = "A title".into();
                    node["externalDocs"] = json!({"url": "https://example.com/doc"});
                }
                if let Some((min, extra)) = length {
                    node["minLength"] = min.into();
                    node["maxLength"] = (min + extra).into();
                }
                put(&mut node, "pattern", pattern.map(Value::from));
                put(&mut node, "format", format.map(Value::from));
                // A formatted string is another CEL type (`date` a timestamp).
                if rule && format.is_none() {
                    node["x-kubernetes-validations"] =
                        json!([{"rule": "self != 'forbidden'", "message": "not that"}]);
                }
                if nullable {
                    node["nullable"] = true.into();
                }
                node
            })
    }

    fn string_enum() -> impl Strategy<Value = Value> {
        (
            proptest::sample::subsequence(&["Always", "Never", "if-needed", "OnFailure"][..], 1..4),
            any::<bool>(),
        )
            .prop_map(|(values, default)| {
                let mut node = json!({"type": "string", "enum": values});
                if default {
                    node["default"] = values[0].into();
                }
                node
            })
    }

    fn number() -> impl Strategy<Value = Value> {
        (
            proptest::sample::select(
                &[
                    ("integer", Some("int32")),
                    ("integer", Some("int64")),
                    ("integer", None),
                    ("number", None),
                    ("number", Some("double")),
                ][..],
            ),
            proptest::option::of((-5i64..5, 0i64..10)),
            any::<bool>(),
            proptest::sample::select(&["default", "example", "multipleOf", ""][..]),
        )
            .prop_map(|((ty, format), bounds, exclusive, extra_key)| {
                let mut node = json!({"type": ty});
                put(&mut node, "format", format.map(Value::from));
                if let Some((min, extra)) = bounds {
                    node["minimum"] = min.into();
                    node["maximum"] = (min + extra + 1).into();
                    if exclusive {
                        node["exclusiveMaximum"] = true.into();
                        node["exclusiveMinimum"] = true.into();
                    }
                    match extra_key {
                        "default" | "example" if !exclusive => node[extra_key] = min.into(),
                        "multipleOf" => node[extra_key] = 2.into(),
                        _ => {}
                    }
                }
                node
            })
    }

    fn leaf() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            3 => string(),
            2 => string_enum(),
            3 => number(),
            1 => any::<Option<bool>>().prop_map(|default| {
                let mut node = json!({"type": "boolean"});
                put(&mut node, "default", default.map(Value::from));
                node
            }),
            1 => Just(json!({"anyOf": [{"type": "integer"}, {"type": "string"}],
                "x-kubernetes-int-or-string": true})),
            1 => Just(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})),
        ];
        (leaf, description()).prop_map(|(node, d)| described(node, d))
    }

    /// A node, objects, arrays and maps nested up to three deep.
    pub fn node() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(3, 24, 4, |inner| {
            let object = (
                proptest::collection::btree_map(
                    proptest::sample::select(NAMES),
                    inner.clone(),
                    1..4,
                ),
                any::<proptest::sample::Index>(),
                proptest::sample::select(&["oneOf", "anyOf", "not", ""][..]),
                any::<bool>(),
            )
                .prop_map(|(props, required, junctor, min_properties)| {
                    let names: Vec<&str> = props.keys().copied().collect();
                    let mut node = json!({"type": "object",
                        "properties": props.into_iter().map(|(k, v)| (k.to_string(), v))
                            .collect::<Map<String, Value>>()});
                    let first = names[required.index(names.len())];
                    node["required"] = json!([first]);
                    match junctor {
                        "oneOf" | "anyOf" if names.len() > 1 => {
                            node[junctor] =
                                json!([{"required": [names[0]]}, {"required": [names[1]]}]);
                        }
                        "not" => node["not"] = json!({"minProperties": 5}),
                        _ => {}
                    }
                    if min_properties {
                        node["minProperties"] = 1.into();
                        node["maxProperties"] = 4.into();
                    }
                    node
                });
            let array = (inner.clone(), proptest::option::of(0i64..3), any::<bool>()).prop_map(
                |(items, min, listed)| {
                    // A set's items: scalars, never null.
                    let scalar = ["string", "integer"]
                        .map(Value::from)
                        .contains(&items["type"])
                        && items.get("nullable").is_none();
                    let mut node = json!({"type": "array", "items": items});
                    if let Some(min) = min {
                        node["minItems"] = min.into();
                        node["maxItems"] = (min + 3).into();
                    }
                    if listed {
                        let list_type = if scalar { "set" } else { "atomic" };
                        node["x-kubernetes-list-type"] = list_type.into();
                    }
                    node
                },
            );
            let map = (inner, any::<bool>()).prop_map(|(value, atomic)| {
                let mut node = json!({"type": "object", "additionalProperties": value});
                if atomic {
                    node["x-kubernetes-map-type"] = "atomic".into();
                }
                node
            });
            let node = prop_oneof![2 => object, 1 => array, 1 => map];
            (node, description()).prop_map(|(node, d)| described(node, d))
        })
    }
}

/// A CRD of kind `Widget` whose spec is `spec`.
fn widget(spec: &Value) -> Value {
    serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets", "singular": "widget",
                "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object",
                    "properties": {"spec": spec}}}}]}
    })
}

/// Random structural CRDs round-trip through the import and the generator, in process: the
/// regenerated CRD's spec is the input's (as JSON), and its bytes and Rust are a fixpoint.
#[test]
fn random_structural_crds_round_trip() {
    use proptest::test_runner::{Config, TestRunner};
    let tmp = scratch("random");
    let config = Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    };
    let spec = random::node().prop_filter("an object spec", |n| {
        n.get("properties").is_some() && n.get("type") == Some(&"object".into())
    });
    let spec_of = |crd: &Value| {
        crd.pointer("/spec/versions/0/schema/openAPIV3Schema/properties/spec")
            .cloned()
    };
    TestRunner::new(config)
        .run(&spec, |spec| {
            let input = widget(&spec);
            let (_, crds) = round("widgets.yaml", &input.to_string(), tmp.path())
                .map_err(|e| TestCaseError::fail(format!("{e}\n{input:#}")))?;
            let text = crds.concat();
            let regenerated: Vec<Value> = serde_saphyr::from_multiple(&text).unwrap();
            let regenerated = regenerated.into_iter().find(|d| !d.is_null()).unwrap();
            prop_assert_eq!(spec_of(&regenerated), Some(spec.clone()), "{}", text);
            prop_assert!(
                matches!(check("widgets.yaml", &text, tmp.path()), Outcome::Identical),
                "not a fixpoint:\n{}",
                text
            );
            Ok(())
        })
        .unwrap();
}

/// `kubegen import crd --kubeconfig` reads CRDs by name from a real API server
/// (`kubegen::testing`'s) and writes the Rust their files give (`kubectl apply`'s annotation
/// left out); a name the server does not have is an error naming it, and nothing is printed:
///
/// ```sh
/// KUBEBUILDER_ASSETS=/path/to/bin cargo test -p gen-cli --test import -- --ignored cluster
/// ```
#[test]
#[ignore = "needs a real API server: KUBEBUILDER_ASSETS=... cargo test -p gen-cli --test import -- --ignored cluster"]
fn crds_read_from_a_cluster_import_as_their_files_do() {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let cp = control_plane::control_plane();
    let files = [
        fixture("gen/config/crd/bases/bar.example.com_foos.yaml"),
        fixture("plural/config/crd/bases/plural.example.com_testquotas.yaml"),
    ];
    let crds: Vec<CustomResourceDefinition> = files
        .iter()
        .map(|f| {
            let docs: Vec<Value> =
                serde_saphyr::from_multiple(&fs::read_to_string(f).unwrap()).unwrap();
            let doc = docs.into_iter().find(|d| !d.is_null()).unwrap();
            serde_json::from_value(doc).unwrap()
        })
        .collect();
    // `kubectl apply` writes its `last-applied-configuration` annotation, which is left out.
    // Without client-side validation: a server that has just started may not serve its
    // OpenAPI document yet, which kubectl's validation downloads.
    for file in &files {
        control_plane::kubectl(&["apply", "--validate=false", "-f", file], None).unwrap();
    }
    let kubeconfig = cp.kubeconfig().expect("a local control plane's kubeconfig");
    let kubeconfig = kubeconfig.display().to_string();
    let tmp = scratch("cluster");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubegen"))
            .args(["import", "crd"])
            .args(args)
            .current_dir(tmp.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        (
            out.status.success(),
            stdout,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for (file, crd) in files.iter().zip(&crds) {
        let name = crd.metadata.name.as_deref().unwrap();
        let (ok, from_cluster, stderr) = run(&["--kubeconfig", &kubeconfig, name]);
        assert!(ok, "{stderr}");
        let (ok, from_file, stderr) = run(&[file]);
        assert!(ok, "{stderr}");
        assert_eq!(from_cluster, from_file, "{name}");
    }
    let (ok, stdout, stderr) = run(&["--kubeconfig", &kubeconfig, "nope.example.com"]);
    assert!(!ok && stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("cluster/nope.example.com: "), "{stderr}");
}

/// A string enum with a doc and keys of its own (a Go named type's, as `import go` writes
/// it) is written as a Rust enum whose schema has them: its doc the description of a field
/// without one, its keys on the field's node, its values in the variants' order.
#[test]
fn enums_carry_their_doc_and_keys() {
    use gen_cli::import::model::{
        Enum, Field, Item, Marker, MarkerValue, Module, Struct, Ty, variants,
    };
    let key = |key, value: &str| Marker {
        key,
        value: MarkerValue::Str(value.into()),
    };
    let spec = Struct {
        name: "WidgetSpec".into(),
        doc: None,
        resource: Some(vec![
            key("group", "example.com"),
            key("version", "v1"),
            key("kind", "Widget"),
        ]),
        markers: Vec::new(),
        camel_case: false,
        fields: vec![Field {
            rust: "mode".into(),
            rename: None,
            ty: Ty::Named("Mode".into()),
            doc: None,
            markers: Vec::new(),
            flatten: false,
            feature: None,
        }],
    };
    let mode = Enum {
        name: "Mode".into(),
        variants: variants(&["Fast".into(), "slow-start".into()]),
        doc: Some("How fast.".into()),
        markers: vec![Marker {
            key: "default",
            value: MarkerValue::Json("Fast".into()),
        }],
    };
    let modules = [Module {
        group: "example.com".into(),
        version: "v1".into(),
        items: vec![Item::Struct(spec), Item::Enum(mode)],
    }];
    let tmp = scratch("enum");
    let mut rust = String::new();
    for (path, text) in gen_cli::import::sources(&modules) {
        let path = tmp.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, &text).unwrap();
        rust.push_str(&text);
    }
    assert!(rust.contains("pub enum Mode {"), "{rust}");
    let lib = tmp.path().join("src/lib.rs");
    let generated = verdict::manifests_and_docs(&verdict::package(&lib)).unwrap();
    let crd = (generated.plan.files.iter())
        .find(|(p, _)| p.to_string_lossy().contains("/crd/"))
        .map(|(_, c)| c.clone())
        .unwrap();
    let docs: Vec<Value> = serde_saphyr::from_multiple(&crd).unwrap();
    let crd = docs.into_iter().find(|d| !d.is_null()).unwrap();
    let node = crd
        .pointer("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/mode")
        .unwrap();
    let expected = serde_json::json!({"type": "string", "enum": ["Fast", "slow-start"],
        "default": "Fast", "description": "How fast."});
    assert_eq!(*node, expected, "{crd:#}");
}
