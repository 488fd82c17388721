//! Golden test for the YAML writer: every `*.yaml` file controller-gen produced for its own
//! test suite (kept outside this repository; `fixture_parity::golden` finds it; one webhook
//! golden in a hand-written layout aside) is read back with serde-saphyr and written again
//! with [`to_yaml_documents`]; the result must be byte-identical to the file (for the webhook
//! goldens, after moving their hand-placed `reinvocationPolicy` key to its sorted place).

use std::path::{Path, PathBuf};

use fixture_parity::sort_reinvocation_policy;
use kubegen_core::render::{to_yaml, to_yaml_documents};

/// Goldens that are hand-maintained upstream rather than written by controller-gen's
/// `WriteYAML`. Every other file is compared exactly, as a whole.
///
/// `testdata.kubebuilder.io_enums.yaml` is a single document without the leading `---`
/// line and without the final line break yaml.v2 always writes. It is compared with
/// [`to_yaml`] (one document, no `---`) after adding that one line break back; every other
/// byte must match.
fn is_hand_maintained_bare_document(relative: &str) -> bool {
    relative == "pkg/crd/testdata/testdata.kubebuilder.io_enums.yaml"
}

/// The webhook golden hand-written in another layout (4-space indentation, indented
/// sequences) than yaml.v2's: it is left out (`fixtures/webhook` compares it as data).
fn is_hand_written_layout(relative: &str) -> bool {
    relative == "pkg/webhook/testdata/valid-crosspkg-stable/manifests.yaml"
}

fn collect_yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read golden folder {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("readable directory entry").path();
        if path.is_dir() {
            collect_yaml_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "yaml") {
            out.push(path);
        }
    }
}

#[test]
fn renders_every_controller_tools_golden_byte_for_byte() {
    let Some(root) = fixture_parity::golden_path("controller-tools") else {
        return;
    };
    let root = root.as_path();
    // CRDs, roles and webhook configurations (see `sort_reinvocation_policy` and
    // `is_hand_written_layout` for the webhook goldens).
    let mut files = Vec::new();
    for part in ["pkg/crd", "pkg/rbac", "pkg/webhook"] {
        collect_yaml_files(&root.join(part), &mut files);
    }
    files.sort();
    files.retain(|f| {
        !is_hand_written_layout(
            &f.strip_prefix(root)
                .unwrap_or(f)
                .to_string_lossy()
                .replace('\\', "/"),
        )
    });
    assert!(
        !files.is_empty(),
        "no *.yaml goldens under {}",
        root.display()
    );

    let mut failures = Vec::new();
    for path in &files {
        let relative = path
            .strip_prefix(root)
            .expect("under the golden root")
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let docs: Vec<serde_json::Value> = serde_saphyr::from_multiple(&text)
            .unwrap_or_else(|e| panic!("serde-saphyr cannot parse {relative}: {e}"));
        assert!(!docs.is_empty(), "{relative}: no documents");
        let (rendered, expected) = if is_hand_maintained_bare_document(&relative) {
            assert!(
                docs.len() == 1 && !text.starts_with("---") && !text.ends_with('\n'),
                "{relative} changed shape: revisit is_hand_maintained_bare_document"
            );
            (to_yaml(&docs[0]), format!("{text}\n"))
        } else if relative.starts_with("pkg/webhook/") {
            (to_yaml_documents(&docs), sort_reinvocation_policy(&text))
        } else {
            (to_yaml_documents(&docs), text)
        };
        if rendered != expected {
            let diff = similar::TextDiff::from_lines(&expected, &rendered)
                .unified_diff()
                .context_radius(3)
                .header(&format!("{relative} (golden)"), "rendered")
                .to_string();
            failures.push(format!("{relative} differs:\n{diff}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} goldens differ:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!("{} goldens match byte for byte", files.len());
}
