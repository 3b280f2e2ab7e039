//! Hand-written byte vectors per format: every record layout typed out byte by byte from
//! the spec pages (docs/formats/), checked against the document the program builds
//! (`formats::open_as`, every node expanded) and against the format's writer.
mod ccsf;
mod ccsf_gen2;
mod gzarc;
mod pak;
mod sc6;
