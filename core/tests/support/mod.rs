//! Shared by the property tests and the fuzz targets.

pub mod properties;
