/// Turns a payload into the final, interleaved codeword sequence of a symbol (ISO/IEC 18004 §7.4–7.6).
enum QRCodewords {
    /// The standard's two pad codewords, alternated to fill data capacity the payload leaves unused.
    private static let padBytes: (UInt8, UInt8) = (0xEC, 0x11)

    /// Data codewords for a byte-mode segment: mode, count, bytes, terminator and padding.
    ///
    /// The caller guarantees the payload fits in `version` at `level`.
    static func dataCodewords(_ bytes: [UInt8], version: Int, level: QRCode.ErrorCorrection) -> [UInt8] {
        let capacity = QRTables.dataCodewords(version: version, level: level)
        var codewords: [UInt8] = []
        codewords.reserveCapacity(capacity)

        // Header: mode 0100 then the count. Both count widths (8, 16) leave the stream 4 bits past a
        // byte boundary, so every payload byte straddles two codewords: its high nibble closes one,
        // its low nibble opens the next.
        let count = bytes.count
        var pending: UInt8  // the open codeword's high nibble, already shifted into place
        if QRTables.characterCountBits(version: version) == 8 {
            codewords.append(0x40 | UInt8(count >> 4))
            pending = UInt8(truncatingIfNeeded: count << 4)
        } else {
            codewords.append(0x40 | UInt8(count >> 12))
            codewords.append(UInt8(truncatingIfNeeded: count >> 4))
            pending = UInt8(truncatingIfNeeded: count << 4)
        }
        for byte in bytes {
            codewords.append(pending | byte >> 4)
            pending = byte << 4
        }
        // The open codeword's low nibble is the 4-bit terminator (0000). Byte-mode capacity is rounded
        // down to whole bytes, so there is always room for this codeword, even for a full symbol.
        codewords.append(pending)

        var padIndex = 0
        while codewords.count < capacity {
            codewords.append(padIndex & 1 == 0 ? padBytes.0 : padBytes.1)
            padIndex += 1
        }
        return codewords
    }

    /// Data and error-correction codewords split into blocks and interleaved as they are placed (§7.6).
    static func interleaved(_ data: [UInt8], version: Int, level: QRCode.ErrorCorrection) -> [UInt8] {
        let row = level.tableRow
        let blocks = Int(QRTables.blockCount[row][version])
        let ecLength = Int(QRTables.ecCodewordsPerBlock[row][version])
        let shortLength = data.count / blocks
        // The last `longBlocks` blocks carry one extra data codeword.
        let longBlocks = data.count % blocks
        let shortBlocks = blocks - longBlocks

        var ec = [UInt8](repeating: 0, count: blocks * ecLength)
        var blockStart = 0
        for block in 0..<blocks {
            let length = block < shortBlocks ? shortLength : shortLength + 1
            QRReedSolomon.encode(
                data, range: blockStart..<blockStart + length, degree: ecLength,
                into: &ec, at: block * ecLength)
            blockStart += length
        }

        var result: [UInt8] = []
        result.reserveCapacity(data.count + ec.count)
        for column in 0...shortLength {
            for block in 0..<blocks {
                // Short blocks have no codeword in the last column.
                if column == shortLength && block < shortBlocks { continue }
                // Blocks before `block` are short up to shortBlocks, long after.
                let start = block * shortLength + max(0, block - shortBlocks)
                result.append(data[start + column])
            }
        }
        for column in 0..<ecLength {
            for block in 0..<blocks { result.append(ec[block * ecLength + column]) }
        }
        return result
    }
}
