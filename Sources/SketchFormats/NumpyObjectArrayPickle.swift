/// One numeric 2-D array inside a numpy object array, as its rows' values (row-major, `Double`
/// holds int16, int32 and float64 exactly).
package struct NumericArray: Equatable, Sendable {
    /// Number of rows.
    package var rows: Int
    /// Number of columns.
    package var columns: Int
    /// `rows × columns` values, row after row.
    package var values: [Double]
    /// Whether the file stored the values as float64 (int16 and int32 otherwise).
    package var isFloat64: Bool

    package init(rows: Int, columns: Int, values: [Double], isFloat64: Bool = false) {
        (self.rows, self.columns, self.values, self.isFloat64) = (rows, columns, values, isFloat64)
    }
}

/// The pickle subset numpy uses for a 1-D object array of numeric arrays (the payload of
/// `train.npy` & co. in a sketch-rnn `.npz`), read without executing anything and written in
/// the layout of the published sketch-rnn files.
///
/// Reading accepts protocols 2–5 as numpy 1.x and 2.x write them and nothing else: the opcodes
/// PROTO, FRAME, MARK, STOP, memo (BINPUT, LONG_BINPUT, MEMOIZE, BINGET, LONG_BINGET), integers
/// (BININT, BININT1, BININT2, LONG1), NONE, NEWTRUE, NEWFALSE, strings and bytes
/// (SHORT_BINSTRING, BINSTRING, SHORT_BINUNICODE, BINUNICODE, BINUNICODE8, SHORT_BINBYTES,
/// BINBYTES, BINBYTES8, BYTEARRAY8), tuples (EMPTY_TUPLE, TUPLE, TUPLE1–3), lists (EMPTY_LIST,
/// APPEND, APPENDS), GLOBAL / STACK_GLOBAL, REDUCE and BUILD; and only the globals
/// `numpy.core.multiarray._reconstruct` / `numpy._core.multiarray._reconstruct`, `numpy.ndarray`,
/// `numpy.dtype`, `_codecs.encode` (Python 3 protocol 2 bytes) and
/// `numpy.core.numeric._frombuffer` / `numpy._core.numeric._frombuffer` (protocol 5). Element
/// dtypes: little-endian int16, int32, float64. Anything else is a `FormatError`.
///
/// Bounded whatever the bytes say (docs/limits.md): tuples nest at most ``maximumNestingDepth``
/// deep (numpy's need 2), a list holds only arrays, an array is built once and an object array
/// holds only numeric arrays already built (so no value can contain itself and releasing a value
/// recurses at most that deep), and one pickle decodes to at most ``maximumValueCount`` numbers
/// (memo references cannot multiply one array's bytes into unbounded memory).
package enum NumpyObjectArrayPickle {
    /// Deepest nesting of tuples (each level one more tuple inside a tuple).
    package static let maximumNestingDepth = 32
    /// Most numbers one pickle decodes to, over all its arrays: 2²⁴ (128 MiB as `Double`; the
    /// published sketch-rnn files' largest split holds 3.3 million).
    package static let maximumValueCount = 1 << 24

    /// Globals a pickle may name.
    private enum Global { case reconstruct, ndarray, dtype, codecsEncode, frombuffer }

    private static let allowedGlobals: [String: Global] = [
        "numpy.core.multiarray._reconstruct": .reconstruct, "numpy._core.multiarray._reconstruct": .reconstruct,
        "numpy.ndarray": .ndarray, "numpy.dtype": .dtype, "_codecs.encode": .codecsEncode,
        "numpy.core.numeric._frombuffer": .frombuffer, "numpy._core.numeric._frombuffer": .frombuffer,
    ]

    private final class DType {
        var name: String
        var byteOrder = "|"
        init(name: String) { self.name = name }
    }

    private final class ArrayObject {
        var shape: [Int] = []
        var dtype: DType?
        var numbers: [Double] = []
        var objects: [Value] = []
    }

    private final class ListObject { var items: [Value] = [] }

    private enum Value {
        case none
        case bool(Bool)
        case int(Int)
        case bytes([UInt8])
        case text(String)
        case tuple([Value], depth: Int)
        case list(ListObject)
        case global(Global)
        case dtype(DType)
        case array(ArrayObject)
        case mark
    }

    /// The numeric arrays of the pickled 1-D object array `pickle`.
    package static func decode(_ pickle: [UInt8]) throws(FormatError) -> [NumericArray] {
        var stack: [Value] = []
        var memo: [Int: Value] = [:]
        var position = 0
        var valueBudget = maximumValueCount
        func fail(_ reason: String) -> FormatError { FormatError(.pickle, "pickle byte \(position): \(reason)") }
        func take(_ count: Int) throws(FormatError) -> ArraySlice<UInt8> {
            guard count >= 0, position + count <= pickle.count else { throw fail("pickle ends inside an opcode argument") }
            defer { position += count }
            return pickle[position..<(position + count)]
        }
        func unsigned(_ count: Int) throws(FormatError) -> Int {
            var value = 0
            for (shift, byte) in try take(count).enumerated() { value |= Int(byte) << (8 * shift) }
            return value
        }
        func pop() throws(FormatError) -> Value {
            guard let value = stack.popLast() else { throw fail("stack underflow") }
            if case .mark = value { throw fail("unexpected MARK") }
            return value
        }
        func popToMark() throws(FormatError) -> [Value] {
            guard let markIndex = stack.lastIndex(where: { if case .mark = $0 { return true } else { return false } }) else {
                throw fail("no MARK on the stack")
            }
            let items = Array(stack[(markIndex + 1)...])
            stack.removeSubrange(markIndex...)
            return items
        }
        func lengthChecked(_ length: Int) throws(FormatError) -> Int {
            guard length <= pickle.count - position else { throw fail("length \(length) runs past the end of the pickle") }
            return length
        }
        func textValue(_ bytes: ArraySlice<UInt8>) throws(FormatError) -> Value {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw fail("string is not valid UTF-8") }
            return .text(text)
        }
        func tuple(_ items: [Value]) throws(FormatError) -> Value {
            var depth = 1
            for case .tuple(_, let inner) in items { depth = max(depth, inner + 1) }
            guard depth <= maximumNestingDepth else {
                throw fail("tuples nest deeper than \(maximumNestingDepth) (NumpyObjectArrayPickle.maximumNestingDepth, docs/limits.md)")
            }
            return .tuple(items, depth: depth)
        }
        func global(_ module: String, _ name: String) throws(FormatError) -> Value {
            guard let known = allowedGlobals["\(module).\(name)"] else {
                throw fail("global \(module).\(name) is not allowed (only numpy array reconstruction is read)")
            }
            return .global(known)
        }
        while true {
            guard position < pickle.count else { throw fail("pickle ends without STOP") }
            let opcode = pickle[position]
            position += 1
            switch opcode {
            case 0x80:  // PROTO
                let version = try unsigned(1)
                guard (2...5).contains(version) else { throw fail("pickle protocol \(version) (2–5 are read)") }
            case 0x95: _ = try take(8)  // FRAME
            case 0x28: stack.append(.mark)  // MARK
            case 0x2E:  // STOP
                guard stack.count == 1, case .array(let array) = stack[0] else { throw fail("the pickle is not one numpy array") }
                return try numericArrays(of: array)
            case 0x71: memo[try unsigned(1)] = stack.last  // BINPUT
            case 0x72: memo[try unsigned(4)] = stack.last  // LONG_BINPUT
            case 0x94: memo[memo.count] = stack.last  // MEMOIZE
            case 0x68, 0x6A:  // BINGET, LONG_BINGET
                let key = try unsigned(opcode == 0x68 ? 1 : 4)
                guard let value = memo[key] else { throw fail("memo \(key) is empty") }
                stack.append(value)
            case 0x4B: stack.append(.int(try unsigned(1)))  // BININT1
            case 0x4D: stack.append(.int(try unsigned(2)))  // BININT2
            case 0x4A: stack.append(.int(Int(Int32(truncatingIfNeeded: try unsigned(4)))))  // BININT
            case 0x8A:  // LONG1
                let count = try unsigned(1)
                guard count <= 8 else { throw fail("integer wider than 64 bits") }
                let bytes = try take(count)
                var value: Int64 = 0
                for (shift, byte) in bytes.enumerated() { value |= Int64(byte) << (8 * Int64(shift)) }
                if count > 0 && count < 8 && bytes.last! >= 0x80 { value -= Int64(1) << (8 * Int64(count)) }
                stack.append(.int(Int(value)))
            case 0x4E: stack.append(.none)
            case 0x88: stack.append(.bool(true))
            case 0x89: stack.append(.bool(false))
            case 0x55: stack.append(.bytes(Array(try take(try unsigned(1)))))  // SHORT_BINSTRING
            case 0x54: stack.append(.bytes(Array(try take(try lengthChecked(try unsigned(4))))))  // BINSTRING
            case 0x43: stack.append(.bytes(Array(try take(try unsigned(1)))))  // SHORT_BINBYTES
            case 0x42: stack.append(.bytes(Array(try take(try lengthChecked(try unsigned(4))))))  // BINBYTES
            case 0x8E, 0x96: stack.append(.bytes(Array(try take(try lengthChecked(try unsigned(8))))))  // BINBYTES8, BYTEARRAY8
            case 0x8C: stack.append(try textValue(try take(try unsigned(1))))  // SHORT_BINUNICODE
            case 0x58: stack.append(try textValue(try take(try lengthChecked(try unsigned(4)))))  // BINUNICODE
            case 0x8D: stack.append(try textValue(try take(try lengthChecked(try unsigned(8)))))  // BINUNICODE8
            case 0x29: stack.append(try tuple([]))
            case 0x85: stack.append(try tuple([try pop()]))
            case 0x86:
                let b = try pop()
                let a = try pop()
                stack.append(try tuple([a, b]))
            case 0x87:
                let c = try pop()
                let b = try pop()
                let a = try pop()
                stack.append(try tuple([a, b, c]))
            case 0x74: stack.append(try tuple(try popToMark()))  // TUPLE
            case 0x5D: stack.append(.list(ListObject()))  // EMPTY_LIST
            case 0x61, 0x65:  // APPEND, APPENDS
                let items = opcode == 0x61 ? [try pop()] : try popToMark()
                guard case .list(let list) = stack.last else { throw fail("APPEND target is not a list") }
                for item in items {
                    guard case .array = item else { throw fail("a list item is not a numpy array (only arrays are read in lists)") }
                }
                list.items += items
            case 0x63:  // GLOBAL
                var lines: [String] = []
                for _ in 0..<2 {
                    let start = position
                    while position < pickle.count && pickle[position] != 0x0A { position += 1 }
                    guard position < pickle.count else { throw fail("GLOBAL name runs past the end") }
                    lines.append(String(decoding: pickle[start..<position], as: UTF8.self))
                    position += 1
                }
                stack.append(try global(lines[0], lines[1]))
            case 0x93:  // STACK_GLOBAL
                guard case .text(let name) = try pop(), case .text(let module) = try pop() else {
                    throw fail("STACK_GLOBAL needs two strings")
                }
                stack.append(try global(module, name))
            case 0x52:  // REDUCE
                guard case .tuple(let arguments, _) = try pop(), case .global(let function) = try pop() else {
                    throw fail("REDUCE needs an allowed global and an argument tuple")
                }
                stack.append(try reduce(function, arguments, &valueBudget, fail))
            case 0x62:  // BUILD
                let state = try pop()
                guard case .tuple(let fields, _) = state else { throw fail("BUILD state is not a tuple") }
                switch stack.last {
                case .dtype(let dtype)?:
                    guard fields.count == 8, case .int(3) = fields[0], let order = string(fields[1]) else {
                        throw fail("unexpected dtype state")
                    }
                    guard order == "<" || order == "|" || order == "=" else {
                        throw fail("byte order \(order) (only little-endian is read)")
                    }
                    dtype.byteOrder = order
                case .array(let array)?:
                    try setState(array, fields, &valueBudget, fail)
                default: throw fail("BUILD target is not a numpy array or dtype")
                }
            default:
                throw fail("opcode 0x\(String(opcode, radix: 16)) is outside the numpy array subset")
            }
        }
    }

    private static func string(_ value: Value) -> String? {
        switch value {
        case .text(let text): return text
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }

    private static func reduce(
        _ function: Global, _ arguments: [Value], _ valueBudget: inout Int,
        _ fail: (String) -> FormatError
    ) throws(FormatError) -> Value {
        switch function {
        case .reconstruct:
            guard arguments.count == 3, case .global(.ndarray) = arguments[0] else { throw fail("unexpected _reconstruct arguments") }
            return .array(ArrayObject())
        case .dtype:
            guard arguments.count == 3, let name = string(arguments[0]) else { throw fail("unexpected dtype arguments") }
            guard ["O8", "i2", "i4", "f8"].contains(name) else {
                throw fail("element dtype \(name) (int16, int32, float64 and object are read)")
            }
            return .dtype(DType(name: name))
        case .codecsEncode:
            guard arguments.count == 2, case .text(let text) = arguments[0], string(arguments[1]) == "latin1" else {
                throw fail("unexpected _codecs.encode arguments")
            }
            var bytes: [UInt8] = []
            for scalar in text.unicodeScalars {
                guard scalar.value < 256 else { throw fail("latin1 text holds a character above U+00FF") }
                bytes.append(UInt8(scalar.value))
            }
            return .bytes(bytes)
        case .frombuffer:
            guard arguments.count == 4, case .bytes(let data) = arguments[0], case .dtype(let dtype) = arguments[1],
                case .tuple(let shapeValues, let depth) = arguments[2], let order = string(arguments[3])
            else {
                throw fail("unexpected _frombuffer arguments")
            }
            let array = ArrayObject()
            try setState(
                array, [.int(1), .tuple(shapeValues, depth: depth), .dtype(dtype), .bool(order == "F"), .bytes(data)],
                &valueBudget, fail)
            return .array(array)
        case .ndarray:
            throw fail("ndarray called directly")
        }
    }

    private static func setState(
        _ array: ArrayObject, _ fields: [Value], _ valueBudget: inout Int,
        _ fail: (String) -> FormatError
    ) throws(FormatError) {
        guard fields.count == 5, case .int(1) = fields[0], case .tuple(let shapeValues, _) = fields[1],
            case .dtype(let dtype) = fields[2], case .bool(let isFortran) = fields[3]
        else {
            throw fail("unexpected ndarray state")
        }
        guard array.dtype == nil else { throw fail("an ndarray's state is set twice") }
        var shape: [Int] = []
        for value in shapeValues {
            guard case .int(let extent) = value, extent >= 0 else { throw fail("unexpected ndarray shape") }
            shape.append(extent)
        }
        array.shape = shape
        array.dtype = dtype
        let count = shape.reduce(1) { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }
        if dtype.name == "O8" {
            guard case .list(let list) = fields[4], list.items.count == count else {
                throw fail("object array data does not match its shape")
            }
            for item in list.items {
                guard case .array(let element) = item, let elementType = element.dtype, elementType.name != "O8" else {
                    throw fail("an object array item is not a numeric array whose state is set")
                }
            }
            array.objects = list.items
            return
        }
        guard case .bytes(let data) = fields[4] else { throw fail("numeric array data is not bytes") }
        let size = dtype.name == "i2" ? 2 : dtype.name == "i4" ? 4 : 8
        guard count < Int.max / 8, data.count == count * size else {
            throw fail(
                "array data holds \(data.count) bytes, shape \(shape) of \(dtype.name) needs \(count < Int.max / 8 ? count * size : -1)")
        }
        guard count <= valueBudget else {
            throw fail("the arrays hold more than \(maximumValueCount) numbers (NumpyObjectArrayPickle.maximumValueCount, docs/limits.md)")
        }
        valueBudget -= count
        var values = [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            data.withUnsafeBytes { raw in
                switch size {
                case 2:
                    for index in 0..<count {
                        buffer[index] = Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * index, as: Int16.self)))
                    }
                case 4:
                    for index in 0..<count {
                        buffer[index] = Double(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * index, as: Int32.self)))
                    }
                default:
                    for index in 0..<count {
                        buffer[index] = Double(
                            bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self)))
                    }
                }
            }
            initialized = count
        }
        if isFortran && shape.count == 2 {
            var rowMajor = values
            for row in 0..<shape[0] { for column in 0..<shape[1] { rowMajor[row * shape[1] + column] = values[column * shape[0] + row] } }
            values = rowMajor
        }
        array.numbers = values
    }

    private static func numericArrays(of array: ArrayObject) throws(FormatError) -> [NumericArray] {
        guard array.dtype?.name == "O8", array.shape.count == 1 else {
            throw FormatError(.pickle, "the pickled array is not a 1-D object array")
        }
        var result: [NumericArray] = []
        result.reserveCapacity(array.objects.count)
        for (index, value) in array.objects.enumerated() {
            guard case .array(let element) = value, element.dtype?.name != "O8", element.shape.count == 2 else {
                throw FormatError(.pickle, "element \(index) is not a 2-D numeric array")
            }
            result.append(
                NumericArray(
                    rows: element.shape[0], columns: element.shape[1], values: element.numbers,
                    isFloat64: element.dtype?.name == "f8"))
        }
        return result
    }
}
