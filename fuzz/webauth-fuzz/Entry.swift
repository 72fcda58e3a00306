import Foundation

/// libFuzzer's entry point (built with `-sanitize=fuzzer -D FUZZING`, see fuzz/run).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    for target in FuzzTarget.selected { target.run(data) }
    return 0
}

#if FUZZING
/// libFuzzer's driver, for a program whose `main` is its own: SwiftPM names an executable's entry
/// point `webauth_fuzz_main` and points `main` at it, so libFuzzer's `main` is not linked in.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("webauth_fuzz_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzOneInput($0, $1) }
}
#else
/// Without libFuzzer: replays the files and directories given (a corpus) through every target,
/// so a normal build can run the seed corpus as a regression check.
@main
enum Replay {
    static func main() throws {
        var count = 0
        for argument in CommandLine.arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
            let files = isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: argument).sorted().map { argument + "/" + $0 } : [argument]
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                _ = data.withUnsafeBytes { fuzzOneInput($0.bindMemory(to: UInt8.self).baseAddress ?? UnsafePointer(bitPattern: 1)!, data.count) }
                count += 1
            }
        }
        print("replayed \(count) inputs through \(FuzzTarget.selected.map(\.rawValue).joined(separator: ", "))")
    }
}
#endif
