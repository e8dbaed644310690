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
        var example: [UInt8] = []
        ProtobufWire.appendLengthDelimited(field: 1, serializedFeatureEntries(), to: &example)
        return example
    }

    /// The body of the `Features` message: its map entries in ascending key order. Map entries may
    /// come in any order, so more entries appended to these bytes still make a valid `Features`.
    public func serializedFeatureEntries() -> [UInt8] {
        var featuresMessage: [UInt8] = []
        for key in features.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            var entry: [UInt8] = []
            ProtobufWire.appendLengthDelimited(field: 1, Array(key.utf8), to: &entry)
            ProtobufWire.appendLengthDelimited(field: 2, Self.encode(features[key]!), to: &entry)
            ProtobufWire.appendLengthDelimited(field: 1, entry, to: &featuresMessage)
        }
        return featuresMessage
    }

    /// Appends the `Features` map entry `name: int64_list [value]` to `out` (no other allocation:
    /// the reduce side adds each example's label this way).
    public static func appendInt64Entry(name: [UInt8], value: Int64, to out: inout [UInt8]) {
        let varintBytes = ProtobufWire.varintLength(UInt64(bitPattern: value))
        let list = 2 + varintBytes  // Int64List { packed value = 1 }
        let feature = 1 + ProtobufWire.varintLength(UInt64(list)) + list  // Feature { int64_list = 3 }
        let entry =
            1 + ProtobufWire.varintLength(UInt64(name.count)) + name.count + 1 + ProtobufWire.varintLength(UInt64(feature)) + feature
        out.append(0x0A)
        ProtobufWire.appendVarint(UInt64(entry), to: &out)
        out.append(0x0A)
        ProtobufWire.appendVarint(UInt64(name.count), to: &out)
        out.append(contentsOf: name)
        out.append(0x12)
        ProtobufWire.appendVarint(UInt64(feature), to: &out)
        out.append(0x1A)
        ProtobufWire.appendVarint(UInt64(list), to: &out)
        out.append(0x0A)
        ProtobufWire.appendVarint(UInt64(varintBytes), to: &out)
        ProtobufWire.appendVarint(UInt64(bitPattern: value), to: &out)
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
                    packed.append(contentsOf: [
                        UInt8(bits & 0xFF), UInt8((bits >> 8) & 0xFF),
                        UInt8((bits >> 16) & 0xFF), UInt8(bits >> 24),
                    ])
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

/// The protobuf wire primitives an `Example` needs.
package enum ProtobufWire {
    /// Base-128 varint, least significant group first.
    package static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Bytes of the varint of `value`.
    package static func varintLength(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    /// Tag with wire type 2, the length as a varint, then the payload.
    static func appendLengthDelimited(field: Int, _ payload: [UInt8], to out: inout [UInt8]) {
        appendVarint(UInt64(field << 3 | 2), to: &out)
        appendVarint(UInt64(payload.count), to: &out)
        out.append(contentsOf: payload)
    }
}
