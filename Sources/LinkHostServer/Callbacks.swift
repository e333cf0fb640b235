import CMicroHTTPD

/// libmicrohttpd's access handler. The first call only marks the request: queueing a response
/// there makes MHD close the connection instead of keeping it alive for the next request.
let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, version, _, uploadSize, requestContext in
    guard let context, let connection, let url, let method, let requestContext else { return .NO }
    let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
    if requestContext.pointee == nil {
        // The head is whole. Should the request deadline have fired already, the connection is on its way
        // out (its socket is shut down) and nothing should be answered on it.
        if cmhd_deadline_passed(connection) != 0 { return .NO }
        // Refused before any body is read; answering on the first call makes MHD close the connection,
        // so nothing after this request can be read as another one.
        if cmhd_request_is_ambiguous(connection, version) != 0 {
            return daemon.server.refuseAmbiguous(connection, url: url, method: method)
        }
        let body = cmhd_request_body(connection)
        // A body too large (or of unknown size) to read under the request deadline is refused before a byte
        // of it is read; without one, the request is whole and its deadline ends here.
        if body == CMHD_BODY_REFUSED { return daemon.server.refuseBody(connection, url: url, method: method) }
        if body == CMHD_BODY_NONE, cmhd_deadline_request_arrived(connection) != 0 { return .NO }
        // Counted before the start time is stored, so a drain that sees the slot set also sees the count.
        daemon.inFlight.add(1, ordering: .acquiringAndReleasing)
        // The request's start time, kept in MHD's per-request slot itself: no allocation per request.
        requestContext.pointee = UnsafeMutableRawPointer(bitPattern: UInt(max(LogTime.monotonicNanoseconds(), 1)))
        return .YES
    }
    if let uploadSize, uploadSize.pointee != 0 {
        // A small body (at most CMHD_MAXIMUM_BODY bytes): no route reads one, so it is dropped as it comes.
        uploadSize.pointee = 0
        return .YES
    }
    // The whole request is here (a body-less one passed this point already); the deadline ends, unless it fired.
    if cmhd_deadline_request_arrived(connection) != 0 { return .NO }
    return daemon.server.answer(NativeRequest(connection, url: url, method: method), started: UInt64(UInt(bitPattern: requestContext.pointee)))
}

/// Called once per request MHD handed to the access handler, whether answered or aborted.
let requestCompleted: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
    guard let context else { return }
    if let connection {
        // A reused page response is free again: libmicrohttpd has sent all of it (PageShells).
        if let tag = cmhd_request_tag_take(connection) { releaseShellTag(tag) }
        // The next request head on this connection is due from now (its response has ended).
        cmhd_deadline_restart(connection)
    }
    guard let requestContext, requestContext.pointee != nil else { return }
    requestContext.pointee = nil
    Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue().inFlight.subtract(1, ordering: .acquiringAndReleasing)
}
