internal import CQREncode

/// A QR Code symbol (ISO/IEC 18004, byte mode) of a payload, ready to be drawn module by module.
///
/// Built for call links shown on desktop pages: one byte-mode segment (UTF-8 text needs nothing
/// else, and phone scanners read it as UTF-8), the smallest version that fits, and the mask with
/// the lowest penalty score. libqrencode (Debian's libqrencode4) encodes it, through the CQREncode
/// shim; this type keeps the modules as bit rows for the SVG renderer.
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

        /// libqrencode's QRecLevel, which numbers the levels in this order (L, M, Q, H).
        var libraryLevel: Int32 { Int32(Self.allCases.firstIndex(of: self)!) }
    }

    /// Why a payload could not be encoded.
    public enum EncodingError: Error, Sendable, Hashable {
        /// The payload is longer than the largest allowed symbol holds at the requested level.
        case dataTooLong(byteCount: Int, capacity: Int)
        /// A minimum version outside 1...40 was requested.
        case invalidVersion(Int)
        /// No bytes to encode: libqrencode makes no symbol of an empty payload.
        case emptyPayload
    }

    /// Symbol version, 1...40; the symbol is 17 + 4 × version modules wide.
    public let version: Int
    /// Error-correction level the symbol was built with.
    public let errorCorrection: ErrorCorrection
    /// Mask pattern, 0...7, that was applied to the data modules (read back from the symbol's format information).
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
        guard QRTables.versions.contains(minimumVersion) else { throw .invalidVersion(minimumVersion) }
        guard !bytes.isEmpty else { throw .emptyPayload }
        let capacity = Self.byteCapacity(version: 40, errorCorrection: errorCorrection)
        // Checked here, not left to libqrencode's errno: the error names the capacity.
        guard bytes.count <= capacity else { throw .dataTooLong(byteCount: bytes.count, capacity: capacity) }
        var words = [UInt64](repeating: 0, count: Int(CQR_ROW_WORDS) * Int(CQR_MAX_WIDTH))
        var version: Int32 = 0
        let width = words.withUnsafeMutableBufferPointer { rows in
            bytes.withUnsafeBufferPointer { payload in
                cqr_encode(payload.baseAddress, payload.count, errorCorrection.libraryLevel, Int32(minimumVersion), rows.baseAddress, &version)
            }
        }
        // Only allocation failure is left once the length fits; there is no symbol to give.
        guard width > 0 else { throw .dataTooLong(byteCount: bytes.count, capacity: capacity) }
        let size = Int(width)
        self.rows = (0..<size).map { QRLine192(w0: words[3 * $0], w1: words[3 * $0 + 1], w2: words[3 * $0 + 2]) }
        self.size = size
        self.version = Int(version)
        self.errorCorrection = errorCorrection
        self.mask = QRTables.mask(fromFormatBits: QRTables.formatBits(rows, size: size))
    }

    /// Encodes the UTF-8 bytes of `text`; see `init(bytes:errorCorrection:minimumVersion:)`.
    public init(
        text: String, errorCorrection: ErrorCorrection = .medium, minimumVersion: Int = 1
    ) throws(EncodingError) {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection, minimumVersion: minimumVersion)
    }

    /// Most bytes a symbol of `version` (1...40) holds at `errorCorrection`; 0 for other versions.
    public static func byteCapacity(version: Int, errorCorrection: ErrorCorrection) -> Int {
        guard QRTables.versions.contains(version) else { return 0 }
        return QRTables.byteCapacities[Int(errorCorrection.libraryLevel)][version - 1]
    }

    /// Whether the module at column `x`, row `y` is dark; anything outside the symbol is light quiet zone.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, x < size, y >= 0, y < size else { return false }
        return rows[y].contains(x)
    }
}
