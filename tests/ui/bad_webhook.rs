use kubegen::{webhook, webhook_configuration};

const BASE: () = ();

#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create;updaet", versions = "v1", name = "default.deployments.example.com", admission_review_versions = "v1")]
fn unknown_verb_with_suggestion() {}

#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "deployments.io", admission_review_versions = "v1")]
fn name_with_two_labels() {}

#[webhook(mutating = false, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "validate.deployments.example.com", admission_review_versions = "v1", reinvocation_policy = "IfNeeded")]
fn reinvocation_on_validating() {}

#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "default.deployments.example.com", admission_review_version = "v1")]
fn misspelled_key() {}

#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "default.deployments.example.com", admission_review_versions = "v1", match_policy = "Equivalant", patch = "{not json}")]
fn bad_match_policy_and_patch() {}

#[webhook_configuration(mutating = true, name = "Not_A_Name")]
fn bad_configuration_name() {}

fn main() {
    let _ = BASE;
}
