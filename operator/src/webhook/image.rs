//! Container image references: whether one names its version.

/// The repository of `image`, without its tag or digest (`memcached:1.6` → `memcached`).
pub fn repository(image: &str) -> &str {
    let image = image.split_once('@').map_or(image, |(name, _)| name);
    // A `:` after the last `/` starts the tag; one before it belongs to a registry's port.
    let name_start = image.rfind('/').map_or(0, |i| i + 1);
    match image[name_start..].find(':') {
        Some(colon) => &image[..name_start + colon],
        None => image,
    }
}

/// Whether `image` names its version: a tag (`memcached:1.6`) or a digest (`...@sha256:...`).
pub fn is_pinned(image: &str) -> bool {
    // More than the `:` or `@` after the repository.
    image.len() > repository(image).len() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_digests_and_registry_ports() {
        let cases = [
            ("memcached", "memcached", false),
            ("memcached:1.6", "memcached", true),
            ("memcached:", "memcached", false),
            (
                "registry.example.com:5000/cache/memcached",
                "registry.example.com:5000/cache/memcached",
                false,
            ),
            (
                "registry.example.com:5000/memcached:1.6",
                "registry.example.com:5000/memcached",
                true,
            ),
            ("memcached@sha256:0123", "memcached", true),
            (
                "localhost/memcached:1.6@sha256:0123",
                "localhost/memcached",
                true,
            ),
        ];
        for (image, repo, pinned) in cases {
            assert_eq!(
                (repository(image), is_pinned(image)),
                (repo, pinned),
                "{image}"
            );
        }
    }
}
