//! Golden test for the YAML writer: every `*.yaml` file controller-gen produced for its own
//! test suite (kept outside this repository; `fixture_parity::golden` finds it) is read
//! back with serde-saphyr and written again with [`to_yaml_documents`]; the result must be
//! byte-identical to the file (but for the few files edited by hand upstream, listed below).

use std::path::{Path, PathBuf};

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

/// Why a golden's keys are out of controller-gen's order.
const REINVOCATION_LAST: &str = "`reinvocationPolicy` added by hand after `timeoutSeconds`";

/// Goldens edited by hand upstream into a layout controller-gen's writer never produces
/// (controller-tools' webhook tests compare them as data), with how. Each must still differ
/// from what we render (or it leaves this list) and read back as the same data.
const HAND_EDITED_LAYOUT: &[(&str, &str)] = &[
    (
        "pkg/webhook/testdata/valid/manifests.yaml",
        REINVOCATION_LAST,
    ),
    (
        "pkg/webhook/testdata/valid-crosspkg-stable/manifests.yaml",
        "sequences indented under their key, as yaml.v3 writes them",
    ),
    (
        "pkg/webhook/testdata/valid-custom-name/manifests.yaml",
        REINVOCATION_LAST,
    ),
    (
        "pkg/webhook/testdata/valid-custom-service/manifests.yaml",
        REINVOCATION_LAST,
    ),
    (
        "pkg/webhook/testdata/valid-url/manifests.yaml",
        REINVOCATION_LAST,
    ),
];

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
    let mut files = Vec::new();
    collect_yaml_files(&root, &mut files);
    files.sort();
    assert!(
        !files.is_empty(),
        "no *.yaml goldens under {}",
        root.display()
    );

    let mut failures = Vec::new();
    let mut hand_edited = 0;
    for path in &files {
        let relative = path
            .strip_prefix(&root)
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
        } else {
            (to_yaml_documents(&docs), text)
        };
        if let Some((_, how)) = HAND_EDITED_LAYOUT.iter().find(|(f, _)| *f == relative) {
            hand_edited += 1;
            let back: Vec<serde_json::Value> = serde_saphyr::from_multiple(&rendered)
                .unwrap_or_else(|e| panic!("{relative} rendered is not YAML: {e}"));
            if rendered == expected {
                failures.push(format!(
                    "{relative} now matches byte for byte ({how} no longer holds): remove it \
                     from HAND_EDITED_LAYOUT"
                ));
            } else if back != docs {
                failures.push(format!("{relative} rendered reads back as other data"));
            }
        } else if rendered != expected {
            let diff = similar::TextDiff::from_lines(&expected, &rendered)
                .unified_diff()
                .context_radius(3)
                .header(&format!("{relative} (golden)"), "rendered")
                .to_string();
            failures.push(format!("{relative} differs:\n{diff}"));
        }
    }
    assert_eq!(
        hand_edited,
        HAND_EDITED_LAYOUT.len(),
        "every file of HAND_EDITED_LAYOUT is a golden"
    );
    assert!(
        failures.is_empty(),
        "{} of {} goldens differ:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} goldens match byte for byte, {} hand-edited ones as data",
        files.len() - hand_edited,
        hand_edited
    );
}
