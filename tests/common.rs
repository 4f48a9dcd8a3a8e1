//! Helpers shared by the test modules.

use urlx::{Hit, InputInfo, Sink};

/// A sink that keeps every hit with its input's index, and fails the
/// test on an input error.
pub struct Collect(pub Vec<(usize, Hit)>);

impl Sink for Collect {
    fn hit(&mut self, i: &InputInfo, hit: &Hit) -> std::io::Result<bool> {
        self.0.push((i.index, hit.clone()));
        Ok(true)
    }

    fn error(
        &mut self,
        _: &InputInfo,
        e: &std::io::Error,
    ) -> std::io::Result<()> {
        panic!("{e}")
    }
}
