//! Where a module is: what is known of it while its items are read.

use std::path::{Path, PathBuf};

use kubegen_core::model::Loc;
use proc_macro2::Span;

use super::error::span_loc;

/// Where a module is: its path from the crate root and its file. All a module is known by
/// while its items are read, before the module tree is complete.
#[derive(Debug, Clone)]
pub struct Origin {
    /// Names from the crate root: empty for the root, `["api", "v1"]` for `crate::api::v1`.
    pub(super) path: Vec<String>,
    /// The file holding the module's items (an inline module's is its parent's file).
    pub(super) file: PathBuf,
    /// `file` as written in [`Loc`]s.
    pub(super) file_name: String,
}

impl Origin {
    /// The module's names from the crate root (`["api", "v1"]` for `crate::api::v1`).
    pub fn path(&self) -> &[String] {
        &self.path
    }

    /// The file the module's items are in.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Where `span` is. The span must come from this module's file as parsed on this thread:
    /// spans are positions in the current thread's table of parsed files.
    pub fn loc(&self, span: Span) -> Loc {
        span_loc(&self.file_name, span)
    }

    /// The first token of `span`: where the derive, which cannot join spans on stable Rust,
    /// places an error about several tokens (darling's, about a whole `key = value`).
    pub fn first_token_loc(&self, span: Span) -> Loc {
        super::error::first_token(&self.file, &self.file_name, span)
    }
}
