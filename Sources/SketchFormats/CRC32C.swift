import CCRC32C

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum TFRecord framing uses.
///
/// SSE 4.2's CRC32 instruction where the CPU has it (about 10× the tables; buffers of 12 KiB and
/// more in three interleaved 4 KiB streams, about 3× one stream: Benchmarks/README.md), else
/// table-driven, slicing by 8 bytes. `CRC32C.checksum(Array("123456789".utf8)) == 0xE3069283`.
public enum CRC32C {
    /// Eight 256-entry tables: `tables[0]` is the classic byte table, `tables[k]` advances k more bytes.
    private static let tables: [[UInt32]] = {
        var t = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[0][i] = c
        }
        for k in 1..<8 {
            for i in 0..<256 { t[k][i] = (t[k - 1][i] >> 8) ^ t[0][Int(t[k - 1][i] & 0xFF)] }
        }
        return t
    }()

    /// CRC-32C of `bytes`, continuing from `crc` (the checksum of the preceding bytes, 0 to start).
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(crc, $0) }
    }

    /// CRC-32C of the bytes in `buffer`, continuing from `crc`.
    public static func checksum(_ buffer: UnsafeBufferPointer<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        update(crc, buffer)
    }

    /// TFRecord's masked CRC: rotate right by 15 bits and add 0xA282EAD8 (wrapping).
    public static func masked(_ crc: UInt32) -> UInt32 {
        ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8
    }

    #if arch(x86_64)
    private static let hardware = sketchprep_crc32c_hardware() != 0
    #endif

    private static func update(_ start: UInt32, _ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        #if arch(x86_64)
        if hardware, let base = buffer.baseAddress { return sketchprep_crc32c_update(start, base, buffer.count) }
        #endif
        return tables.withUnsafeBufferPointer { t in
            let t0 = t[0]
            let t1 = t[1]
            let t2 = t[2]
            let t3 = t[3]
            let t4 = t[4]
            let t5 = t[5]
            let t6 = t[6]
            let t7 = t[7]
            var crc = ~start
            var i = 0
            let n = buffer.count
            while i + 8 <= n {
                let lo =
                    crc
                    ^ (UInt32(buffer[i]) | UInt32(buffer[i + 1]) << 8
                        | UInt32(buffer[i + 2]) << 16 | UInt32(buffer[i + 3]) << 24)
                crc =
                    t7[Int(lo & 0xFF)] ^ t6[Int((lo >> 8) & 0xFF)] ^ t5[Int((lo >> 16) & 0xFF)]
                    ^ t4[Int(lo >> 24)] ^ t3[Int(buffer[i + 4])] ^ t2[Int(buffer[i + 5])]
                    ^ t1[Int(buffer[i + 6])] ^ t0[Int(buffer[i + 7])]
                i += 8
            }
            while i < n {
                crc = (crc >> 8) ^ t0[Int((crc ^ UInt32(buffer[i])) & 0xFF)]
                i += 1
            }
            return ~crc
        }
    }
}
