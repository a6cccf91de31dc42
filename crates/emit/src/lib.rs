//! cufront-emit (in progress).
