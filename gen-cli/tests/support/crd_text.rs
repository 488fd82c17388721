//! A generated CRD file's text as the parity tests compare it (`import.rs`, `import_go.rs`).

/// The annotations a generator writes about itself.
pub const GENERATOR_ANNOTATIONS: &[&str] = &[
    "controller-gen.kubebuilder.io/version",
    "kubegen.io/version",
];

/// A CRD file's lines that matter: no header or comment lines, no generator annotation.
pub fn bytes(text: &str) -> String {
    let text = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let text = text.strip_prefix("---\n").unwrap_or(&text);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            !GENERATOR_ANNOTATIONS
                .iter()
                .any(|a| l.trim_start().starts_with(&format!("{a}:")))
        })
        .collect();
    // An `annotations:` left with no entry goes too.
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if *l == "  annotations:" && !lines.get(i + 1).is_some_and(|n| n.starts_with("    ")) {
            continue;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}
