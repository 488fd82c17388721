//! The controllers, one module per kind (`kubegen create api` adds them). Their `#[rbac]`
//! attributes are what `kubegen manifests` turns into `config/rbac/role.yaml`.

pub mod cron_job;
// kubegen:scaffold:controllers
