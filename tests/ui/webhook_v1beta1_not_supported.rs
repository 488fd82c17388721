// controller-tools' pkg/webhook/testdata/invalid-v1beta1NotSupported: controller-gen refuses these markers,
// and so does `#[webhook]`, at compile time.
use kubegen::webhook;

#[webhook(webhook_versions = "v1beta1", verbs = "create;update", path = "/validate-testdata-kubebuilder-io-v1-cronjob", mutating = false, failure_policy = "fail", match_policy = "Equivalent", groups = "testdata.kubebuilder.io", resources = "cronjobs", versions = "v1", name = "validation.cronjob.testdata.kubebuilder.io", side_effects = "None", timeout_seconds = 10, admission_review_versions = "v1;v1beta1")]
fn marker_1() {}

#[webhook(verbs = "create;update", path = "/validate-testdata-kubebuilder-io-v1-cronjob", mutating = false, failure_policy = "fail", match_policy = "Equivalent", groups = "testdata.kubebuilder.io", resources = "cronjobs", versions = "v1", name = "validation.cronjob.testdata.kubebuilder.io", side_effects = "NoneOnDryRun", timeout_seconds = 10, admission_review_versions = "v1;v1beta1")]
fn marker_2() {}

#[webhook(verbs = "create;update", path = "/mutate-testdata-kubebuilder-io-v1-cronjob", mutating = true, failure_policy = "fail", match_policy = "Equivalent", groups = "testdata.kubebuilder.io", resources = "cronjobs", versions = "v1", name = "default.cronjob.testdata.kubebuilder.io", side_effects = "None", timeout_seconds = 10, admission_review_versions = "v1;v1beta1")]
fn marker_3() {}

fn main() {}
