/// Reed–Solomon error-correction codewords over GF(256) with QR's field polynomial x⁸+x⁴+x³+x²+1 (0x11D).
///
/// Multiplication goes through log/antilog tables, and every generator polynomial QR uses is built
/// once, so encoding a block is only table look-ups and XORs.
enum QRReedSolomon {
    /// αⁱ for i in 0..<510: doubled so that a sum of two logarithms needs no reduction mod 255.
    static let antilog: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for exponent in 0..<255 {
            table[exponent] = UInt8(value)
            table[exponent + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α(v) for v in 1...255; entry 0 is meaningless because 0 has no logarithm.
    static let log: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for exponent in 0..<255 { table[Int(antilog[exponent])] = UInt8(exponent) }
        return table
    }()

    /// Generator polynomial ∏(x − αⁱ), i < degree, per degree 0...30, as logarithms of its coefficients
    /// from x^(degree−1) down to x⁰; the leading x^degree coefficient (1) is implied.
    ///
    /// Stored as logarithms because the encoder only ever multiplies by them. None of the
    /// coefficients is zero (checked by a test), so a logarithm always exists.
    static let generatorLogs: [[UInt8]] = (0...30).map { degree in
        // Coefficients high to low, starting from the constant polynomial 1.
        var poly: [UInt8] = [1]
        for root in 0..<degree {
            var next = poly + [0]
            for index in 1..<next.count {
                next[index] ^= multiply(poly[index - 1], antilog[root])
            }
            poly = next
        }
        return poly.dropFirst().map { log[Int($0)] }
    }

    /// Product in GF(256).
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return antilog[Int(log[Int(a)]) + Int(log[Int(b)])]
    }

    /// Writes the error-correction codewords of `data[range]` into `output[outputStart ..< outputStart + degree]`.
    ///
    /// The output slice doubles as the division register, so a whole symbol's blocks can be encoded
    /// into one buffer without allocating per block.
    static func encode(
        _ data: [UInt8], range: Range<Int>, degree: Int,
        into output: inout [UInt8], at outputStart: Int
    ) {
        let generator = generatorLogs[degree]
        let antilog = self.antilog
        let log = self.log
        let end = outputStart + degree
        for index in outputStart..<end { output[index] = 0 }
        for index in range {
            let factor = data[index] ^ output[outputStart]
            // Shift the register one codeword left and add factor × generator in the same pass.
            if factor == 0 {
                for slot in outputStart..<end - 1 { output[slot] = output[slot + 1] }
                output[end - 1] = 0
            } else {
                let factorLog = Int(log[Int(factor)])
                for term in 0..<degree - 1 {
                    output[outputStart + term] =
                        output[outputStart + term + 1] ^ antilog[factorLog + Int(generator[term])]
                }
                output[end - 1] = antilog[factorLog + Int(generator[degree - 1])]
            }
        }
    }
}
