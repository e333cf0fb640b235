import Foundation
import Testing
@testable import LinkHostQR

/// Round trips through a real decoder (zbarimg): the only proof that the symbols scan.
@Suite("QRCode decoding with zbarimg")
struct QRCodeDecodeTests {
    static let samples: [String] = [
        "hi",
        // ~60 bytes: a typical call link.
        "https://links.example.com/call/abc_DEF-123xyz?type=default&x=1",
        // ~200 bytes with a query string.
        "https://links.example.com/call/Zx9_kQ2-mB7vT4wR8yN1pL6sD3fG5hJ0aC?type=video&expires=1767225600"
            + "&sig=MEUCIQDx7c1s9aVbq2lG0n3Y-4uKf8WzT_5eHjR6oPdN1mLkAiB2&from=desktop&lang=de-CH&ref=share%20sheet",
        // UTF-8 beyond ASCII, including a 4-byte scalar.
        "Anruf von Zoë in Zürich: 通話に参加 📞 — Grüße!",
    ]

    @Test("decodes what was encoded, for every sample and level",
          arguments: samples, QRCode.ErrorCorrection.allCases)
    func roundTrip(text: String, level: QRCode.ErrorCorrection) async throws {
        let zbarimg = try QRTestSupport.zbarimg()
        let code = try QRCode(text: text, errorCorrection: level)
        #expect(try await QRTestSupport.decode(code, with: zbarimg) == text, "version \(code.version) mask \(code.mask)")
    }

    /// Full symbols exercise every data and error-correction block, so a wrong entry in the block
    /// tables or in interleaving shows up as a failed decode.
    @Test("decodes a symbol filled to capacity at every version and level",
          arguments: Array(1...40))
    func fullSymbols(version: Int) async throws {
        let zbarimg = try QRTestSupport.zbarimg()
        for level in QRCode.ErrorCorrection.allCases {
            let capacity = QRCode.byteCapacity(version: version, errorCorrection: level)
            let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_/?=&.".utf8)
            let bytes = (0..<capacity).map { alphabet[($0 * 7 + version) % alphabet.count] }
            let code = try QRCode(bytes: bytes, errorCorrection: level)
            #expect(code.version == version)
            let decoded = try await QRTestSupport.decode(code, with: zbarimg)
            #expect(decoded == String(decoding: bytes, as: UTF8.self), "version \(version) level \(level)")
        }
    }

    @Test("decodes the SVG once rasterised by librsvg")
    func svgRasterised() async throws {
        let zbarimg = try QRTestSupport.zbarimg(), rsvgConvert = try QRTestSupport.rsvgConvert()
        for text in Self.samples {
            let code = try QRCode(text: text)
            let svgFile = QRTestSupport.temporaryFile("svg"), pngFile = QRTestSupport.temporaryFile("png")
            defer {
                try? FileManager.default.removeItem(at: svgFile)
                try? FileManager.default.removeItem(at: pngFile)
            }
            try Data(code.svg(title: "Call link <\(text)>", moduleSize: 4).utf8).write(to: svgFile)
            let status = try await runTool(rsvgConvert, [svgFile.path, "-o", pngFile.path]).status
            #expect(status == 0)
            #expect(try await QRTestSupport.decode(pngFile, with: zbarimg) == text)
        }
    }
}
