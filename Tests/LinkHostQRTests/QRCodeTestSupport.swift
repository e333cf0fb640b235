import Foundation
@testable import LinkHostQR

/// Test-side helpers: a plain-image writer for QR symbols and runners for the external decoder and rasteriser.
enum QRTestSupport {
    /// Absolute path of `name` on PATH, if it is installed.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// zbarimg from Debian's zbar-tools: the independent decoder the symbols are checked against.
    static let zbarimg = executable("zbarimg")

    /// rsvg-convert from librsvg2-bin, to rasterise the SVG output; optional.
    static let rsvgConvert = executable("rsvg-convert")

    /// What to tell a developer whose machine lacks the decoder.
    static let missingDecoder = "zbarimg not found on PATH; install it with `apt-get install zbar-tools`"

    /// The symbol as a binary PBM (P4): `scale` pixels per module, `quietZone` light modules around it.
    static func pbm(_ code: QRCode, scale: Int = 4, quietZone: Int = 4) -> Data {
        let width = (code.size + 2 * quietZone) * scale
        var bytes = Array("P4\n\(width) \(width)\n".utf8)
        let rowBytes = (width + 7) / 8
        for pixelY in 0..<width {
            var row = [UInt8](repeating: 0, count: rowBytes)
            for pixelX in 0..<width
            where code.isDark(x: pixelX / scale - quietZone, y: pixelY / scale - quietZone) {
                row[pixelX / 8] |= 0x80 >> UInt8(pixelX % 8)  // PBM: 1 is black, most significant bit first
            }
            bytes += row
        }
        return Data(bytes)
    }

    /// A fresh path in the temporary directory with the given extension.
    static func temporaryFile(_ pathExtension: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("linkhost-qr-\(UUID().uuidString).\(pathExtension)")
    }

    /// Runs `executable` with `arguments`; returns its exit status and standard output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice  // zbarimg chatters about D-Bus in containers
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// What zbarimg reads from the image file at `url`, or nil if it finds no symbol.
    static func decode(_ url: URL, with zbarimg: String) throws -> String? {
        // QR only: large symbols can contain stripes that zbar's 1-D decoders misread as a barcode.
        let (status, output) = try run(zbarimg, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", url.path])
        guard status == 0 else { return nil }
        var text = String(decoding: output, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }  // zbarimg ends each symbol with a newline
        return text
    }

    /// What zbarimg reads from `code` drawn as a PBM.
    static func decode(_ code: QRCode, with zbarimg: String) throws -> String? {
        let file = temporaryFile("pbm")
        defer { try? FileManager.default.removeItem(at: file) }
        try pbm(code).write(to: file)
        return try decode(file, with: zbarimg)
    }
}
