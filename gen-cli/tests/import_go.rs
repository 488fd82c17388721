//! `kubegen import go`, measured against controller-gen: each Go project of the golden folder
//! (controller-tools' CronJob, RBAC and webhook testdata, kubebuilder's testdata projects and
//! book tutorials, Gateway API's two channels) is imported, the Rust written to a temporary
//! crate, and gen-cli's generator run over it in process (nothing compiled). Each regenerated
//! CRD is compared with the one controller-gen wrote: byte for byte after the header lines
//! (not for Gateway API, whose generator wraps controller-gen), and node by node (the share of
//! the golden's leaf values the regenerated CRD has at the same path), printed per project; so
//! are `role.yaml` and `config/webhook/manifests.yaml`. The CRDs that are not byte-identical
//! are listed in `ALLOWED` with the reason; one that becomes identical while listed fails, so
//! the list only shrinks. Each project's node-match share has a floor.

#[path = "support/crd_text.rs"]
mod crd_text;
#[path = "support/verdict.rs"]
mod verdict;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crd_text::bytes as body;
use kubegen_core::known::{Kubernetes, Minor, read_kubernetes_sources};
use serde_json::Value;

/// A Go project of the golden folder.
struct Project {
    /// How it is reported.
    name: &'static str,
    /// The folder of its Go API packages.
    api: &'static str,
    /// Its packages, relative to `api`, as its `controller-gen paths=` names them; empty: every
    /// folder below `api` holding Go API types.
    packages: &'static [&'static str],
    /// The folder of the CRDs controller-gen wrote for it.
    crds: &'static str,
    /// The CRD files of that folder written from `packages` (empty: all of them).
    only: &'static [&'static str],
    /// `crd:maxDescLen` as its Makefile gives it to controller-gen.
    max_desc_len: Option<usize>,
    /// Its controller folders (`--controllers`), and the `role.yaml` controller-gen wrote from
    /// their RBAC markers.
    rbac: Option<(&'static str, &'static str)>,
    /// What gen-cli says when it refuses the imported Rust, where controller-gen accepts what
    /// kubegen refuses on purpose.
    refused: Option<&'static str>,
    /// Its webhook folder (`--controllers` too), and the `manifests.yaml` controller-gen wrote
    /// from its webhook markers.
    webhooks: Option<(&'static str, &'static str)>,
    /// The Kubernetes minor version of its `k8s.io/api` where the golden folder holds no
    /// `go.mod` to say it.
    kubernetes: Option<u32>,
    /// The annotations a wrapper of controller-gen adds to each CRD, given to each kind's
    /// `annotations` key.
    annotations: &'static [&'static str],
    /// The crate features its CRDs are generated with.
    features: &'static [&'static str],
    /// Whether its CRDs are compared byte for byte (else node by node only, for a project
    /// whose CRDs are not controller-gen's output as it writes it).
    bytes: bool,
    /// The node-match share below which the test fails, in percent.
    floor: u32,
}

const KUBEBUILDER: Project = Project {
    name: "",
    api: "",
    packages: &[],
    crds: "",
    only: &[],
    max_desc_len: None,
    rbac: None,
    refused: None,
    webhooks: None,
    kubernetes: None,
    annotations: &[],
    features: &[],
    bytes: true,
    floor: 100,
};

/// A folder of controller-tools' `pkg/webhook/testdata`: its webhook markers and the
/// `manifests.yaml` controller-gen wrote from them.
macro_rules! webhook_testdata {
    ($folder:literal $(, $refused:expr)?) => {
        Project {
            name: concat!("controller-tools webhook testdata ", $folder),
            webhooks: Some((
                concat!("controller-tools/pkg/webhook/testdata/", $folder),
                concat!(
                    "controller-tools/pkg/webhook/testdata/",
                    $folder,
                    "/manifests.yaml"
                ),
            )),
            $(refused: Some($refused),)?
            ..KUBEBUILDER
        }
    };
}

/// The annotations Gateway API's generator adds to every CRD of both channels.
const GATEWAY_APPROVAL: &str =
    "api-approved.kubernetes.io=https://github.com/kubernetes-sigs/gateway-api/pull/4530";
const GATEWAY_BUNDLE: &str = "gateway.networking.k8s.io/bundle-version=v0.0.0-dev";
/// The CRDs of Gateway API's `gateway.networking.k8s.io` group.
const GATEWAY_CRDS: &[&str] = &[
    "gateway.networking.k8s.io_backendtlspolicies.yaml",
    "gateway.networking.k8s.io_gatewayclasses.yaml",
    "gateway.networking.k8s.io_gateways.yaml",
    "gateway.networking.k8s.io_grpcroutes.yaml",
    "gateway.networking.k8s.io_httproutes.yaml",
    "gateway.networking.k8s.io_listenersets.yaml",
    "gateway.networking.k8s.io_referencegrants.yaml",
    "gateway.networking.k8s.io_tcproutes.yaml",
    "gateway.networking.k8s.io_tlsroutes.yaml",
    "gateway.networking.k8s.io_udproutes.yaml",
];

/// gen-cli's refusal of two webhooks of one configuration with the same name, which
/// controller-gen writes (and the API server refuses).
const SAME_NAME: &str = "the API server refuses a configuration whose webhooks share a name";

/// The files that hold the same objects as controller-gen's but not its bytes, with the
/// reason.
const SAME_OBJECTS: &[(&str, &str)] = &[(
    "controller-tools/pkg/webhook/testdata/valid-crosspkg-stable/manifests.yaml",
    "written by hand for controller-tools' test, which compares objects: its lists are \
     indented two spaces more than controller-gen writes them",
)];

const PROJECTS: &[Project] = &[
    // Its `go:generate` line: `paths=./;./deprecated;./unserved;./job/...;./immutable`.
    Project {
        name: "controller-tools crd testdata (CronJob)",
        api: "controller-tools/pkg/crd/testdata",
        packages: &[".", "deprecated", "unserved", "job", "immutable"],
        crds: "controller-tools/pkg/crd/testdata",
        only: &[
            "testdata.kubebuilder.io_cronjobs.yaml",
            "testdata.kubebuilder.io_jobs.yaml",
            "testdata.kubebuilder.io_immutabletypes.yaml",
        ],
        floor: 98,
        ..KUBEBUILDER
    },
    Project {
        name: "controller-tools rbac testdata",
        rbac: Some((
            "controller-tools/pkg/rbac/testdata",
            "controller-tools/pkg/rbac/testdata/role.yaml",
        )),
        ..KUBEBUILDER
    },
    // Each folder of its webhook testdata that controller-gen accepts.
    webhook_testdata!("valid", SAME_NAME),
    webhook_testdata!("valid-crosspkg-stable"),
    webhook_testdata!("valid-custom-name", SAME_NAME),
    webhook_testdata!("valid-custom-service", SAME_NAME),
    webhook_testdata!("valid-namespaceselector"),
    webhook_testdata!("valid-objectselector"),
    webhook_testdata!("valid-ordered"),
    webhook_testdata!("valid-selectors-matchexpressions"),
    webhook_testdata!("valid-url", SAME_NAME),
    // Generated by Gateway API's wrapper of controller-gen (`tools/generator/`, not in the
    // golden folder), which filters `<gateway:experimental>` fields (the import's
    // `experimental` feature), adds channel CEL rules and these annotations: compared node by
    // node.
    Project {
        name: "gateway-api standard channel",
        api: "gateway-api/apis",
        packages: &["v1", "v1beta1", "v1alpha2"],
        crds: "gateway-api/config/crd/standard",
        annotations: &[
            GATEWAY_APPROVAL,
            GATEWAY_BUNDLE,
            "gateway.networking.k8s.io/channel=standard",
        ],
        bytes: false,
        floor: 90,
        ..KUBEBUILDER
    },
    Project {
        name: "gateway-api experimental channel",
        api: "gateway-api/apis",
        packages: &["v1", "v1beta1", "v1alpha2"],
        crds: "gateway-api/config/crd/experimental",
        // `apis/` holds no `gateway.networking.x-k8s.io` package.
        only: GATEWAY_CRDS,
        annotations: &[
            GATEWAY_APPROVAL,
            GATEWAY_BUNDLE,
            "gateway.networking.k8s.io/channel=experimental",
        ],
        features: &["experimental"],
        bytes: false,
        floor: 90,
        ..KUBEBUILDER
    },
    Project {
        name: "kubebuilder project-v4",
        api: "kubebuilder/testdata/project-v4/api",
        crds: "kubebuilder/testdata/project-v4/config/crd/bases",
        rbac: Some((
            "kubebuilder/testdata/project-v4/internal/controller",
            "kubebuilder/testdata/project-v4/config/rbac/role.yaml",
        )),
        webhooks: Some((
            "kubebuilder/testdata/project-v4/internal/webhook",
            "kubebuilder/testdata/project-v4/config/webhook/manifests.yaml",
        )),
        ..KUBEBUILDER
    },
    Project {
        name: "kubebuilder project-v4-multigroup",
        api: "kubebuilder/testdata/project-v4-multigroup/api",
        crds: "kubebuilder/testdata/project-v4-multigroup/config/crd/bases",
        rbac: Some((
            "kubebuilder/testdata/project-v4-multigroup/internal/controller",
            "kubebuilder/testdata/project-v4-multigroup/config/rbac/role.yaml",
        )),
        webhooks: Some((
            "kubebuilder/testdata/project-v4-multigroup/internal/webhook",
            "kubebuilder/testdata/project-v4-multigroup/config/webhook/manifests.yaml",
        )),
        ..KUBEBUILDER
    },
    Project {
        name: "kubebuilder project-v4-with-plugins",
        api: "kubebuilder/testdata/project-v4-with-plugins/api",
        crds: "kubebuilder/testdata/project-v4-with-plugins/config/crd/bases",
        rbac: Some((
            "kubebuilder/testdata/project-v4-with-plugins/internal/controller",
            "kubebuilder/testdata/project-v4-with-plugins/config/rbac/role.yaml",
        )),
        webhooks: Some((
            "kubebuilder/testdata/project-v4-with-plugins/internal/webhook",
            "kubebuilder/testdata/project-v4-with-plugins/config/webhook/manifests.yaml",
        )),
        ..KUBEBUILDER
    },
    Project {
        name: "kubebuilder book cronjob tutorial",
        api: "kubebuilder/docs/book/src/cronjob-tutorial/testdata/project/api",
        crds: "kubebuilder/docs/book/src/cronjob-tutorial/testdata/project/config/crd/bases",
        max_desc_len: Some(0),
        rbac: Some((
            "kubebuilder/docs/book/src/cronjob-tutorial/testdata/project/internal/controller",
            "kubebuilder/docs/book/src/cronjob-tutorial/testdata/project/config/rbac/role.yaml",
        )),
        webhooks: Some((
            "kubebuilder/docs/book/src/cronjob-tutorial/testdata/project/internal/webhook",
            "kubebuilder/docs/book/src/cronjob-tutorial/testdata/project/config/webhook/manifests.yaml",
        )),
        kubernetes: Some(BOOK_KUBERNETES),
        ..KUBEBUILDER
    },
    Project {
        name: "kubebuilder book multiversion tutorial",
        api: "kubebuilder/docs/book/src/multiversion-tutorial/testdata/project/api",
        crds: "kubebuilder/docs/book/src/multiversion-tutorial/testdata/project/config/crd/bases",
        max_desc_len: Some(0),
        rbac: Some((
            "kubebuilder/docs/book/src/multiversion-tutorial/testdata/project/internal/controller",
            "kubebuilder/docs/book/src/multiversion-tutorial/testdata/project/config/rbac/role.yaml",
        )),
        webhooks: Some((
            "kubebuilder/docs/book/src/multiversion-tutorial/testdata/project/internal/webhook",
            "kubebuilder/docs/book/src/multiversion-tutorial/testdata/project/config/webhook/manifests.yaml",
        )),
        kubernetes: Some(BOOK_KUBERNETES),
        ..KUBEBUILDER
    },
];

/// The Kubernetes version of the book's tutorials, whose `go.mod` is not in the golden folder:
/// their pod templates are 1.36's (1.37's `scheduling` and probes' `protocol` are absent,
/// 1.36's fields present), the `k8s.io/api v0.36` of controller-tools' testdata of the same era.
/// With it their CRDs are byte-identical; with 1.35 or 1.37, not.
const BOOK_KUBERNETES: u32 = 36;

/// The CRDs that are not byte-identical, by golden file name, with the reason.
const ALLOWED: &[(&str, &str)] = &[(
    "testdata.kubebuilder.io_cronjobs.yaml",
    "kubegen's root type always has a spec and requires it (controller-gen's `spec` is \
         optional, `json:\"spec,omitempty\"`), so the v1beta2 version of `deprecated/`, whose \
         root has no `Spec`, is left out",
)];

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("kubegen-import-go-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A temporary folder, removed when dropped (pass or fail).
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The folders under `root` (itself included) holding Go API types.
fn api_dirs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let has_go = |d: &Path| {
        fs::read_dir(d).is_ok_and(|entries| {
            entries.filter_map(Result::ok).any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n == "groupversion_info.go" || n.ends_with("_types.go")
            })
        })
    };
    if has_go(root) {
        out.push(root.to_path_buf());
    }
    if let Ok(entries) = fs::read_dir(root) {
        let mut subdirs: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        subdirs.sort();
        for d in subdirs {
            // controller-tools' testdata holds other test packages below: only the top one.
            if !has_go(root) {
                out.extend(api_dirs(&d));
            }
        }
    }
    out
}

/// The Kubernetes version whose k8s-openapi schemas a project's CRDs hold: `given`, else its
/// `go.mod`'s `k8s.io/api v0.N.x` (the nearest `go.mod` from `dir` up to the golden folder),
/// read from k8s-openapi's sources when it is not the one gen-cli is built with; else gen-cli's.
fn kubernetes(golden: &Path, dir: &Path, given: Option<u32>) -> Kubernetes {
    let minor = given.or_else(|| go_mod_minor(golden, dir));
    let Some(minor) = minor.map(|m| Minor::new(m).unwrap()) else {
        return Kubernetes::compiled();
    };
    if minor == Minor::compiled() {
        return Kubernetes::compiled();
    }
    let src = gen_cli::workspace::k8s_openapi_src(None).unwrap().unwrap();
    let definitions = read_kubernetes_sources(&src.join(format!("v1_{}", minor.get()))).unwrap();
    Kubernetes::with_definitions(minor, definitions)
}

/// The minor version of the `k8s.io/api` the nearest `go.mod` from `dir` up to `golden` names.
fn go_mod_minor(golden: &Path, dir: &Path) -> Option<u32> {
    dir.ancestors()
        .take_while(|d| d.starts_with(golden))
        .find_map(|d| fs::read_to_string(d.join("go.mod")).ok())
        .and_then(|text| {
            let rest = text.split("k8s.io/api v0.").nth(1)?;
            rest.split('.').next()?.parse::<u32>().ok()
        })
}

/// The regenerated CRD, RBAC and webhook files of the Go packages in `dirs` and the
/// controller folders `controllers`, by file name.
fn regenerate(
    p: &Project,
    dirs: &[PathBuf],
    controllers: &[PathBuf],
    scratch: &Path,
    kubernetes: &Kubernetes,
) -> Result<BTreeMap<String, String>, String> {
    let (modules, _lost) = gen_cli::import::go::modules(dirs)
        .map_err(|e| format!("import failed: {}", e.join("; ")))?;
    let mut other = Vec::new();
    if !controllers.is_empty() {
        other = gen_cli::import::go::controller_modules(controllers)
            .map_err(|e| format!("reading the controllers failed: {}", e.join("; ")))?
            .0;
    }
    let origin = gen_cli::import::Origin::GO;
    let files = gen_cli::import::module_files(&modules, origin, other);
    let sources = gen_cli::import::crate_sources(&files, origin);
    let annotations = match p.annotations {
        [] => String::new(),
        given => format!("\n    annotations = {given:?},"),
    };
    for (path, content) in &sources {
        let content = content.replace(
            "\n    group = \"",
            &format!("{annotations}\n    group = \""),
        );
        let path = scratch.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap();
    }
    let package = verdict::package(&scratch.join("src/lib.rs"));
    // No project's Makefile gives controller-gen `crd:generateEmbeddedObjectMeta`.
    let flags = gen_cli::config::Flags {
        max_desc_len: p.max_desc_len,
        generate_embedded_object_meta: Some(false),
        ..Default::default()
    };
    let layout = gen_cli::config::Layout::resolve(&package, &flags, Path::new("config"))
        .expect("the default layout resolves");
    let generated = gen_cli::generate::generate(
        &package,
        &gen_cli::source::Cfg::new(p.features.iter().map(|f| f.to_string())),
        &layout,
        gen_cli::generate::What::ALL,
        kubernetes,
    )
    .map_err(|e| {
        let messages: Vec<String> = e
            .iter()
            .map(|d| format!("{:?}: {}", d.loc, d.message))
            .collect();
        format!("gen-cli refuses the imported Rust: {}", messages.join("; "))
    })?;
    proc_macro2::extra::invalidate_current_thread_spans();
    Ok(generated
        .plan
        .files
        .iter()
        .filter(|(p, _)| {
            let p = p.to_string_lossy();
            p.contains("/crd/")
                || p.ends_with("/rbac/role.yaml")
                || p.ends_with("/webhook/manifests.yaml")
        })
        .map(|(p, c)| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, c.clone())
        })
        .collect())
}

/// Every leaf of a JSON value with its path.
fn leaves(v: &Value, path: String, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, v) in m {
                leaves(v, format!("{path}/{k}"), out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, v) in a.iter().enumerate() {
                leaves(v, format!("{path}/{i}"), out);
            }
        }
        other => {
            out.insert(path, other.clone());
        }
    }
}

fn yaml_leaves(text: &str) -> BTreeMap<String, Value> {
    let value: Value = serde_saphyr::from_str(&body(text)).unwrap_or(Value::Null);
    let mut out = BTreeMap::new();
    leaves(&value, String::new(), &mut out);
    out.retain(|p, _| {
        !crd_text::GENERATOR_ANNOTATIONS
            .iter()
            .any(|a| p.ends_with(a))
    });
    out
}

#[test]
fn import_go_regenerates_controller_gens_crds() {
    let Some(golden) = fixture_parity::golden::golden_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let mut report = String::new();
    for p in PROJECTS {
        let (project, floor) = (p.name, p.floor);
        let root = golden.join(p.api);
        let dirs = match (p.api, p.packages) {
            ("", _) => Vec::new(),
            (_, []) => api_dirs(&root),
            (_, packages) => packages.iter().map(|d| root.join(d)).collect(),
        };
        let kubernetes = kubernetes(&golden, &root, p.kubernetes);
        assert!(
            !dirs.is_empty() || p.api.is_empty(),
            "{project}: no Go API folder under {}",
            root.display()
        );
        let dir = scratch("parity");
        let controllers: Vec<PathBuf> = p
            .rbac
            .iter()
            .chain(&p.webhooks)
            .map(|(c, _)| golden.join(c))
            .collect();
        let regenerated = match regenerate(p, &dirs, &controllers, &dir.0, &kubernetes) {
            Ok(_) if p.refused.is_some() => {
                failures.push(format!("{project}: gen-cli accepts it: remove `refused`"));
                continue;
            }
            Ok(r) => r,
            Err(e) if p.refused.is_some_and(|r| e.contains(r)) => {
                report.push_str(&format!(
                    "import go parity: {project}: refused, as expected\n"
                ));
                continue;
            }
            Err(e) => {
                failures.push(format!("{project}: {e}"));
                continue;
            }
        };
        let outputs = [("role.yaml", p.rbac), ("manifests.yaml", p.webhooks)];
        for (name, golden_file) in outputs {
            let Some((_, file)) = golden_file else {
                continue;
            };
            let expected = body(&fs::read_to_string(golden.join(file)).unwrap());
            let actual = regenerated.get(name).map(|r| body(r)).unwrap_or_default();
            let same = expected == actual;
            let objects = |t: &str| serde_saphyr::from_multiple::<Value>(t).unwrap_or_default();
            let layout_only = SAME_OBJECTS.iter().any(|(f, _)| *f == file);
            let verdict = match (same, layout_only) {
                (true, true) => {
                    failures.push(format!(
                        "{project}: {file} is identical: remove it from SAME_OBJECTS"
                    ));
                    "byte-identical"
                }
                (true, false) => "byte-identical",
                (false, true) => {
                    if objects(&expected) != objects(&actual) {
                        failures.push(format!("{project}: {file}: other objects"));
                    }
                    "the same objects"
                }
                (false, false) => "differs",
            };
            report.push_str(&format!("import go parity: {project}: {name} {verdict}\n"));
            if verdict == "differs" {
                let diff = similar::TextDiff::from_lines(&expected, &actual)
                    .unified_diff()
                    .context_radius(1)
                    .to_string();
                failures.push(format!("{project}: {file} differs\n{diff}"));
            }
        }
        if p.crds.is_empty() {
            continue;
        }
        let only = p.only;
        let mut goldens: Vec<PathBuf> = fs::read_dir(golden.join(p.crds))
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|x| x == "yaml")
                    && fs::read_to_string(p)
                        .is_ok_and(|t| t.contains("kind: CustomResourceDefinition"))
                    && (only.is_empty()
                        || only.iter().any(|o| p.file_name().is_some_and(|n| n == *o)))
            })
            .collect();
        goldens.sort();
        let (mut matched, mut total, mut identical) = (0, 0, 0);
        for path in &goldens {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expected = fs::read_to_string(path).unwrap();
            let allowed = ALLOWED.iter().find(|(n, _)| *n == name);
            let Some(actual) = regenerated.get(&name) else {
                total += yaml_leaves(&expected).len();
                if allowed.is_none() {
                    failures.push(format!("{project}: {name} was not regenerated"));
                }
                continue;
            };
            let want = yaml_leaves(&expected);
            let have = yaml_leaves(actual);
            total += want.len();
            matched += want
                .iter()
                .filter(|(p, v)| have.get(*p) == Some(*v))
                .count();
            let (expected, actual) = (body(&expected), body(actual));
            let same = expected == actual;
            identical += usize::from(same);
            match (same || !p.bytes, allowed) {
                (true, Some(_)) => failures.push(format!(
                    "{project}: {name} is identical: remove it from ALLOWED"
                )),
                (false, None) => {
                    let diff = similar::TextDiff::from_lines(&expected, &actual)
                        .unified_diff()
                        .context_radius(1)
                        .to_string();
                    let head: String = diff.lines().take(30).collect::<Vec<_>>().join("\n");
                    failures.push(format!("{project}: {name} differs:\n{head}"));
                }
                _ => {}
            }
        }
        let share = if total == 0 {
            0.0
        } else {
            matched as f64 * 100.0 / total as f64
        };
        report.push_str(&format!(
            "import go parity: {project}: {identical} of {} CRDs byte-identical, {matched} of \
             {total} golden nodes match ({share:.1}%)\n",
            goldens.len()
        ));
        if share < f64::from(floor) {
            failures.push(format!(
                "{project}: {share:.1}% of nodes match, below {floor}%"
            ));
        }
    }
    // Past the harness's capture, so that every run shows the figures.
    let _ = std::io::stderr().write_all(report.as_bytes());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs `kubegen import go ARGS` in `dir`: (success, stdout, stderr).
fn import(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubegen"))
        .args(["import", "go"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A `groupversion_info.go`.
const GROUP_VERSION: &str =
    "// +kubebuilder:object:generate=true\n// +groupName=example.com\npackage v1\n";

/// A Go package folder `api/v1` of `dir` with these `widget_types.go` contents.
fn go_package(dir: &Path, types: &str) {
    let pkg = dir.join("api/v1");
    fs::create_dir_all(&pkg).unwrap();
    fs::write(pkg.join("groupversion_info.go"), GROUP_VERSION).unwrap();
    fs::write(pkg.join("widget_types.go"), types).unwrap();
}

/// The `example.com_widgets.yaml` gen-cli writes, in process, for the crate of `lib_rs`.
fn widgets_crd(lib_rs: &Path) -> String {
    let generated =
        verdict::manifests_and_docs(&verdict::package(lib_rs)).unwrap_or_else(|e| panic!("{e:#?}"));
    generated
        .plan
        .files
        .iter()
        .find(|(p, _)| p.ends_with("crd/bases/example.com_widgets.yaml"))
        .map(|(_, c)| c.clone())
        .unwrap()
}

#[test]
fn a_go_file_that_does_not_parse_is_located_and_nothing_is_written() {
    let dir = scratch("bad");
    go_package(
        &dir.0,
        "package v1\n\ntype WidgetSpec struct {\n\tSize int32 `json:\"size\"`\n\tMode string `json:\"mode\"\n}\n",
    );
    let (ok, _, stderr) = import(&dir.0, &["--out", "out", "api/v1"]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("api/v1/widget_types.go:5:14: a string literal that is not terminated"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(!dir.0.join("out").exists(), "files were written");
}

#[test]
fn what_has_no_rust_form_is_located_and_kept_as_a_comment() {
    let dir = scratch("lost");
    go_package(
        &dir.0,
        r#"package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"example.com/other"
)

// WidgetSpec is the spec.
type WidgetSpec struct {
	// Size counts.
	// +kubebuilder:validation:Nope=1
	// +kubebuilder:validation:Minimum=1
	Size int `json:"size"`
	// From elsewhere.
	Other other.Thing `json:"other,omitempty"`
	Stamp Stamp `json:"stamp,omitempty"`
}

// Stamp writes itself.
type Stamp struct {
	Value string `json:"value"`
}

func (s Stamp) MarshalJSON() ([]byte, error) { return nil, nil }

// +kubebuilder:object:root=true

// Widget is a widget.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}
"#,
    );
    let (ok, rust, stderr) = import(&dir.0, &["api/v1"]);
    assert!(ok, "{stderr}");
    for at in [
        "widget_types.go:11:2",
        "widget_types.go:15:2",
        "widget_types.go:24:16",
    ] {
        assert!(stderr.contains(at), "{at}: {stderr}");
    }
    assert_eq!(rust.matches("// kubegen import: ").count(), 3, "{rust}");
    assert!(rust.contains("kind = \"Widget\""), "{rust}");
    assert!(rust.contains("doc = \"Widget is a widget.\""), "{rust}");
    assert!(rust.contains("minimum = 1"), "{rust}");
    assert!(rust.contains("schema_type = \"integer\""), "{rust}");
    // The Rust is what gen-cli reads: its CRD has a schema where one can be known.
    let crate_dir = dir.0.join("crate");
    fs::create_dir_all(crate_dir.join("src")).unwrap();
    fs::write(
        crate_dir.join("src/lib.rs"),
        format!("pub mod v1 {{\n{rust}\n}}\n"),
    )
    .unwrap();
    let crd = widgets_crd(&crate_dir.join("src/lib.rs"));
    let other = "              other:\n                description: From elsewhere.\n                x-kubernetes-preserve-unknown-fields: true\n";
    assert!(crd.contains(other), "{crd}");
}

#[test]
fn controllers_rbac_and_webhook_markers_become_modules() {
    let dir = scratch("rbac");
    go_package(&dir.0, "package v1\n");
    let controllers = dir.0.join("internal/controller");
    fs::create_dir_all(&controllers).unwrap();
    fs::write(
        controllers.join("widget_controller.go"),
        "package controller\n\n// +kubebuilder:rbac:groups=\"\",resources=pods,verbs=get;list\n\
         // +kubebuilder:rbac:groups=core;apps,resources=deployments,verbs=*,namespace=ns\n\
         func (r *Reconciler) Reconcile() {}\n",
    )
    .unwrap();
    fs::write(
        controllers.join("widget_webhook.go"),
        "package controller\n\n// +kubebuilder:webhook:path=/validate-v1-widget,mutating=false,\
         failurePolicy=fail,sideEffects=None,groups=example.com,resources=widgets,verbs=create,\
         versions=v1,name=vwidget.kb.io,admissionReviewVersions=v1\n",
    )
    .unwrap();
    let args = [
        "--module",
        "src/api",
        "--controllers",
        "internal/controller",
        "api/v1",
    ];
    let (ok, _, stderr) = import(&dir.0, &args);
    assert!(ok, "{stderr}");
    let module = fs::read_to_string(dir.0.join("src/api/mod.rs"))
        .unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert!(module.contains("pub mod rbac;"), "{module}");
    assert!(module.contains("pub mod webhooks;"), "{module}");
    let webhooks = fs::read_to_string(dir.0.join("src/api/webhooks.rs")).unwrap();
    assert!(webhooks.contains("pub fn vwidget_kb_io<K>("), "{webhooks}");
    let rbac = fs::read_to_string(dir.0.join("src/api/rbac.rs")).unwrap();
    assert!(
        rbac.contains(r#"#[rbac(groups = "", resources = "pods", verbs = "get;list")]"#),
        "{rbac}"
    );
    assert!(
        rbac.contains(
            r#"#[rbac(groups = "core;apps", resources = "deployments", verbs = "*", namespace = "ns")]"#
        ),
        "{rbac}"
    );
}

#[test]
fn a_type_of_another_input_package_is_that_packages_rust_type() {
    let dir = scratch("crosspkg");
    fs::write(dir.0.join("go.mod"), "module example.com/proj\n\ngo 1.24\n").unwrap();
    go_package(
        &dir.0,
        "package v1\n\n// Size is how big.\n// +kubebuilder:validation:Minimum=1\ntype Size int32\n",
    );
    let v2 = dir.0.join("api/v2");
    fs::create_dir_all(&v2).unwrap();
    fs::write(
        v2.join("groupversion_info.go"),
        GROUP_VERSION.replace("package v1", "package v2"),
    )
    .unwrap();
    fs::write(
        v2.join("widget_types.go"),
        r#"package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	v1 "example.com/proj/api/v1"
)

type WidgetSpec struct {
	Size v1.Size `json:"size"`
}

type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}
"#,
    )
    .unwrap();
    // A published kubegen: nothing vendored.
    let args = [
        "--out",
        "out",
        "--kubegen-version",
        "0.1.0",
        "api/v1",
        "api/v2",
    ];
    let (ok, _, stderr) = import(&dir.0, &args);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let out = dir.0.join("out");
    let v2 = fs::read_to_string(out.join("src/example_com_v2.rs")).unwrap();
    assert!(
        v2.contains("pub size: super::example_com_v1::Size,"),
        "{v2}"
    );
    let v1 = fs::read_to_string(out.join("src/example_com_v1.rs")).unwrap();
    assert!(v1.contains("pub struct Size(pub i32);"), "{v1}");
    // The crate keeps controller-gen's plain `ObjectMeta` below the root.
    let manifest = fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("[package.metadata.kubegen]\ngenerate-embedded-object-meta = false\n"),
        "{manifest}"
    );
    // gen-cli follows the path: the CRD has v1's schema of the field.
    let crd = widgets_crd(&out.join("src/lib.rs"));
    let size = "              size:\n                description: Size is how big.\n                format: int32\n                minimum: 1\n                type: integer\n";
    assert!(crd.contains(size), "{crd}");
}
