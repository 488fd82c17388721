//! Derive macros for kubegen.
