use kubegen::webhook;

// The second `#[webhook]` of a handler is read by the first: its errors are reported.
#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "default.deployments.example.com", admission_review_versions = "v1")]
#[webhook(mutating = true, failure_policy = "fail", side_effects = "Some", groups = "apps", resources = "deployments", verbs = "update", versions = "v1", name = "update.deployments.example.com", admission_review_versions = "v1")]
fn default_deployment() {}

// A valid handler gets a module of its models.
#[webhook(mutating = false, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "validate.deployments.example.com", admission_review_versions = "v1")]
fn validate_deployment() {}

fn main() {
    default_deployment();
    validate_deployment();
    let _: Vec<kubegen::__private::Webhook> = validate_deployment::webhooks();
    let _ = default_deployment::webhooks();
}
