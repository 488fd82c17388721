//! Apply configurations (typed server-side apply): for each type, a partial form of it in
//! which every field is optional, so that a field manager sends, and owns, only the fields it
//! sets; and `extract`, the part of an object one manager owns (client-go's `ExtractX`).
//!
//! [`plan`] decides each type's configuration from the model at derive time, and the same plan
//! gives the [`describe`] data that [`extract`] checks `managedFields` against at run time.

pub use crate::model::describe;
pub mod extract;
#[cfg(feature = "parse")]
pub mod plan;
