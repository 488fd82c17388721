//! Synthetic API crates: the same kinds written for kubegen and for kube-derive + schemars.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// One field of a synthetic spec, in both dialects: `(type, kubegen marker, schemars attr)`.
const FIELDS: &[(&str, &str, &str)] = &[
    (
        "i32",
        "#[kube_marker(minimum = 1, maximum = 5)]",
        "#[schemars(range(min = 1, max = 5))]",
    ),
    (
        "String",
        "#[kube_marker(max_length = 63)]",
        "#[schemars(length(max = 63))]",
    ),
    ("Option<String>", "", ""),
    (
        "Vec<String>",
        "#[kube_marker(min_items = 1)]",
        "#[schemars(length(min = 1))]",
    ),
    ("std::collections::BTreeMap<String, String>", "", ""),
    ("bool", "", ""),
    ("i64", "", ""),
    (
        "Option<i32>",
        "#[kube_marker(minimum = 0)]",
        "#[schemars(range(min = 0))]",
    ),
    (
        "String",
        "#[kube_marker(pattern = \"^[a-z]+$\")]",
        "#[schemars(regex(pattern = \"^[a-z]+$\"))]",
    ),
    ("Vec<Nested{k}>", "", ""),
    ("Nested{k}", "", ""),
    ("Option<Nested{k}>", "", ""),
    ("f64", "", ""),
    ("u32", "", ""),
    ("Option<Vec<String>>", "", ""),
];

/// A spec, its status and a nested type, for kind `k`.
fn kind_source(k: usize, fields: usize, kubegen: bool) -> String {
    let mut s = String::new();
    let (derive, schema_derive) = if kubegen {
        ("kubegen::CustomResource", "kubegen::KubeSchema")
    } else {
        (
            "kube::CustomResource, schemars::JsonSchema",
            "schemars::JsonSchema",
        )
    };
    let _ = writeln!(s, "/// Kind{k} is a synthetic kind.");
    let _ = writeln!(
        s,
        "#[derive({derive}, serde::Serialize, serde::Deserialize, Clone, Debug)]"
    );
    if kubegen {
        let _ = writeln!(
            s,
            "#[kube_marker(group = \"bench.example.com\", version = \"v1\", kind = \"Kind{k}\", status = \"Status{k}\")]"
        );
    } else {
        let _ = writeln!(
            s,
            "#[kube(group = \"bench.example.com\", version = \"v1\", kind = \"Kind{k}\", status = \"Status{k}\", namespaced)]"
        );
    }
    let _ = writeln!(s, "pub struct Kind{k}Spec {{");
    for f in 0..fields {
        let (ty, ours, theirs) = FIELDS[f % FIELDS.len()];
        let attr = if kubegen { ours } else { theirs };
        let _ = writeln!(s, "    /// Field {f} of kind {k}.");
        if !attr.is_empty() {
            let _ = writeln!(s, "    {attr}");
        }
        let _ = writeln!(
            s,
            "    pub field_{f}: {},",
            ty.replace("{k}", &k.to_string())
        );
    }
    let _ = writeln!(s, "}}\n");
    for (name, body) in [
        (
            format!("Nested{k}"),
            "    pub name: String,\n    pub port: Option<i32>,\n    pub tags: Vec<String>,\n",
        ),
        (
            format!("Status{k}"),
            "    pub ready: Option<bool>,\n    pub replicas: Option<i32>,\n",
        ),
    ] {
        let _ = writeln!(s, "/// {name}.");
        let _ = writeln!(
            s,
            "#[derive({schema_derive}, serde::Serialize, serde::Deserialize, Clone, Debug, Default)]"
        );
        let _ = writeln!(s, "pub struct {name} {{\n{body}}}\n");
    }
    s
}

fn write(path: &Path, content: &str) {
    fs::create_dir_all(path.parent().expect("a file has a folder"))
        .expect("the folder is writable");
    if fs::read_to_string(path).ok().as_deref() != Some(content) {
        fs::write(path, content).expect("the file is writable");
    }
}

fn manifest(name: &str, repo: &Path, kubegen: bool) -> String {
    let deps = if kubegen {
        format!(
            "kubegen = {{ package = \"kubegen-rs\", path = {:?} }}\nkube = {{ version = \"5.0.0\", default-features = false }}\n",
            repo.display().to_string()
        )
    } else {
        "kube = { version = \"5.0.0\", default-features = false, features = [\"derive\"] }\nschemars = \"1.2.3\"\nserde_json = \"1\"\n".to_string()
    };
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{deps}k8s-openapi = {{ version = \"0.29.0\", features = [\"latest\"{}] }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\n",
        if kubegen { "" } else { ", \"schemars\"" }
    )
}

fn workspace(dir: &Path, members: &[&str]) {
    let list: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[workspace]\nmembers = [{}]\nresolver = \"3\"\n",
            list.join(", ")
        ),
    );
}

/// Two crates of `kinds` kinds in one file each: `api-kubegen` and `api-kube`.
pub fn compile_workspace(repo: &Path, dir: &Path, kinds: usize, fields: usize) {
    workspace(dir, &["api-kubegen", "api-kube"]);
    for (package, kubegen) in [("api-kubegen", true), ("api-kube", false)] {
        write(
            &dir.join(package).join("Cargo.toml"),
            &manifest(package, repo, kubegen),
        );
        let source: String = (0..kinds)
            .map(|k| kind_source(k, fields, kubegen))
            .collect();
        write(
            &dir.join(package).join("src/lib.rs"),
            &format!("#![allow(dead_code)]\n{source}"),
        );
    }
}

/// An API crate at `root` (its folder name is its package name) with one module file per kind.
fn one_file_per_kind(repo: &Path, root: &Path, kinds: usize, fields: usize, kubegen: bool) {
    let package = root
        .file_name()
        .expect("a package folder")
        .to_string_lossy();
    write(&root.join("Cargo.toml"), &manifest(&package, repo, kubegen));
    let mut lib = String::from("#![allow(dead_code)]\n");
    for k in 0..kinds {
        let _ = writeln!(lib, "pub mod kind_{k};");
        write(
            &root.join(format!("src/kind_{k}.rs")),
            &kind_source(k, fields, kubegen),
        );
    }
    write(&root.join("src/lib.rs"), &lib);
}

/// `api` (kubegen, one file per kind, for `kubegen manifests`) and `api-kube` (the same with
/// kube-derive, plus the `crdgen` binary of the kube-rs idiom).
pub fn cli_workspace(repo: &Path, dir: &Path, kinds: usize, fields: usize) {
    workspace(dir, &["api", "api-kube"]);
    for (package, kubegen) in [("api", true), ("api-kube", false)] {
        one_file_per_kind(repo, &dir.join(package), kinds, fields, kubegen);
    }
    let mut crdgen = String::from("use kube::CustomResourceExt;\n\nfn main() {\n");
    for k in 0..kinds {
        let _ = writeln!(
            crdgen,
            "    println!(\"---\\n{{}}\", serde_json::to_string(&api_kube::kind_{k}::Kind{k}::crd()).unwrap());"
        );
    }
    crdgen.push_str("}\n");
    write(&dir.join("api-kube/src/bin/crdgen.rs"), &crdgen);
}

/// Touches a file so cargo rebuilds its crate.
pub fn touch(path: &Path) {
    let content = fs::read_to_string(path).expect("the file exists");
    fs::write(path, content).expect("the file is writable");
}

/// The one-line edit of the crdgen idiom: a field's doc comment changes, back and forth.
pub fn edit_one_line(path: &Path, flip: bool) {
    let content = fs::read_to_string(path).expect("the file exists");
    let (from, to) = if flip {
        ("/// Field 0 of kind 0.", "/// Field 0 of kind 0 (edited).")
    } else {
        ("/// Field 0 of kind 0 (edited).", "/// Field 0 of kind 0.")
    };
    fs::write(path, content.replacen(from, to, 1)).expect("the file is writable");
}

/// One field of a synthetic spec in Go, for the `FIELDS` entry of the same index:
/// `(markers, Go type, optional)`.
const GO_FIELDS: &[(&[&str], &str, bool)] = &[
    (
        &[
            "+kubebuilder:validation:Minimum=1",
            "+kubebuilder:validation:Maximum=5",
        ],
        "int32",
        false,
    ),
    (&["+kubebuilder:validation:MaxLength=63"], "string", false),
    (&[], "*string", true),
    (&["+kubebuilder:validation:MinItems=1"], "[]string", false),
    (&[], "map[string]string", false),
    (&[], "bool", false),
    (&[], "int64", false),
    (&["+kubebuilder:validation:Minimum=0"], "*int32", true),
    (
        &["+kubebuilder:validation:Pattern=`^[a-z]+$`"],
        "string",
        false,
    ),
    (&[], "[]Nested{k}", false),
    (&[], "Nested{k}", false),
    (&[], "*Nested{k}", true),
    (&[], "float64", false),
    (&[], "uint32", false),
    (&[], "[]string", true),
];

/// Kind `k` in Go, as a kubebuilder project writes it: the same fields, markers and docs as
/// [`kind_source`]'s, for controller-gen.
fn go_kind_source(k: usize, fields: usize) -> String {
    let mut s =
        String::from("package v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n");
    let _ = writeln!(s, "// Kind{k}Spec is a synthetic kind.");
    let _ = writeln!(s, "type Kind{k}Spec struct {{");
    for f in 0..fields {
        let (markers, ty, optional) = GO_FIELDS[f % GO_FIELDS.len()];
        let _ = writeln!(s, "\t// Field {f} of kind {k}.");
        for marker in markers {
            let _ = writeln!(s, "\t// {marker}");
        }
        if optional {
            let _ = writeln!(s, "\t// +optional");
        }
        let omit = if optional { ",omitempty" } else { "" };
        let ty = ty.replace("{k}", &k.to_string());
        let _ = writeln!(s, "\tField{f} {ty} `json:\"field_{f}{omit}\"`");
    }
    let _ = writeln!(s, "}}\n");
    let _ = writeln!(
        s,
        "// Nested{k}.\ntype Nested{k} struct {{\n\tName string `json:\"name\"`\n\t// +optional\n\tPort *int32 `json:\"port,omitempty\"`\n\tTags []string `json:\"tags\"`\n}}\n"
    );
    let _ = writeln!(
        s,
        "// Status{k}.\ntype Status{k} struct {{\n\t// +optional\n\tReady *bool `json:\"ready,omitempty\"`\n\t// +optional\n\tReplicas *int32 `json:\"replicas,omitempty\"`\n}}\n"
    );
    let _ = writeln!(
        s,
        "// +kubebuilder:object:root=true\n// +kubebuilder:subresource:status\n\n// Kind{k} is a synthetic kind.\ntype Kind{k} struct {{\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\n\tSpec   Kind{k}Spec `json:\"spec,omitempty\"`\n\tStatus Status{k}    `json:\"status,omitempty\"`\n}}"
    );
    s
}

/// `api` (kubegen, one file per kind) and `go/` (the same kinds as a Go module, one file per
/// kind, for controller-gen): the same API for both generators.
pub fn controller_gen_workspace(repo: &Path, dir: &Path, kinds: usize, fields: usize) {
    workspace(dir, &["api"]);
    one_file_per_kind(repo, &dir.join("api"), kinds, fields, true);
    let api = dir.join("go/api/v1");
    write(
        &api.join("groupversion_info.go"),
        "// Package v1 is a synthetic API.\n// +kubebuilder:object:generate=true\n// +groupName=bench.example.com\npackage v1\n",
    );
    for k in 0..kinds {
        write(
            &api.join(format!("kind_{k}_types.go")),
            &go_kind_source(k, fields),
        );
    }
}
