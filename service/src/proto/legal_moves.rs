//! `caber.v1.LegalMovesResponse`, written by hand instead of generated, so that
//! the server can write its moves straight into the wire format.
//!
//! Building a reply as 80 `MoveInfo` messages (240 strings) and encoding
//! them with prost took about 6 µs per `LegalMoves` call of the Tablut start;
//! a [`MoveList`] writes the same bytes with no message built, in 2 µs with
//! move generation (docs/SERVICE.md "Load"). The Rust shape is otherwise the
//! generated one's: a reply read from the wire holds its moves as messages,
//! and both forms answer [`LegalMovesResponse::moves`]. Reading takes the
//! usual Tablut and AlmaTafl entries straight from their bytes and the rest
//! through prost, in 0.56x the time of prost's generic decoder for the Tablut
//! start (`benches/legal_moves.rs`, same run).

use std::borrow::Cow;
use std::fmt;

use prost::bytes::{Buf, BufMut};
use prost::encoding::{self, encode_key, encode_varint, encoded_len_varint, WireType};
use prost::{DecodeError, Message, Name};

use super::r#move::Kind;
use super::{MoveInfo, PositionReport};

/// Every legal move of a position, in text and structured form.
#[derive(Clone, Default)]
pub struct LegalMovesResponse {
    moves: Moves,
    /// The position as the engine read it; set only when the request's
    /// `include_position` is true.
    pub position: Option<PositionReport>,
}

/// The two forms of the moves.
#[derive(Clone)]
enum Moves {
    /// As messages: read from the wire, or built by [`LegalMovesResponse::new`].
    Messages(Vec<MoveInfo>),
    /// Already encoded, by a [`MoveList`].
    Written(MoveList),
}

impl Default for Moves {
    fn default() -> Self {
        Moves::Messages(Vec::new())
    }
}

impl LegalMovesResponse {
    /// A reply holding `moves` as messages.
    pub fn new(moves: Vec<MoveInfo>, position: Option<PositionReport>) -> Self {
        Self {
            moves: Moves::Messages(moves),
            position,
        }
    }

    /// A reply holding moves written by a [`MoveList`].
    pub fn written(moves: MoveList, position: Option<PositionReport>) -> Self {
        Self {
            moves: Moves::Written(moves),
            position,
        }
    }

    /// The moves, in the generator's order (decoded here if they were written).
    pub fn moves(&self) -> Cow<'_, [MoveInfo]> {
        match &self.moves {
            Moves::Messages(moves) => Cow::Borrowed(moves),
            Moves::Written(list) => Cow::Owned(list.to_messages()),
        }
    }

    /// The moves, taken out of the reply.
    pub fn into_moves(self) -> Vec<MoveInfo> {
        match self.moves {
            Moves::Messages(moves) => moves,
            Moves::Written(list) => list.to_messages(),
        }
    }

    /// The moves as messages, converting written ones first.
    fn messages_mut(&mut self) -> &mut Vec<MoveInfo> {
        if let Moves::Written(list) = &self.moves {
            self.moves = Moves::Messages(list.to_messages());
        }
        match &mut self.moves {
            Moves::Messages(moves) => moves,
            Moves::Written(_) => unreachable!("converted above"),
        }
    }
}

/// Field numbers of `caber.v1.LegalMovesResponse`.
const MOVES: u32 = 1;
const POSITION: u32 = 2;

impl Message for LegalMovesResponse {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        match &self.moves {
            Moves::Messages(moves) => encoding::message::encode_repeated(MOVES, moves, buf),
            Moves::Written(list) => buf.put_slice(&list.bytes),
        }
        if let Some(position) = &self.position {
            encoding::message::encode(POSITION, position, buf);
        }
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: encoding::DecodeContext,
    ) -> Result<(), DecodeError> {
        match tag {
            MOVES => {
                let moves = self.messages_mut();
                if wire_type == WireType::LengthDelimited {
                    if let Some((info, used)) = read_usual_entry(buf.chunk()) {
                        moves.push(info);
                        buf.advance(used);
                        return Ok(());
                    }
                }
                encoding::message::merge_repeated(wire_type, moves, buf, ctx).map_err(|mut e| {
                    e.push(Self::NAME, "moves");
                    e
                })
            }
            POSITION => {
                let position = self.position.get_or_insert_with(Default::default);
                encoding::message::merge(wire_type, position, buf, ctx).map_err(|mut e| {
                    e.push(Self::NAME, "position");
                    e
                })
            }
            _ => encoding::skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let moves = match &self.moves {
            Moves::Messages(moves) => encoding::message::encoded_len_repeated(MOVES, moves),
            Moves::Written(list) => list.bytes.len(),
        };
        moves
            + self
                .position
                .as_ref()
                .map_or(0, |p| encoding::message::encoded_len(POSITION, p))
    }

    fn clear(&mut self) {
        *self = Self::default();
    }
}

impl Name for LegalMovesResponse {
    const NAME: &'static str = "LegalMovesResponse";
    const PACKAGE: &'static str = "caber.v1";
}

impl PartialEq for LegalMovesResponse {
    fn eq(&self, other: &Self) -> bool {
        self.moves() == other.moves() && self.position == other.position
    }
}

impl fmt::Debug for LegalMovesResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LegalMovesResponse")
            .field("moves", &self.moves())
            .field("position", &self.position)
            .finish()
    }
}

/// A move's structured form, borrowed: what `MoveInfo.move` carries.
#[derive(Clone, Copy, Debug)]
pub enum MoveForm<'a> {
    /// A `TablutMove`: the cells it goes from and to, or a pass.
    Tablut {
        /// The start cell's name (empty for a pass).
        from: &'a str,
        /// The end cell's name (empty for a pass).
        to: &'a str,
        /// Whether the move is a pass.
        pass: bool,
    },
    /// An `AlmaTaflMove`: the names of the cells of its path.
    AlmaTafl(&'a [&'a str]),
    /// Any form, as the generated message.
    Kind(&'a Kind),
}

/// Field numbers of `MoveInfo`, `Move`, `TablutMove` and `AlmaTaflMove`.
const INFO_TEXT: u32 = 1;
const INFO_MOVE: u32 = 2;
const MOVE_TABLUT: u32 = 2;
const MOVE_ALMATAFL: u32 = 3;
const TABLUT_FROM: u32 = 1;
const TABLUT_TO: u32 = 2;
const TABLUT_PASS: u32 = 3;
const ALMATAFL_CELLS: u32 = 1;

/// `LegalMovesResponse.moves` written straight into the wire format, one
/// `MoveInfo` at a time, as prost would encode the same messages.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    bytes: Vec<u8>,
}

impl MoveList {
    /// An empty list with room for about `moves` short moves.
    pub fn with_capacity(moves: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(moves * 24),
        }
    }

    /// Appends a move in both forms.
    pub fn push(&mut self, text: &str, form: MoveForm<'_>) {
        let member = member_len(form);
        let mv = match form {
            MoveForm::Kind(kind) => kind.encoded_len(),
            _ => encoding::key_len(MOVE_TABLUT) + encoded_len_varint(member as u64) + member,
        };
        let info = string_len(INFO_TEXT, text)
            + encoding::key_len(INFO_MOVE)
            + encoded_len_varint(mv as u64)
            + mv;
        let buf = &mut self.bytes;
        put_header(MOVES, info, buf);
        put_string(INFO_TEXT, text, buf);
        put_header(INFO_MOVE, mv, buf);
        match form {
            MoveForm::Tablut { from, to, pass } => {
                put_header(MOVE_TABLUT, member, buf);
                put_string(TABLUT_FROM, from, buf);
                put_string(TABLUT_TO, to, buf);
                if pass {
                    encoding::bool::encode(TABLUT_PASS, &pass, buf);
                }
            }
            MoveForm::AlmaTafl(cells) => {
                put_header(MOVE_ALMATAFL, member, buf);
                for cell in cells {
                    put_header(ALMATAFL_CELLS, cell.len(), buf);
                    buf.extend_from_slice(cell.as_bytes());
                }
            }
            MoveForm::Kind(kind) => kind.encode(buf),
        }
    }

    /// The moves as messages.
    fn to_messages(&self) -> Vec<MoveInfo> {
        let decoded = LegalMovesResponse::decode(self.bytes.as_slice())
            .expect("a MoveList holds well-formed MoveInfo entries");
        match decoded.moves {
            Moves::Messages(moves) => moves,
            Moves::Written(_) => unreachable!("decoding makes messages"),
        }
    }
}

/// The encoded length of the game's move message inside `Move` (unused for
/// [`MoveForm::Kind`], which encodes the whole oneof itself).
fn member_len(form: MoveForm<'_>) -> usize {
    match form {
        MoveForm::Tablut { from, to, pass } => {
            string_len(TABLUT_FROM, from)
                + string_len(TABLUT_TO, to)
                + if pass {
                    encoding::bool::encoded_len(TABLUT_PASS, &pass)
                } else {
                    0
                }
        }
        MoveForm::AlmaTafl(cells) => cells
            .iter()
            .map(|c| {
                encoding::key_len(ALMATAFL_CELLS) + encoded_len_varint(c.len() as u64) + c.len()
            })
            .sum(),
        MoveForm::Kind(_) => 0,
    }
}

/// A proto3 string field's encoded length (nothing when empty).
fn string_len(tag: u32, value: &str) -> usize {
    if value.is_empty() {
        0
    } else {
        encoding::key_len(tag) + encoded_len_varint(value.len() as u64) + value.len()
    }
}

/// Reads a `moves` entry (`chunk` starts at its length) of one of the usual
/// shapes a [`MoveList`] writes, with one-byte keys and lengths: the text,
/// then `move` holding a Tablut step (both cells, no pass) or an AlmaTafl
/// path, and nothing else. Those bytes decode to this one message only, so
/// prost's generic decoder is not needed for them; any other entry (`None`)
/// goes through it. Returns the bytes used.
fn read_usual_entry(chunk: &[u8]) -> Option<(MoveInfo, usize)> {
    let (entry, _) = split_len(chunk)?;
    let (text, rest) = split_string(entry, INFO_TEXT)?;
    let (r#move, rest) = split_message(rest, INFO_MOVE)?;
    if !rest.is_empty() {
        return None;
    }
    let kind = read_tablut_step(r#move).or_else(|| read_almatafl_path(r#move))?;
    let info = MoveInfo {
        text: text.to_owned(),
        r#move: Some(super::Move { kind: Some(kind) }),
    };
    Some((info, 1 + entry.len()))
}

/// `Move` bytes holding exactly a `TablutMove` with both cells and no pass.
fn read_tablut_step(bytes: &[u8]) -> Option<Kind> {
    let (tablut, rest) = split_message(bytes, MOVE_TABLUT)?;
    let (from, after_from) = split_string(tablut, TABLUT_FROM)?;
    let (to, after_to) = split_string(after_from, TABLUT_TO)?;
    (rest.is_empty() && after_to.is_empty()).then(|| {
        Kind::Tablut(super::TablutMove {
            from: from.to_owned(),
            to: to.to_owned(),
            pass: false,
        })
    })
}

/// `Move` bytes holding exactly an `AlmaTaflMove` (its cells only).
fn read_almatafl_path(bytes: &[u8]) -> Option<Kind> {
    let (mut path, rest) = split_message(bytes, MOVE_ALMATAFL)?;
    if !rest.is_empty() {
        return None;
    }
    let mut cells = Vec::new();
    while !path.is_empty() {
        let (cell, after) = split_string(path, ALMATAFL_CELLS)?;
        cells.push(cell.to_owned());
        path = after;
    }
    Some(Kind::Almatafl(super::AlmaTaflMove { cells }))
}

/// Splits a one-byte length and the bytes it covers off `bytes`.
fn split_len(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (&len, rest) = bytes.split_first()?;
    if len >= 0x80 || rest.len() < usize::from(len) {
        return None;
    }
    Some(rest.split_at(usize::from(len)))
}

/// Splits a length-delimited field `tag` with a one-byte key and length off `bytes`.
fn split_message(bytes: &[u8], tag: u32) -> Option<(&[u8], &[u8])> {
    let (&key, rest) = bytes.split_first()?;
    if u32::from(key) != tag << 3 | WireType::LengthDelimited as u32 {
        return None;
    }
    split_len(rest)
}

/// Splits a string field `tag` with a one-byte key and length off `bytes`.
fn split_string(bytes: &[u8], tag: u32) -> Option<(&str, &[u8])> {
    let (value, rest) = split_message(bytes, tag)?;
    Some((std::str::from_utf8(value).ok()?, rest))
}

/// Writes a proto3 string field (nothing when empty).
fn put_string(tag: u32, value: &str, buf: &mut Vec<u8>) {
    if !value.is_empty() {
        put_header(tag, value.len(), buf);
        buf.extend_from_slice(value.as_bytes());
    }
}

/// Writes the key and length of a length-delimited field.
fn put_header(tag: u32, len: usize, buf: &mut Vec<u8>) {
    if tag < 16 && len < 0x80 {
        // The usual case: a one-byte key and a one-byte length.
        buf.extend_from_slice(&[
            (tag << 3 | WireType::LengthDelimited as u32) as u8,
            len as u8,
        ]);
    } else {
        encode_key(tag, WireType::LengthDelimited, buf);
        encode_varint(len as u64, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::{
        schotten_totten_move, AlmaTaflMove, Move, SchottenTottenMove, SchottenTottenPlay,
        TablutMove,
    };

    /// A move in both forms.
    fn info(text: &str, kind: Kind) -> MoveInfo {
        MoveInfo {
            text: text.into(),
            r#move: Some(Move { kind: Some(kind) }),
        }
    }

    /// A Tablut move's structured form.
    fn tablut(from: &str, to: &str, pass: bool) -> Kind {
        Kind::Tablut(TablutMove {
            from: from.into(),
            to: to.into(),
            pass,
        })
    }

    /// Each form with the message prost would encode for it; edge cases:
    /// empty strings (left out by proto3), a pass, an empty path, a move with
    /// no structured content, and lengths above 127 (two-byte varints).
    fn samples() -> Vec<(String, MoveForm<'static>, MoveInfo)> {
        static LONG_PATH: [&str; 70] = ["F6"; 70];
        static PLAY: std::sync::LazyLock<Kind> = std::sync::LazyLock::new(|| {
            Kind::SchottenTotten(SchottenTottenMove {
                action: Some(schotten_totten_move::Action::Play(SchottenTottenPlay {
                    card: "r5".into(),
                    stone: 3,
                })),
                claims: vec![1, 9],
                draw: 2,
            })
        });
        static TEXT: std::sync::LazyLock<Kind> =
            std::sync::LazyLock::new(|| Kind::Text("e4-b4".into()));
        static EMPTY_TEXT: std::sync::LazyLock<Kind> =
            std::sync::LazyLock::new(|| Kind::Text(String::new()));
        let alma = |cells: &[&str]| {
            Kind::Almatafl(AlmaTaflMove {
                cells: cells.iter().map(|c| c.to_string()).collect(),
            })
        };
        let long_text = "x".repeat(200);
        vec![
            (
                "e4-b4".into(),
                MoveForm::Tablut {
                    from: "e4",
                    to: "b4",
                    pass: false,
                },
                info("e4-b4", tablut("e4", "b4", false)),
            ),
            (
                "pass".into(),
                MoveForm::Tablut {
                    from: "",
                    to: "",
                    pass: true,
                },
                info("pass", tablut("", "", true)),
            ),
            (
                String::new(),
                MoveForm::Tablut {
                    from: "",
                    to: "",
                    pass: false,
                },
                info("", tablut("", "", false)),
            ),
            (
                "F6-F8*C3".into(),
                MoveForm::AlmaTafl(&["F6", "F8", "C3"]),
                info("F6-F8*C3", alma(&["F6", "F8", "C3"])),
            ),
            (
                long_text.clone(),
                MoveForm::AlmaTafl(&LONG_PATH),
                info(&long_text, alma(&LONG_PATH)),
            ),
            ("x".into(), MoveForm::AlmaTafl(&[]), info("x", alma(&[]))),
            (
                "p:r5@3".into(),
                MoveForm::Kind(&PLAY),
                info("p:r5@3", PLAY.clone()),
            ),
            (
                "e4-b4".into(),
                MoveForm::Kind(&TEXT),
                info("e4-b4", TEXT.clone()),
            ),
            (
                "".into(),
                MoveForm::Kind(&EMPTY_TEXT),
                info("", EMPTY_TEXT.clone()),
            ),
        ]
    }

    fn written() -> (LegalMovesResponse, Vec<MoveInfo>) {
        let mut list = MoveList::default();
        let mut messages = Vec::new();
        for (text, form, message) in samples() {
            list.push(&text, form);
            messages.push(message);
        }
        let position = PositionReport {
            text: "a position".into(),
            ..Default::default()
        };
        (LegalMovesResponse::written(list, Some(position)), messages)
    }

    #[test]
    fn every_form_is_written_as_prost_encodes_its_message() {
        for (text, form, message) in samples() {
            let mut list = MoveList::default();
            list.push(&text, form);
            let mut expected = Vec::new();
            encoding::message::encode(MOVES, &message, &mut expected);
            assert_eq!(list.bytes, expected, "{form:?}");
        }
        let (reply, messages) = written();
        let built = LegalMovesResponse::new(messages.clone(), reply.position.clone());
        assert_eq!(reply.encode_to_vec(), built.encode_to_vec());
        assert_eq!(reply.encoded_len(), built.encoded_len());
        assert_eq!(reply.moves(), messages.as_slice());
    }

    #[test]
    fn a_reply_read_from_the_wire_holds_the_same_moves_and_position() {
        let (reply, messages) = written();
        let read = LegalMovesResponse::decode(reply.encode_to_vec().as_slice()).unwrap();
        assert!(matches!(read.moves, Moves::Messages(_)));
        assert_eq!(read, reply);
        assert_eq!(read.position.as_ref().unwrap().text, "a position");
        assert_eq!(read.into_moves(), messages);
        // Merging into a written reply appends to its moves.
        let mut merged = reply.clone();
        merged.merge(reply.encode_to_vec().as_slice()).unwrap();
        assert_eq!(merged.moves().len(), 2 * messages.len());
        merged.clear();
        assert_eq!(merged, LegalMovesResponse::default());
    }

    #[test]
    fn unknown_fields_are_skipped_and_bad_bytes_are_refused() {
        let (reply, _) = written();
        let mut bytes = reply.encode_to_vec();
        // Field 7, varint 300: unknown to this version.
        bytes.extend_from_slice(&[0x38, 0xac, 0x02]);
        assert_eq!(LegalMovesResponse::decode(bytes.as_slice()).unwrap(), reply);
        // A moves entry claiming more bytes than there are.
        let error = LegalMovesResponse::decode(&[0x0a, 0x05, 0x0a][..]).unwrap_err();
        assert!(
            error.to_string().contains("LegalMovesResponse.moves"),
            "{error}"
        );
    }

    /// `LegalMovesResponse` as prost derives it: what the hand-written
    /// decoding (and its direct reading of the usual entries) must agree with.
    #[derive(Clone, PartialEq, Message)]
    struct GenericReply {
        #[prost(message, repeated, tag = "1")]
        moves: Vec<MoveInfo>,
        #[prost(message, optional, tag = "2")]
        position: Option<PositionReport>,
    }

    /// The direct reading takes the two usual shapes and nothing near them:
    /// a pass or any field after the cells, a missing cell, a length that
    /// needs two bytes, an unknown field or another game's move go to prost,
    /// and every one decodes as prost's generic decoder reads it.
    #[test]
    fn only_the_usual_entries_are_read_directly() {
        let entry = |message: &MoveInfo| {
            let mut bytes = Vec::new();
            encoding::message::encode(MOVES, message, &mut bytes);
            bytes
        };
        let usual = [
            info("e4-b4", tablut("e4", "b4", false)),
            info(
                "F6-F8-F5",
                Kind::Almatafl(AlmaTaflMove {
                    cells: vec!["F6".into(), "F8".into(), "F5".into()],
                }),
            ),
        ];
        for message in &usual {
            let bytes = entry(message);
            let (read, used) = read_usual_entry(&bytes[1..]).expect("read directly");
            assert_eq!(&read, message);
            assert_eq!(used, bytes.len() - 1);
        }
        let mut unknown_after = entry(&usual[0]);
        unknown_after[1] += 2;
        unknown_after.extend_from_slice(&[0x38, 0x01]);
        let mut others = vec![
            entry(&info("e4-b4", tablut("e4", "b4", true))),
            entry(&info("e4-b4", tablut("e4", "", false))),
            entry(&info(&"x".repeat(130), tablut("e4", "b4", false))),
            entry(&info("p:r5@3", Kind::Text("p:r5@3".into()))),
            unknown_after,
        ];
        others.push(entry(&MoveInfo {
            text: "e4-b4".into(),
            r#move: None,
        }));
        for bytes in &others {
            assert!(read_usual_entry(&bytes[1..]).is_none(), "{bytes:?}");
            let ours = LegalMovesResponse::decode(bytes.as_slice()).unwrap();
            let generic = GenericReply::decode(bytes.as_slice()).unwrap();
            assert_eq!(ours.into_moves(), generic.moves);
        }
    }

    /// Replies to mutate: the samples, and the moves of start positions and
    /// of seeded positions later in games of every game.
    fn replies() -> &'static [Vec<u8>] {
        static REPLIES: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
        REPLIES.get_or_init(|| {
            let mut replies = vec![written().0.encode_to_vec()];
            for game in caber_engine::catalog::games() {
                for variant in game.variants {
                    let mut position = caber_engine::catalog::new_game(game.name, variant, 7)
                        .expect("a start position");
                    for ply in 0..12 {
                        if ply % 4 == 0 {
                            let list = crate::convert::legal_moves(&*position);
                            replies.push(LegalMovesResponse::written(list, None).encode_to_vec());
                        }
                        let Some(mv) = position.legal_moves().into_iter().nth(ply * 5) else {
                            break;
                        };
                        position = position.apply(&mv).expect("a legal move").position;
                    }
                }
            }
            replies
        })
    }

    /// An edit of a reply's bytes.
    #[derive(Clone, Debug)]
    enum Edit {
        Set(usize, u8),
        Remove(usize),
        Insert(usize, u8),
        Truncate(usize),
    }

    fn edit() -> impl proptest::strategy::Strategy<Value = Edit> {
        use proptest::prelude::*;
        prop_oneof![
            (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
            any::<usize>().prop_map(Edit::Remove),
            (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
            any::<usize>().prop_map(Edit::Truncate),
        ]
    }

    fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
        match *edit {
            Edit::Set(i, b) if !bytes.is_empty() => {
                let i = at(i, bytes.len());
                bytes[i] = b;
            }
            Edit::Remove(i) if !bytes.is_empty() => {
                bytes.remove(at(i, bytes.len()));
            }
            Edit::Insert(i, b) => bytes.insert(at(i, bytes.len() + 1), b),
            Edit::Truncate(i) => bytes.truncate(at(i, bytes.len() + 1)),
            _ => {}
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// Any bytes, near a real reply or not, decode to what prost's
        /// generic decoder gives, or are refused by both.
        #[test]
        fn reading_agrees_with_prost_on_any_bytes(
            index in proptest::prelude::any::<usize>(),
            edits in proptest::collection::vec(edit(), 0..4),
        ) {
            let mut bytes = replies()[index % replies().len()].clone();
            for edit in &edits {
                apply(&mut bytes, edit);
            }
            let ours = LegalMovesResponse::decode(bytes.as_slice());
            let generic = GenericReply::decode(bytes.as_slice());
            match (ours, generic) {
                (Ok(ours), Ok(generic)) => {
                    proptest::prop_assert_eq!(&ours.position, &generic.position);
                    proptest::prop_assert_eq!(ours.into_moves(), generic.moves);
                }
                (Err(_), Err(_)) => {}
                (ours, generic) => proptest::prop_assert!(
                    false,
                    "ours {:?}, prost {:?}",
                    ours.map(|_| ()),
                    generic.map(|_| ())
                ),
            }
        }
    }
}
