//! The size guard on kinds made large by embedded pod templates (as a CronJob or a workload
//! operator's kinds are): a warning with the ways out above what client-side `kubectl apply`
//! can annotate, an error and nothing written above what etcd stores.

mod support {
    pub mod workspace;
}

use support::workspace::*;

const CRD: &str = "api/config/crd/bases/example.com_bigs.yaml";

/// A kind whose spec holds `n` pod templates.
fn big_kind(n: usize) -> String {
    let fields: String = (0..n)
        .map(|i| format!("    pub template{i}: PodTemplateSpec,\n"))
        .collect();
    format!(
        "use kubegen::CustomResource;\nuse k8s_openapi::api::core::v1::PodTemplateSpec;\n\n\
         /// A kind with pod templates.\n#[derive(CustomResource)]\n\
         #[kube_marker(group = \"example.com\", version = \"v1\", kind = \"Big\")]\n\
         pub struct BigSpec {{\n{fields}}}\n"
    )
}

#[test]
fn a_crd_too_large_for_client_side_apply_is_written_with_a_warning() {
    let ws = Workspace::new("size-warn");
    ws.write("api/src/lib.rs", &big_kind(1));
    let out = ws.run(&["crd"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        reports(
            &err,
            "api/src/lib.rs:7:12",
            "too large for client-side `kubectl apply`"
        ) && err.contains("the CRD is ")
            && err.contains("where the API server accepts 262,144")
            && err.contains("`kubectl apply --server-side`")
            && err.contains("descriptions take ")
            && err.contains("the largest subtrees: v1 .spec.template0.spec ("),
        "{err}"
    );
    let crd = ws.read(CRD);
    // What is measured is the JSON form, not the (larger) YAML file: compact, with `<`, `>`
    // and `&` escaped as Go's encoding/json escapes them (`\u003c`: 5 more bytes each).
    let json: serde_json::Value = serde_saphyr::from_str(&crd).unwrap();
    let compact = serde_json::to_string(&json).unwrap();
    let size = compact.len() + 5 * compact.matches(['<', '>', '&']).count();
    assert!(size > 262_144 && size < 1_572_864, "{size}");
    assert!(
        err.contains(&format!("the CRD is {} bytes as JSON", thousands(size))),
        "{err}"
    );

    // Without descriptions it fits: no warning.
    let out = ws.run(&["crd", "--max-desc-len", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

#[test]
fn a_crd_too_large_to_store_is_an_error_and_nothing_is_written() {
    let ws = Workspace::new("size-error");
    ws.write("api/src/lib.rs", &big_kind(6));
    let err = ws.fails(&["manifests"]);
    assert!(
        reports(&err, "api/src/lib.rs:7:12", "the CRD is ")
            && err.contains("too large for etcd")
            && err.contains("etcd accepts at most 1,572,864 bytes in one request"),
        "{err}"
    );
    assert!(!ws.exists("api/config"), "nothing is written");
}

/// `1234567` as `1,234,567`.
fn thousands(n: usize) -> String {
    kubegen_core::crd::size::thousands(n)
}
