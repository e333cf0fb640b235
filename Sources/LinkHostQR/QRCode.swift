/// A QR Code symbol (ISO/IEC 18004, byte mode) of a payload, ready to be drawn module by module.
///
/// Built for call links shown on desktop pages: one byte-mode segment (UTF-8 text needs nothing
/// else, and phone scanners read it as UTF-8), the smallest version that fits, and the mask with
/// the lowest penalty score.
public struct QRCode: Sendable, Hashable {
    /// How much of a symbol can be damaged and still decode; more protection means a larger symbol.
    public enum ErrorCorrection: Sendable, Hashable, CaseIterable {
        /// About 7 % of codewords recoverable.
        case low
        /// About 15 % of codewords recoverable; the usual choice for screens.
        case medium
        /// About 25 % of codewords recoverable.
        case quartile
        /// About 30 % of codewords recoverable.
        case high
    }

    /// Why a payload could not be encoded.
    public enum EncodingError: Error, Sendable, Hashable {
        /// The payload is longer than the largest allowed symbol holds at the requested level.
        case dataTooLong(byteCount: Int, capacity: Int)
        /// A minimum version outside 1...40 was requested.
        case invalidVersion(Int)
    }

    /// Symbol version, 1...40; the symbol is 17 + 4 × version modules wide.
    public let version: Int
    /// Error-correction level the symbol was built with.
    public let errorCorrection: ErrorCorrection
    /// Mask pattern, 0...7, that was applied to the data modules.
    public let mask: Int
    /// Width and height in modules, without the quiet zone.
    public let size: Int
    /// Dark modules, one bit set per dark module: row y, bit x.
    let rows: [QRLine192]

    /// Encodes `bytes` in the smallest version, at least `minimumVersion`, that holds them at `errorCorrection`.
    ///
    /// A fixed `minimumVersion` keeps symbols of similar payloads the same size on a page.
    public init(
        bytes: [UInt8], errorCorrection: ErrorCorrection = .medium, minimumVersion: Int = 1
    ) throws(EncodingError) {
        try self.init(bytes: bytes, errorCorrection: errorCorrection, minimumVersion: minimumVersion, forcedMask: nil)
    }

    /// Encodes the UTF-8 bytes of `text`; see `init(bytes:errorCorrection:minimumVersion:)`.
    public init(
        text: String, errorCorrection: ErrorCorrection = .medium, minimumVersion: Int = 1
    ) throws(EncodingError) {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection, minimumVersion: minimumVersion)
    }

    /// The full encoder; `forcedMask` lets tests pin the mask instead of scoring all eight.
    init(
        bytes: [UInt8], errorCorrection: ErrorCorrection, minimumVersion: Int, forcedMask: Int?
    ) throws(EncodingError) {
        guard QRTables.versions.contains(minimumVersion) else { throw .invalidVersion(minimumVersion) }
        let capacities = QRTables.byteCapacities[errorCorrection.tableRow]
        guard let version = (minimumVersion...40).first(where: { capacities[$0] >= bytes.count }) else {
            throw .dataTooLong(byteCount: bytes.count, capacity: capacities[40])
        }
        let data = QRCodewords.dataCodewords(bytes, version: version, level: errorCorrection)
        let codewords = QRCodewords.interleaved(data, version: version, level: errorCorrection)
        let (mask, rows): (Int, [QRLine192])
        if QRTables.size(version: version) <= QRLine64.capacity {
            (mask, rows) = Self.layOut(codewords, version: version, level: errorCorrection, forcedMask: forcedMask,
                                       as: QRLine64.self)
        } else {
            (mask, rows) = Self.layOut(codewords, version: version, level: errorCorrection, forcedMask: forcedMask,
                                       as: QRLine192.self)
        }
        self.version = version
        self.errorCorrection = errorCorrection
        self.mask = mask
        self.size = QRTables.size(version: version)
        self.rows = rows
    }

    /// Places `codewords` and masks them, with lines of `Line`: one word for small symbols is several
    /// times faster to score than three.
    static func layOut<Line: QRBitLine>(
        _ codewords: [UInt8], version: Int, level: ErrorCorrection, forcedMask: Int?, as _: Line.Type
    ) -> (mask: Int, rows: [QRLine192]) {
        var matrix = Line.template(version: version)
        matrix.placeCodewords(codewords)
        let (mask, rows) = QRMask.masked(matrix, level: level, forcedMask: forcedMask)
        return (mask, rows.map(\.wide))
    }

    /// Most bytes a symbol of `version` (1...40) holds at `errorCorrection`; 0 for other versions.
    public static func byteCapacity(version: Int, errorCorrection: ErrorCorrection) -> Int {
        guard QRTables.versions.contains(version) else { return 0 }
        return QRTables.byteCapacities[errorCorrection.tableRow][version]
    }

    /// Whether the module at column `x`, row `y` is dark; anything outside the symbol is light quiet zone.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, x < size, y >= 0, y < size else { return false }
        return rows[y].contains(x)
    }
}
