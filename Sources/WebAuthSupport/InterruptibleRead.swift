import Foundation

extension FileHandle {
    /// The bytes that are there now, or the next to arrive (blocking until some do); empty at the
    /// end of the file, nil when a read fails.
    ///
    /// Foundation's `availableData` and `readDataToEndOfFile()` stop the process when a signal
    /// interrupts their read (`EINTR` becomes a `fatalError`), and signals do arrive in a process
    /// that hosts WebKit and its child processes. This reads again instead.
    package func readChunkRetryingInterruptions(maximum: Int = 65_536) -> Data? {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, maximum) }
            if count >= 0 { return Data(buffer[..<count]) }
            guard errno == EINTR else { return nil }
        }
    }

    /// Everything up to the end of the file, like `readDataToEndOfFile()` but reading again when
    /// a signal interrupts a read; nil when a read fails.
    package func readToEndRetryingInterruptions() -> Data? {
        var data = Data()
        while let chunk = readChunkRetryingInterruptions() {
            if chunk.isEmpty { return data }
            data += chunk
        }
        return nil
    }

    /// One line without its newline, read a byte at a time (nothing past the line is consumed);
    /// nil at the end of the file before any byte, or when a read fails.
    package func readLineRetryingInterruptions() -> String? {
        var line = Data()
        while let byte = readChunkRetryingInterruptions(maximum: 1), let first = byte.first {
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}
