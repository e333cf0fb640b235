import Foundation
import Testing
@testable import LinkHostQR

@Suite("QR code as PNG: the image mail clients show")
struct QRCodePNGTests {
    @Test("zbarimg decodes the PNG to the URL it encodes", arguments: [
        "https://links.example.com/call/abc?type=video",
        "https://l.example.net/join?call_id=Bq7-xK2f9Zt&call_type=video",
        "https://links.example.com/call/" + String(repeating: "x", count: 300),
    ])
    func decodes(url: String) async throws {
        let zbarimg = try QRTestSupport.zbarimg()
        let png = try QRCode(text: url, errorCorrection: .medium).png(moduleSize: 6)
        let file = QRTestSupport.temporaryFile("png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(png).write(to: file)
        #expect(try await QRTestSupport.decode(file, with: zbarimg) == url)
    }

    @Test("the PNG's structure: signature, IHDR of a 1-bit grayscale square, chunk CRCs, IEND")
    func structure() throws {
        let code = try QRCode(text: "https://links.example.com/call/abc", errorCorrection: .medium)
        let png = code.png(moduleSize: 3, quietZone: 4)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var offset = 8
        var types: [String] = []
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = Array(png[(offset + 4)..<(offset + 8)])
            let data = Array(png[(offset + 8)..<(offset + 8 + length)])
            let crc = png[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(PNGWriter.crc32(type + data) == crc, "CRC of \(String(decoding: type, as: UTF8.self))")
            types.append(String(decoding: type, as: UTF8.self))
            if types.last == "IHDR" {
                let side = (code.size + 8) * 3
                #expect(data == [0, 0, UInt8(side >> 8), UInt8(side & 0xFF), 0, 0, UInt8(side >> 8), UInt8(side & 0xFF), 1, 0, 0, 0, 0])
            }
            offset += 12 + length
        }
        #expect(types == ["IHDR", "IDAT", "IEND"] && offset == png.count)
    }

    @Test("CRC-32 and Adler-32 give the published check values")
    func checksums() {
        #expect(PNGWriter.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGWriter.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test("the zlib stream inflates to its input under Python's zlib, and runs and rows shrink it", arguments: [
        [UInt8](), [7], Array("abcabcabcabc".utf8), [UInt8](repeating: 0xAB, count: 70_000),
        (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }, (0..<9_000).map { UInt8($0 % 30 < 15 ? 0 : 255) },
    ])
    func inflates(data: [UInt8]) async throws {
        let stream = PNGWriter.zlib(data, rowLength: 30)
        let file = QRTestSupport.temporaryFile("zlib")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(stream).write(to: file)
        let run = try await runTool("python3", ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], 'rb').read()))", file.path])
        let (status, output) = (run.status, run.stdoutBytes)
        #expect(status == 0)
        #expect(Array(output) == data)
        if data.count == 70_000 { #expect(stream.count < 1_000, "a run compresses: \(stream.count) bytes") }
    }
}
