//! Unit tests of the CCSF format.
