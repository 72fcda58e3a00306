import Foundation

/// libFuzzer's entry point (built with `-sanitize=fuzzer -D FUZZING`, see fuzz/run).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    for target in FuzzTarget.selected { target.run(data) }
    return 0
}

#if !FUZZING
/// Without libFuzzer: replays the files and directories given (a corpus) through every target,
/// so a normal build can run the seed corpus as a regression check.
@main
enum Replay {
    static func main() throws {
        var count = 0
        for argument in CommandLine.arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
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
