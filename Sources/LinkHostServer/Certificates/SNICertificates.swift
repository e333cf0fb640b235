import CCrypto

/// The HTTPS listener's certificates, chosen per handshake by SNI (the C table in CCrypto, which
/// libmicrohttpd's certificate callback reads).
///
/// Installing is the whole of a swap: handshakes that start afterwards get the new certificate, connections
/// already open keep theirs, and no daemon restarts, so no connection is refused or dropped.
package enum SNICertificates {
    /// Serves `chain` and `key` (PEM) for `hosts`; `isDefault` also for handshakes without SNI or with an
    /// unknown name. False when GnuTLS refuses the pair (nothing changes then).
    package static func install(hosts: [String], isDefault: Bool, chain: [UInt8], key: [UInt8]) -> Bool {
        lhcrypto_sni_install(hosts.joined(separator: "\n"), isDefault ? 1 : 0, chain, Int32(chain.count), key, Int32(key.count)) == 0
    }

    /// The callback for MHD_OPTION_HTTPS_CERT_CALLBACK.
    static var callback: UnsafeMutableRawPointer? { lhcrypto_sni_callback() }
}
