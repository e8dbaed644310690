/// A `tf.train.Example` built in memory and serialized by hand in the protobuf wire format
/// TensorFlow writes (tensorflow/core/example/{example,feature}.proto):
///
/// - `Example { Features features = 1; }`
/// - `Features { map<string, Feature> feature = 1; }` — each map entry is a nested message
///   `{ string key = 1; Feature value = 2; }`; entries are written in ascending key order so the
///   output is deterministic (TensorFlow's deterministic serialization orders them the same way).
/// - `Feature { oneof kind { BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list = 3; } }`
/// - `FloatList { repeated float value = 1 [packed = true]; }` (little-endian 4-byte floats),
///   `Int64List { repeated int64 value = 1 [packed = true]; }` (varints; negatives take 10 bytes),
///   `BytesList { repeated bytes value = 1; }`. An empty packed list is omitted, as protobuf does.
public struct TFExample: Sendable, Equatable {
    /// One feature's value list.
    public enum Feature: Sendable, Equatable {
        /// `bytes_list`.
        case bytes([[UInt8]])
        /// `float_list`.
        case floats([Float])
        /// `int64_list`.
        case int64s([Int64])
    }

    /// Features by name.
    public var features: [String: Feature]

    /// Creates an example from named features.
    public init(features: [String: Feature]) { self.features = features }

    /// The protobuf encoding of the `Example` message.
    public func serialized() -> [UInt8] {
        var featuresMessage: [UInt8] = []
        for key in features.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            var entry: [UInt8] = []
            ProtobufWire.appendLengthDelimited(field: 1, Array(key.utf8), to: &entry)
            ProtobufWire.appendLengthDelimited(field: 2, Self.encode(features[key]!), to: &entry)
            ProtobufWire.appendLengthDelimited(field: 1, entry, to: &featuresMessage)
        }
        var example: [UInt8] = []
        ProtobufWire.appendLengthDelimited(field: 1, featuresMessage, to: &example)
        return example
    }

    /// The `Feature` message for one value list.
    private static func encode(_ feature: Feature) -> [UInt8] {
        var list: [UInt8] = []
        let kindField: Int
        switch feature {
        case let .bytes(values):
            kindField = 1
            for value in values { ProtobufWire.appendLengthDelimited(field: 1, value, to: &list) }
        case let .floats(values):
            kindField = 2
            if !values.isEmpty {
                var packed: [UInt8] = []
                packed.reserveCapacity(values.count * 4)
                for v in values {
                    let bits = v.bitPattern
                    packed.append(contentsOf: [UInt8(bits & 0xFF), UInt8((bits >> 8) & 0xFF),
                                               UInt8((bits >> 16) & 0xFF), UInt8(bits >> 24)])
                }
                ProtobufWire.appendLengthDelimited(field: 1, packed, to: &list)
            }
        case let .int64s(values):
            kindField = 3
            if !values.isEmpty {
                var packed: [UInt8] = []
                for v in values { ProtobufWire.appendVarint(UInt64(bitPattern: v), to: &packed) }
                ProtobufWire.appendLengthDelimited(field: 1, packed, to: &list)
            }
        }
        var message: [UInt8] = []
        ProtobufWire.appendLengthDelimited(field: kindField, list, to: &message)
        return message
    }
}

/// The two protobuf wire primitives an `Example` needs.
enum ProtobufWire {
    /// Base-128 varint, least significant group first.
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Tag with wire type 2, the length as a varint, then the payload.
    static func appendLengthDelimited(field: Int, _ payload: [UInt8], to out: inout [UInt8]) {
        appendVarint(UInt64(field << 3 | 2), to: &out)
        appendVarint(UInt64(payload.count), to: &out)
        out.append(contentsOf: payload)
    }
}
