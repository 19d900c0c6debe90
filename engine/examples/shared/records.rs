//! Tablut game records for the examples: the `.record` files of a
//! directory (`caber match --records DIR`), and a record's positions.

use std::path::PathBuf;

use caber_engine::record::{self, GameRecord};
use caber_engine::tablut::Tablut;
use caber_engine::Played;

/// Every `.record` file of `dir`, read, sorted by path.
pub fn read_dir(dir: &str) -> Result<Vec<(PathBuf, GameRecord)>, String> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{dir}: {e}"))? {
        let path = entry.map_err(|e| format!("{dir}: {e}"))?.path();
        if path.extension().is_some_and(|e| e == "record") {
            paths.push(path);
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let shown = path.display();
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{shown}: {e}"))?;
            let record = GameRecord::parse(&text).map_err(|e| format!("{shown}: {e}"))?;
            Ok((path, record))
        })
        .collect()
}

/// The positions of `record`, a Tablut game: its start, then the position
/// after each move, as the engine replays it.
pub fn positions(record: &GameRecord) -> Result<Vec<Played<Tablut>>, String> {
    let replayed = record::replay::<Played<Tablut>>(record).map_err(|e| e.to_string())?;
    Ok(replayed.positions().cloned().collect())
}
