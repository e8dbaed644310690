extension String {
    /// Decodes a C character buffer filled by the ORT shim, up to its first NUL (or the whole buffer).
    init(nulTerminated buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self.init(decoding: bytes, as: UTF8.self)
    }
}
