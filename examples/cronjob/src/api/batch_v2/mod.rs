//! Version `v2` of the `batch.tutorial.kubebuilder.io` API group.

mod cron_job;
pub use cron_job::*;
// kubegen:scaffold:kinds
