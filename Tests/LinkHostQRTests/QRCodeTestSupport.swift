import Foundation
@testable import LinkHostQR

/// Test-side helpers: a plain-image writer for QR symbols and the external decoder and rasteriser, run through
/// the integration tests' process runner (ChildProcess.swift, linked here); a missing tool fails the test (`requireTool`).
enum QRTestSupport {
    /// zbarimg from Debian's zbar-tools: the independent decoder the symbols are checked against.
    static func zbarimg() throws -> String { try requireTool("zbarimg") }

    /// rsvg-convert from librsvg2-bin, to rasterise the SVG output.
    static func rsvgConvert() throws -> String { try requireTool("rsvg-convert") }

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

    /// What zbarimg reads from the image file at `url`, or nil if it finds no symbol.
    static func decode(_ url: URL, with zbarimg: String) async throws -> String? {
        // QR only: large symbols can contain stripes that zbar's 1-D decoders misread as a barcode.
        // zbarimg chatters about D-Bus in containers: its stderr is not looked at.
        let run = try await runTool(zbarimg, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", url.path])
        guard run.status == 0 else { return nil }
        var text = run.stdout
        if text.hasSuffix("\n") { text.removeLast() }  // zbarimg ends each symbol with a newline
        return text
    }

    /// What zbarimg reads from `code` drawn as a PBM.
    static func decode(_ code: QRCode, with zbarimg: String) async throws -> String? {
        let file = temporaryFile("pbm")
        defer { try? FileManager.default.removeItem(at: file) }
        try pbm(code).write(to: file)
        return try await decode(file, with: zbarimg)
    }
}
