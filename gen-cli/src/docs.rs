//! `kubegen docs`: the engine's API reference pages (`kubegen_core::docs`) for one package,
//! under its `docs-dir`, each with the project's header and kubegen's "Code generated" line.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use kubegen_core::crd;
use kubegen_core::docs::{self, Kind};
use kubegen_core::known::Kubernetes;
use kubegen_core::model::{Error, ResourceDef};

use crate::config::Layout;
use crate::header::MARKDOWN_HEADER;
use crate::options::Options;

/// `kubegen docs`.
#[derive(Debug, Clone, Args)]
pub struct DocsArgs {
    /// Common options.
    #[command(flatten)]
    pub options: Options,
    /// The folder of the pages, relative to each package (`--docs-dir`).
    #[arg(long, value_name = "DIR", conflicts_with = "docs_dir")]
    pub out: Option<PathBuf>,
}

impl DocsArgs {
    /// The options, `--out` as the docs folder.
    pub fn options(self) -> Options {
        let mut options = self.options;
        if let Some(out) = self.out {
            options.config.docs_dir = Some(out);
        }
        options
    }
}

/// The pages of a package's kinds (each kind's versions together), by file. Descriptions are
/// kept whole: `max-desc-len` shortens CRDs only.
pub fn pages(
    kinds: &[Vec<ResourceDef>],
    layout: &Layout,
    kubernetes: &Kubernetes,
) -> Result<BTreeMap<PathBuf, String>, Vec<Error>> {
    let mut crds = Vec::new();
    let mut errors = Vec::new();
    let options = crd::Options {
        kubernetes: kubernetes.clone(),
        ..crd::Options::default()
    };
    for defs in kinds {
        match crd::build(defs, &options) {
            Ok(built) => crds.push((defs, built.crd)),
            Err(e) => errors.extend(e.0),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let kinds: Vec<Kind> = crds.iter().map(|(defs, crd)| Kind { crd, defs }).collect();
    let header = format!("{}{MARKDOWN_HEADER}", layout.markdown_header());
    Ok(docs::pages(&kinds, kubernetes.minor().get())
        .into_iter()
        .map(|page| {
            (
                layout.docs_dir.join(page.file),
                format!("{header}{}", page.content),
            )
        })
        .collect())
}
