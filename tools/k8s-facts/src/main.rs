//! `k8s-facts`: generates kubegen-core's table of the Kubernetes facts controller-gen reads
//! from the Go sources (`core/src/known/k8s/go_table.rs`), one version at a time, the other
//! versions kept as committed:
//!
//! ```sh
//! KUBEGEN_K8S_API=/path/to/kubernetes/api/.git \
//! KUBEGEN_K8S_APIMACHINERY=/path/to/kubernetes/apimachinery/.git \
//! KUBEGEN_K8S_TAG=v0.36.3 \
//! cargo run -p k8s-facts -- go
//! ```
//!
//! (`KUBEGEN_K8S_MINOR=37` with a branch such as `KUBEGEN_K8S_TAG=master`.) Its tests check
//! the committed table against k8s-openapi's types of every version.

mod go;
mod go_source;
mod k8s_openapi;
#[cfg(test)]
mod openapi_tables;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;

use table::Table;

/// The committed table.
const TABLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../core/src/known/k8s/go_table.rs"
);

/// The committed table, read.
fn committed_table() -> Table {
    let text = std::fs::read_to_string(TABLE).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    Table::parse(&text).unwrap_or_else(|e| panic!("{TABLE}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["go"] => match regenerate() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!(
                "usage: k8s-facts go (see docs/book/src/internals/parity.md: Kubernetes types as controller-gen writes them)"
            );
            ExitCode::FAILURE
        }
    }
}

/// Reads one version's facts from the Go sources the environment names and writes the table
/// with them, the other versions as committed.
fn regenerate() -> Result<(), String> {
    let path = |var: &str| {
        std::env::var(var)
            .map(PathBuf::from)
            .map_err(|_| format!("set {var} to a git directory"))
    };
    let (api, apimachinery) = (path("KUBEGEN_K8S_API")?, path("KUBEGEN_K8S_APIMACHINERY")?);
    let tag = std::env::var("KUBEGEN_K8S_TAG")
        .map_err(|_| "set KUBEGEN_K8S_TAG to a tag or branch".to_string())?;
    let minor = std::env::var("KUBEGEN_K8S_MINOR").unwrap_or_else(|_| {
        tag.trim_start_matches("v0.")
            .chars()
            .take_while(char::is_ascii_digit)
            .collect()
    });
    let minor: u32 = minor
        .parse()
        .map_err(|_| format!("set KUBEGEN_K8S_MINOR (a number) for {tag}"))?;
    let mut structs = go_source::Structs::new();
    go_source::read_repo(&api, &tag, "k8s.io/api", &mut structs);
    go_source::read_repo(&apimachinery, &tag, "k8s.io/apimachinery", &mut structs);
    let source = format!(
        "{tag} (api {}, apimachinery {})",
        go_source::commit(&api, &tag),
        go_source::commit(&apimachinery, &tag)
    );
    let mut table = committed_table();
    let types = go::types(&structs, &go::openapi_definitions(minor));
    table.versions.insert(minor, types);
    table.sources.insert(minor, source);
    std::fs::write(TABLE, table.render()).map_err(|e| format!("{TABLE}: {e}"))?;
    eprintln!("rewrote {TABLE} (Kubernetes 1.{minor})");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed table is exactly what the generator writes of its own entries: every
    /// distinct entry once, in order, with its versions (a hand edit that breaks the form fails
    /// here; the facts themselves come from the Go sources, see `go.rs`).
    #[test]
    fn the_committed_table_is_in_the_generators_form() {
        let text = std::fs::read_to_string(TABLE).expect("the committed table");
        let table = committed_table();
        assert_eq!(
            table.sources.len(),
            table.versions.len(),
            "a source per version"
        );
        let rendered = table.render();
        if rendered != text {
            let diff = similar::TextDiff::from_lines(&text, &rendered)
                .unified_diff()
                .context_radius(2)
                .to_string();
            panic!("{TABLE} is not in the generator's form:\n{diff}");
        }
    }
}
