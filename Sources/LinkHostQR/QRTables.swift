/// The few numbers of ISO/IEC 18004 that linkhost still needs beside libqrencode: what each version
/// holds (to choose a fixed minimum version and to name the limit in errors), and where the format
/// information sits (to read back the mask libqrencode chose).
enum QRTables {
    /// The versions a symbol can have.
    static let versions = 1...40

    /// Bytes a byte-mode symbol holds (Table 7), per level (L, M, Q, H) then version 1…40.
    static let byteCapacities: [[Int]] = [
        [17, 32, 53, 78, 106, 134, 154, 192, 230, 271, 321, 367, 425, 458, 520, 586, 644, 718, 792, 858,
         929, 1003, 1091, 1171, 1273, 1367, 1465, 1528, 1628, 1732, 1840, 1952, 2068, 2188, 2303, 2431, 2563, 2699, 2809, 2953],
        [14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
         711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989, 2099, 2213, 2331],
        [11, 20, 32, 46, 60, 74, 86, 108, 130, 151, 177, 203, 241, 258, 292, 322, 364, 394, 442, 482,
         509, 565, 611, 661, 715, 751, 805, 868, 908, 982, 1030, 1112, 1168, 1228, 1283, 1351, 1423, 1499, 1579, 1663],
        [7, 14, 24, 34, 44, 58, 64, 84, 98, 119, 137, 155, 177, 194, 220, 250, 280, 310, 338, 382,
         403, 439, 461, 511, 535, 593, 625, 658, 698, 742, 790, 842, 898, 958, 983, 1051, 1093, 1139, 1219, 1273],
    ]

    /// The 15 format bits of the copy beside the top-left finder pattern, most significant first (§7.9.1):
    /// down column 8 (rows 0–5, 7, 8), then along row 8 (columns 7, 5, 4, 3, 2, 1, 0).
    static func formatBits(_ rows: [QRLine192], size: Int) -> Int {
        let cells = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8),
                     (7, 8), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
        guard size > 8 else { return 0 }
        return cells.reduce(0) { $0 << 1 | (rows[$1.1].contains($1.0) ? 1 : 0) }.bitReversed15
    }

    /// The mask pattern in format bits: bits 12–10 once the fixed XOR pattern 101010000010010 is removed.
    static func mask(fromFormatBits bits: Int) -> Int {
        ((bits ^ 0b101010000010010) >> 10) & 0b111
    }
}

private extension Int {
    /// The low 15 bits in reverse order: the cells above are listed from bit 0 (row 0) up.
    var bitReversed15: Int {
        (0..<15).reduce(0) { $0 << 1 | (self >> $1 & 1) }
    }
}
