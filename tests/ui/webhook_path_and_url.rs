// controller-tools' pkg/webhook/testdata/invalid-path-and-url: controller-gen refuses these markers,
// and so does `#[webhook]`, at compile time.
use kubegen::webhook;

#[webhook(url = "https://anothersomewebhook:9443/validate-testdata-kubebuilder-io-v1-cronjob", path = "/somepath", verbs = "create;update", mutating = false, failure_policy = "fail", match_policy = "Equivalent", groups = "testdata.kubebuilder.io", resources = "cronjobs", versions = "v1", name = "validation.cronjob.testdata.kubebuilder.io", side_effects = "NoneOnDryRun", timeout_seconds = 10, admission_review_versions = "v1;v1beta1")]
fn marker_1() {}

fn main() {}
