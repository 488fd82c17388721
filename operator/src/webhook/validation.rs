//! The validating webhook.

use kubegen::webhook;
use kubegen::webhook::Denied;

use super::image;
use crate::api::v1beta1::Memcached;

/// Denies an image without a tag or digest: which memcached runs must not depend on what
/// `latest` means on the day a pod starts.
// ANCHOR: webhook
#[webhook(
    mutating = false,
    failure_policy = "fail",
    side_effects = "None",
    groups = "cache.example.com",
    resources = "memcacheds",
    verbs = "create;update",
    versions = "v1beta1",
    name = "vmemcached-v1beta1.kb.io",
    admission_review_versions = "v1"
)]
pub fn validate_memcached(mc: &Memcached, _old: Option<&Memcached>) -> Result<(), Denied> {
    let image = &mc.spec.image;
    if image::is_pinned(image) {
        return Ok(());
    }
    Err(Denied::new(format!(
        "spec.image {image:?} has no tag: name the version to run, as in \"{image}:1.6\", or a digest"
    ))
    .with_code(422))
}
// ANCHOR_END: webhook

#[cfg(test)]
mod tests {
    use super::super::memcached;
    use super::*;

    #[test]
    fn an_image_needs_a_tag_or_digest() {
        assert_eq!(
            validate_memcached(&memcached("memcached:1.6"), None),
            Ok(())
        );
        assert_eq!(
            validate_memcached(&memcached("memcached@sha256:00"), None),
            Ok(())
        );
        let denied =
            validate_memcached(&memcached("example.com:5000/memcached"), None).unwrap_err();
        assert_eq!(denied.code, 422);
        assert_eq!(
            denied.message,
            "spec.image \"example.com:5000/memcached\" has no tag: name the version to run, as in \"example.com:5000/memcached:1.6\", or a digest"
        );
    }
}
