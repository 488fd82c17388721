//! `x_validation(field_path = ...)` problems are located at the value, as the derive places them
//! (`tests/ui/bad_field_path.rs`): the engine's error carries the value's file, line and column.

use std::path::Path;

use gen_cli::cli::Options;
use gen_cli::generate::{What, generate};
use gen_cli::workspace::Package;

#[test]
fn each_bad_field_path_is_reported_at_its_value() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/ui/bad_field_path.rs");
    let source = std::fs::read_to_string(&file).unwrap();
    let package = Package {
        name: "input".into(),
        dir: std::env::temp_dir(),
        targets: vec![("input".into(), file.clone())],
        k8s_openapi: false,
        kubernetes: None,
    };
    let options = Options {
        packages: Vec::new(),
        manifest_path: None,
        out_dir: "config".into(),
        check: true,
        stdout: false,
        role_name: "manager-role".into(),
        kubernetes: None,
        max_desc_len: None,
    };
    let what = What {
        crds: true,
        rbac: false,
        webhooks: false,
    };
    let Err(errors) = generate(&package, &options, what) else {
        panic!("gen-cli accepts {}", file.display());
    };
    // Every `field_path = "..."` of the file but the two valid ones, where its value starts.
    let key = "field_path = \"";
    let mut expected = Vec::new();
    for (i, line) in source.lines().enumerate() {
        if let Some(at) = line.find(key) {
            let value = &line[at + key.len()..];
            let path = &value[..value.find('"').unwrap()];
            if ![".anything", "['name']"].contains(&path) {
                expected.push((format!("field_path `{path}`"), i + 1, at + key.len()));
            }
        }
    }
    assert_eq!(expected.len(), 5, "{expected:?}");
    for (context, line, column) in &expected {
        let found = errors.iter().find(|e| &e.context == context);
        let Some(e) = found else {
            panic!("no error about {context}: {errors:#?}");
        };
        let loc = e.loc.as_ref().expect("a location");
        assert_eq!((loc.line, loc.column), (*line, *column), "{context}: {e}");
        assert!(loc.file.ends_with("bad_field_path.rs"), "{e}");
        assert!(e.message.contains("must be a valid path"), "{e}");
    }
    assert_eq!(
        errors.len(),
        expected.len(),
        "only the bad paths are refused: {errors:#?}"
    );
}
