//! What a search gives its caller: the [`Sink`] that receives hits,
//! errors and notes in input order, what it is told about each input,
//! and the totals of a search.

use std::io;

use crate::hit::Hit;

/// What the extractor tells a [`Sink`] about the input a hit came from.
#[derive(Clone, Debug)]
pub struct InputInfo {
    /// Position of the input in the sequence given to `search` (0-based).
    pub index: usize,
    /// The input's name.
    pub name: String,
}

/// Receives the results of [`Extractor::search`](crate::Extractor::search), in input order.
pub trait Sink {
    /// Everything given so far should reach its destination now (called
    /// after each piece of input in line-buffered mode).
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// A problem met decoding message number `message` of the input
    /// (best effort was made); given once per message, before its hits.
    fn warning(
        &mut self,
        _input: &InputInfo,
        _message: u64,
        _text: &str,
    ) -> io::Result<()> {
        Ok(())
    }

    /// A hit. Return `Ok(false)` to stop the search (as `head` would).
    fn hit(&mut self, input: &InputInfo, hit: &Hit) -> io::Result<bool>;

    /// The input ended; `hits` counts the hits given for it.
    fn end(&mut self, _input: &InputInfo, _hits: u64) -> io::Result<()> {
        Ok(())
    }

    /// The input could not be opened or read; the search goes on.
    fn error(
        &mut self,
        input: &InputInfo,
        error: &io::Error,
    ) -> io::Result<()>;

    /// The input has a NUL byte at `offset` and binary scanning is off:
    /// nothing from `offset` on was scanned, and nothing at all when
    /// `skipped` (the NUL byte is in the first 64 KiB).
    fn binary(
        &mut self,
        _input: &InputInfo,
        _offset: u64,
        _skipped: bool,
    ) -> io::Result<()> {
        Ok(())
    }

    /// [`Sink::binary`] for an input skipped as binary whose first bytes
    /// are those of a compressed format (`format`): one read without
    /// decompression, such as `cat x.gz | urlx`. By default the same as
    /// [`Sink::binary`].
    fn binary_compressed(
        &mut self,
        input: &InputInfo,
        offset: u64,
        format: crate::decompress::Compression,
    ) -> io::Result<()> {
        let _ = format;
        self.binary(input, offset, true)
    }
}

/// Totals of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Hits given to the sink.
    pub hits: u64,
    /// Inputs that failed to open or read.
    pub errors: u64,
    /// Inputs searched (in whole or in part).
    pub inputs: u64,
    /// Bytes searched: of plain text as read (decompressed), of mail the
    /// messages' bytes.
    pub bytes: u64,
    /// Mail messages and news articles searched.
    pub messages: u64,
    /// Warnings given for messages ([`Sink::warning`]): problems met
    /// decoding them, after which their text was read all the same.
    pub notes: u64,
    /// The sink asked to stop before the end.
    pub stopped: bool,
}
