//! Replies as JSON: protobuf's JSON mapping of the reply message, made from
//! the API's descriptors (`caber_service::proto::FILE_DESCRIPTOR_SET`), so
//! that `caber --json`, grpcurl and the board's client read the same names
//! (lowerCamelCase fields, enums by name, 64-bit integers as strings,
//! fields at their default left out).

use std::sync::OnceLock;

use caber_service::proto;
use prost::{Message, Name};
use prost_reflect::{DescriptorPool, DynamicMessage, SerializeOptions};
use serde_json::Value;

/// The API's descriptors, read once.
fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(proto::FILE_DESCRIPTOR_SET)
            .expect("the compiled-in descriptor set is valid")
    })
}

/// `message` in protobuf's JSON mapping.
pub fn of<M: Message + Name>(message: &M) -> Value {
    let descriptor = pool()
        .get_message_by_name(&M::full_name())
        .expect("every caber.v1 message is in the descriptor set");
    let dynamic = DynamicMessage::decode(descriptor, message.encode_to_vec().as_slice())
        .expect("a message decodes with its own descriptor");
    dynamic
        .serialize_with_options(serde_json::value::Serializer, &SerializeOptions::new())
        .expect("a dynamic message serializes to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_in_protobufs_json_mapping() {
        let reply = proto::BestMoveResponse {
            #[allow(deprecated)]
            pv: Vec::new(),
            best_move: Some(proto::MoveInfo {
                text: "e4-d4".into(),
                ..Default::default()
            }),
            score: Some(proto::Score {
                value: Some(proto::score::Value::MatePlies(-3)),
                win_probability: 0.0,
            }),
            moves: vec!["e4-d4".into()],
            stats: Some(proto::SearchStats {
                nodes: 12345,
                time_ms: 7,
                ..Default::default()
            }),
        };
        assert_eq!(
            of(&reply),
            serde_json::json!({
                "bestMove": {"text": "e4-d4"},
                "score": {"matePlies": -3},
                "moves": ["e4-d4"],
                "stats": {"nodes": "12345", "timeMs": "7"},
            })
        );
    }
}
