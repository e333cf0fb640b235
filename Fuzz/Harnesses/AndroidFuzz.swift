// libFuzzer entry point for FuzzTargets.android. libFuzzer hands over a raw buffer, so this one line copies it
// into an array before any project code sees it.
import LinkHostFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroid(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTargets.android(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
