import LinkHostCore
import LinkHostFiles

/// The PEM text of a certificate chain and its key, read at load so a reload can compare and swap them.
package struct TLSMaterial: Sendable, Equatable {
    /// Certificate chain, PEM.
    package let certificate: [UInt8]
    /// Private key, PEM.
    package let privateKey: [UInt8]

    /// Reads both files; unreadable or non-PEM files are config errors naming the setting.
    package init(_ settings: TLSSettings) throws(ConfigError) {
        certificate = try Self.read(settings.certificateFile, path: "server.tls.certificateFile", marker: "CERTIFICATE")
        privateKey = try Self.read(settings.privateKeyFile, path: "server.tls.privateKeyFile", marker: "PRIVATE KEY")
    }

    private static func read(_ file: String, path: String, marker: String) throws(ConfigError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            // The operator's links (certbot's live/ folder) are followed once; nothing swapped in after is.
            bytes = try FileSystem.readFileWithoutLinks(file)
        } catch {
            throw ConfigError(source: file, diagnostics: [ConfigDiagnostic(.lh114, path: path, message: "\"\(file)\" \(error)")])
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("-----BEGIN "), text.contains(marker) else {
            throw ConfigError(source: file, diagnostics: [ConfigDiagnostic(.lh114, path: path, message: "\"\(file)\" is not a PEM file with a \(marker) block")])
        }
        if marker == "PRIVATE KEY", text.contains("ENCRYPTED") {
            throw ConfigError(source: file, diagnostics: [ConfigDiagnostic(.lh114, path: path, message: "\"\(file)\" is encrypted; linkhost needs the key without a passphrase")])
        }
        return bytes
    }
}
