//! Every shape the apply configurations support (feature `apply`) compiles, and serializes as
//! the server expects: each module holds types of one kind of shape and a test of their
//! configurations. Some of the types exist only to be compiled.

#[allow(dead_code)]
#[path = "apply_shapes/aliases.rs"]
mod aliases;
// A boxed list item (`Vec<Box<T>>`) is one of the shapes.
#[allow(dead_code, clippy::vec_box)]
#[path = "apply_shapes/torture.rs"]
mod torture;
