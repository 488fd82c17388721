//! The defaulting webhook.

use kubegen::webhook;

use super::image;
use crate::api::{DEFAULT_IMAGE, v1beta1::Memcached};

/// Gives the official image without a tag (`memcached`) the tag the operator is tested with
/// ([`DEFAULT_IMAGE`]); any other image is left as it is (and must carry its own tag).
// ANCHOR: webhook
#[webhook(
    mutating = true,
    failure_policy = "fail",
    side_effects = "None",
    groups = "cache.example.com",
    resources = "memcacheds",
    verbs = "create;update",
    versions = "v1beta1",
    name = "mmemcached-v1beta1.kb.io",
    admission_review_versions = "v1"
)]
pub fn default_memcached(mc: &mut Memcached) {
    let image = mc.spec.image.trim();
    if !image::is_pinned(image) && image == image::repository(DEFAULT_IMAGE) {
        mc.spec.image = DEFAULT_IMAGE.to_string();
    }
}
// ANCHOR_END: webhook

#[cfg(test)]
mod tests {
    use super::*;

    fn defaulted(image: &str) -> String {
        let mut mc = super::super::memcached(image);
        default_memcached(&mut mc);
        mc.spec.image
    }

    #[test]
    fn the_official_image_gets_the_default_tag() {
        assert_eq!(defaulted("memcached"), DEFAULT_IMAGE);
        assert_eq!(defaulted("memcached:1.5"), "memcached:1.5");
        assert_eq!(defaulted("example.com/memcached"), "example.com/memcached");
    }
}
