//! The webhook server: the admission and conversion webhooks of every kind (`kubegen create
//! webhook` adds them). Their `#[webhook]` attributes are what `kubegen manifests` turns into
//! `config/webhook/manifests.yaml`, and the server routes each handler on the same path.

use kubegen::webhook::Server;

mod batch_v1_cron_job;
mod cron_job_conversion;
// kubegen:scaffold:webhook-modules

// ANCHOR: server
/// The server with every webhook of the operator.
pub fn server() -> Server {
    let server = Server::new();
    let server = batch_v1_cron_job::register(server);
    let server = cron_job_conversion::register(server);
    // kubegen:scaffold:webhooks
    server
}
// ANCHOR_END: server
