//! Tablut game records for the examples: the `.record` files of a
//! directory (`caber match --records DIR`), and a record's positions.

use std::path::PathBuf;

use caber_engine::record::GameRecord;
use caber_engine::tablut::{Tablut, Variant};
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

/// The positions of `record`, a game of `variant`: its start (the Start
/// tag, or the variant's start), then the position after each move.
pub fn positions(record: &GameRecord, variant: Variant) -> Result<Vec<Played<Tablut>>, String> {
    let mut p = match record.tag("Start") {
        Some(text) => Played::from_notation(variant, text).map_err(|e| e.to_string())?,
        None => Played::start(variant, 0),
    };
    let mut out = vec![p.clone()];
    for recorded in &record.moves {
        let mv = p.parse_move(&recorded.text).map_err(|e| e.to_string())?;
        let mv = p.check(&mv).map_err(|e| e.to_string())?;
        p = p.play_unchecked(&mv);
        out.push(p.clone());
    }
    Ok(out)
}
